import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { LiftFirmwareUpdate } from '@liftlink/protocol';
import {
  endedOf,
  LIFT_ID,
  updateOf,
} from '../../../components/firmware-update/firmware-update-fixtures.ts';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import { pushLive } from './control-test-live.ts';
import { FirmwareUpdateCard } from './firmware-update-card.tsx';

vi.mock(
  '../../../lib/live/use-live.ts',
  async () => (await import('./control-test-live.ts')).liveMock,
);
vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
const get = vi.mocked(http.get);
const PATH = '/auth/access/lift/firmware-updates';

function serve(...lists: LiftFirmwareUpdate[][]) {
  for (const list of lists.slice(0, -1)) get.mockResolvedValueOnce({ list });
  get.mockResolvedValue({ list: lists.at(-1) });
}

const show = () => renderAt(<FirmwareUpdateCard liftId={LIFT_ID} />, { path: `/lift/${LIFT_ID}` });

describe('the firmware update card of the lift page', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    get.mockReset();
  });

  it('shows the lift’s open update: outlook, version, campaign and when', async () => {
    serve([updateOf({ campaignState: 'awaitingApproval' }), endedOf()]);
    show();
    const card = await screen.findByTestId('lift-firmware-update-card');
    expect(within(card).getByText('Firmware update')).toBeInTheDocument();
    const items = within(card).getAllByTestId(`firmware-update-row-${LIFT_ID}`);
    expect(items).toHaveLength(1);
    expect(within(items[0]!).getByTestId('firmware-update-outlook-awaitingApproval')).toBeVisible();
    expect(within(items[0]!).getByTestId('firmware-update-version')).toHaveTextContent(
      'SIM-1.0.0 → SIM-1.2.0',
    );
    expect(items[0]).toHaveTextContent('Gentler stop · Stairway Works');
    expect(within(items[0]!).getByTestId('firmware-update-when')).toHaveTextContent(
      "Waits for the maker's approvalInstalls between 02:00 and 05:00, Europe/Moscow time",
    );
    expect(within(card).getByRole('link', { name: 'All updates' })).toHaveAttribute(
      'href',
      '/lift/firmware-updates?show=all&search=DEMO-0001',
    );
    expect(get).toHaveBeenCalledWith(PATH, { liftId: LIFT_ID }, expect.anything());
  });

  it('without an open update, shows how the last one ended', async () => {
    serve([
      endedOf({ state: 'failed', reason: 'hashMismatch', runningVersion: 'SIM-1.0.0' }),
      endedOf({ updatedAt: '2026-11-01T10:00:00.000Z' }),
    ]);
    show();
    const card = await screen.findByTestId('lift-firmware-update-card');
    const items = within(card).getAllByTestId(`firmware-update-row-${LIFT_ID}`);
    expect(items).toHaveLength(1);
    expect(within(items[0]!).getByTestId('firmware-update-outlook-failed')).toBeVisible();
    expect(items[0]).toHaveTextContent('The image is corrupted (SHA-256 mismatch)');
  });

  it('is not shown when the lift has no update, nor when they cannot be read', async () => {
    serve([]);
    const { unmount } = show();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('lift-firmware-update-card')).toBeNull();
    unmount();

    get.mockReset();
    get.mockRejectedValue(new ApiError(403, 'forbidden', 'forbidden'));
    show();
    await waitFor(() => expect(get).toHaveBeenCalledTimes(1));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('lift-firmware-update-card')).toBeNull();
  });

  it('reads the update again when the lift reports on it over the live socket', async () => {
    const offered = updateOf({ offeredAt: '2026-11-28T08:00:00.000Z', state: 'offered' });
    serve([offered], [{ ...offered, state: 'downloading', percent: 30 }]);
    show();
    expect(await screen.findByTestId('campaign-lift-state-offered')).toBeInTheDocument();
    pushLive({
      type: 'firmware',
      liftId: LIFT_ID,
      offerSeq: 1,
      packageId: null,
      campaignId: offered.campaignId,
      version: 'SIM-1.2.0',
      state: 'downloading',
      percent: 30,
      reason: null,
      retryAt: null,
      runningVersion: 'SIM-1.0.0',
      ts: '2026-11-28T08:01:00.000Z',
    });
    expect(await screen.findByTestId('campaign-lift-state-downloading')).toBeInTheDocument();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
