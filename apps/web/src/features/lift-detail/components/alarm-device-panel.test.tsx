import { beforeAll, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { AlarmDeviceView, LiftInfo } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish, InApp } from '../../../test/render.tsx';
import { liftListItem } from '../../../test/lift-fixtures.ts';
import { AlarmDevicePanel } from './alarm-device-panel.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(async () => ({ list: [], total: 0 })), post: vi.fn() } };
});

const post = vi.mocked(http.post);
const LIFT = '6f1c2a3b-0000-4000-8000-000000000002';

function info(alarmDevice: AlarmDeviceView | null): LiftInfo {
  const item = liftListItem({ id: LIFT, alias: 'Station' });
  return {
    lift: { ...item, iotInfo: {}, configVersion: 0, onlineSince: null },
    status: null,
    config: null,
    stats: { onlineMsTotal: 0, onlineMsToday: 0, tripsTotal: 0, tripsToday: 0 },
    alarmDevice,
    approvalClasses: [],
  };
}

function show(alarmDevice: AlarmDeviceView | null) {
  post.mockImplementation(async () => info(alarmDevice));
  render(<AlarmDevicePanel liftId={LIFT} />, { wrapper: InApp });
  return screen.getByTestId('panel-alarm-device');
}

describe('the alarm device panel (EN 81-28)', () => {
  beforeAll(useEnglish);

  it('says so when the alarm device has not reported yet', async () => {
    const panel = show(null);
    expect(await within(panel).findByText('The alarm device has not reported yet')).toBeTruthy();
  });

  it('shows a passed self-test and a good battery, without a warning', async () => {
    const panel = show({
      reportedAt: '2026-11-24T08:00:00.000Z',
      lastTest: { at: '2026-11-24T08:00:00.000Z', result: 'passed', failed: [] },
      battery: { percent: 87, voltage: null, low: false },
      testOverdue: false,
    });
    const test = await within(panel).findByTestId('alarm-device-test');
    expect(test.dataset.result).toBe('passed');
    expect(within(test).getByText('Passed')).toBeTruthy();
    const battery = within(panel).getByTestId('alarm-device-battery');
    expect(battery.textContent).toContain('Good');
    expect(battery.textContent).toContain('87 %');
    expect(within(panel).queryByTestId('alarm-device-overdue')).toBeNull();
  });

  it('names the failed parts, a low battery and an overdue test', async () => {
    const panel = show({
      reportedAt: '2026-11-24T08:00:00.000Z',
      lastTest: {
        at: '2026-11-20T08:00:00.000Z',
        result: 'failed',
        failed: ['speechLine', 'battery'],
      },
      battery: { percent: 12, voltage: 11.4, low: true },
      testOverdue: true,
    });
    const test = await within(panel).findByTestId('alarm-device-test');
    expect(within(test).getByText('Failed')).toBeTruthy();
    expect(test.textContent).toContain('speech line, battery');
    const battery = within(panel).getByTestId('alarm-device-battery');
    expect(battery.dataset.low).toBe('true');
    expect(battery.textContent).toContain('Low');
    expect(battery.textContent).toContain('12 % · 11.4 V');
    expect(within(panel).getByTestId('alarm-device-overdue').textContent).toBe(
      'No passed self-test within 72 h (EN 81-28)',
    );
  });
});
