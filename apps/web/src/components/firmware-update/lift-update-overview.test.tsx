import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import type { LiftFirmwareUpdate } from '@liftlink/protocol';
import { changeLanguage } from '../../lib/i18n/language.ts';
import { useEnglish } from '../../test/render.tsx';
import { AntdStylesOffDocument } from '../../test/antd-styles.tsx';
import { endedOf, TEST_NOW, updateOf } from './firmware-update-fixtures.ts';
import { LiftUpdateOverview } from './lift-update-overview.tsx';

/** A time as the user sees it: in their own time zone (the test machine's). */
const local = (iso: string) => dayjs(iso).format('YYYY-MM-DD HH:mm');

function show(update: LiftFirmwareUpdate) {
  const { container } = render(<LiftUpdateOverview update={update} />, {
    wrapper: AntdStylesOffDocument,
  });
  const when = screen.getByTestId('firmware-update-when');
  // One text per line, as the user reads them.
  const lines = [...when.children].map((line) => line.textContent);
  return { container, when, lines };
}

const WINDOW = 'Installs between 02:00 and 05:00, Europe/Moscow time';
const NEXT = `Next window opens ${local('2026-11-29T23:00:00.000Z')}`;

describe('what a firmware update will do to a lift, and when', () => {
  beforeAll(useEnglish);
  // Only the clock is faked: the window's next opening is still ahead.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(TEST_NOW));
  });
  afterEach(() => vi.useRealTimers());
  afterAll(() => changeLanguage('en-US'));

  it('awaiting approval: waits for the maker, with the window in the lift’s local hours', () => {
    const { lines } = show(updateOf({ campaignState: 'awaitingApproval' }));
    expect(screen.getByTestId('firmware-update-outlook-awaitingApproval')).toHaveTextContent(
      'Awaiting approval',
    );
    expect(lines).toEqual(["Waits for the maker's approval", WINDOW]);
  });

  it('paused: says who paused it', () => {
    show(updateOf({ campaignState: 'paused', pauseReason: 'failureThreshold' }));
    expect(screen.getByTestId('firmware-update-outlook-paused')).toHaveTextContent('Paused');
    expect(screen.getByTestId('firmware-update-when').firstChild).toHaveTextContent(
      'The rollout paused itself: too many updates failed',
    );
  });

  it('scheduled: the stage, after which stage it starts, the window and when it next opens', () => {
    const { lines } = show(updateOf({ stage: 2, stageCount: 3, currentStage: 0 }));
    expect(screen.getByTestId('firmware-update-outlook-scheduled')).toHaveTextContent('Scheduled');
    expect(lines).toEqual(['Stage 3 of 3, after stage 2 ends', WINDOW, NEXT]);
  });

  it('scheduled: when the stage starts, once the campaign knows; any time without a window', () => {
    const starts = '2026-11-28T12:00:00.000Z';
    const { lines } = show(
      updateOf({
        stage: 1,
        currentStage: 0,
        stageStartsAt: starts,
        window: null,
        nextWindow: null,
      }),
    );
    expect(lines).toEqual([`Stage 2 of 3, starts ${local(starts)}`, 'Installs at any time']);
  });

  it('in progress: the lift’s state and download, why it waits and what to do, the next attempt', () => {
    const retryAt = '2026-11-29T23:00:00.000Z';
    const { lines } = show(
      updateOf({
        offeredAt: '2026-11-28T08:00:00.000Z',
        state: 'deferred',
        reason: 'outsideWindow',
        retryAt,
      }),
    );
    expect(screen.getByTestId('firmware-update-outlook-inProgress')).toHaveTextContent(
      'In progress',
    );
    expect(screen.getByTestId('campaign-lift-state-deferred')).toHaveTextContent('Deferred');
    expect(lines).toEqual([
      'Deferred',
      'Outside the installation window',
      'The lift installs once the window opens; nothing to do.',
      `Next attempt ${local(retryAt)}`,
      WINDOW,
    ]);
  });

  it('in progress: the download’s percent, and a window that is open now until it closes', () => {
    vi.setSystemTime(new Date('2026-11-30T00:00:00.000Z'));
    const { when, lines } = show(
      updateOf({ offeredAt: '2026-11-29T23:00:00.000Z', state: 'downloading', percent: 40 }),
    );
    expect(within(when).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(lines).toEqual([
      'Downloading40%',
      WINDOW,
      `Window open now, until ${local('2026-11-30T02:00:00.000Z')}`,
    ]);
  });

  it('done, failed (with its reason) and cancelled: when it ended, no window', () => {
    const at = '2026-11-27T10:30:00.000Z';
    expect(show(endedOf()).lines).toEqual([`Installed ${local(at)}`]);
    expect(screen.getByTestId('firmware-update-outlook-done')).toHaveTextContent('Installed');
    // Done: the lift runs the new version, shown once.
    expect(screen.getByTestId('firmware-update-version')).toHaveTextContent(/^SIM-1\.2\.0$/);

    cleanup();
    const failed = show(
      endedOf({ state: 'failed', reason: 'hashMismatch', runningVersion: 'SIM-1.0.0' }),
    );
    expect(screen.getByTestId('firmware-update-outlook-failed')).toHaveTextContent('Failed');
    expect(failed.lines).toEqual([
      `Failed ${local(at)}`,
      'The image is corrupted (SHA-256 mismatch)',
      'Send the update again; if this repeats, check the package and any proxy on the way.',
    ]);
    expect(screen.getByTestId('firmware-update-version')).toHaveTextContent(
      'SIM-1.0.0 → SIM-1.2.0',
    );

    cleanup();
    const cancelled = show(endedOf({ campaignState: 'cancelled', state: 'cancelled' }));
    expect(screen.getByTestId('firmware-update-outlook-cancelled')).toHaveTextContent('Cancelled');
    expect(cancelled.lines).toEqual([`Cancelled ${local(at)}`]);
  });

  it('speaks the user’s language: reason and advice, window and stage in Russian', async () => {
    await changeLanguage('ru-RU');
    const { lines } = show(
      updateOf({ offeredAt: TEST_NOW, state: 'deferred', reason: 'inTrip', retryAt: null }),
    );
    expect(screen.getByTestId('firmware-update-outlook-inProgress')).toHaveTextContent(
      'Выполняется',
    );
    expect(lines).toEqual([
      'Отложено',
      'Лифт в поездке или выполняет тест',
      'Лифт установит обновление сам, когда освободится; ничего делать не нужно.',
      'Установка с 02:00 до 05:00 по времени Europe/Moscow',
      `Ближайшее окно: ${local('2026-11-29T23:00:00.000Z')}`,
    ]);
    await changeLanguage('en-US');
  });

  it('shows the release notes on demand, in English when there are none in the user’s language', async () => {
    vi.useRealTimers();
    await changeLanguage('ru-RU');
    show(updateOf());
    expect(screen.queryByTestId('firmware-update-notes')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Что нового' }));
    expect(await screen.findByTestId('firmware-update-notes')).toHaveTextContent(
      'Gentler stop at the landings',
    );
    expect(screen.getByText('Что нового в SIM-1.2.0 (English)')).toBeInTheDocument();
    await changeLanguage('en-US');
  });

  it('offers no release notes link when the package has none', () => {
    show(updateOf({ releaseNotes: { 'zh-CN': '', 'en-US': '', 'ru-RU': '' } }));
    expect(screen.queryByRole('button', { name: 'Release notes' })).toBeNull();
  });
});
