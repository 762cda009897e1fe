import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings as Settings } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import { NotificationSettings } from './notification-settings.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const SAVED: Settings = {
  mailFaults: true,
  mailHelp: false,
  mailOffline: false,
  mailAlarmDevice: false,
  mailMaintenance: false,
  mailReport: false,
  offlineMinutes: 60,
  liftIds: ['11111111-1111-4111-8111-111111111111'],
};

describe('notification settings', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockResolvedValue(SAVED);
  });

  it('shows what the user chose and turns on the weekly maintenance summary', async () => {
    vi.mocked(http.post).mockResolvedValue(null);
    renderAt(<NotificationSettings />);
    const weekly = await screen.findByRole('switch', { name: 'Weekly maintenance summary' });
    expect(screen.getByRole('switch', { name: 'Lift faults' })).toBeChecked();
    expect(weekly).not.toBeChecked();
    expect(screen.getByText(/mail me the lifts whose maintenance is overdue/)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(weekly);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/account/notifications/update',
      { ...SAVED, mailMaintenance: true },
    ]);
  });

  it('turns on the monthly report by mail', async () => {
    vi.mocked(http.post).mockResolvedValue(null);
    renderAt(<NotificationSettings />);
    const monthly = await screen.findByRole('switch', { name: 'Monthly report by mail' });
    expect(monthly).not.toBeChecked();
    expect(
      screen.getByText(/last month's availability report of my organization/),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(monthly);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.post).toHaveBeenCalledTimes(1));
    expect(vi.mocked(http.post).mock.calls[0]!.slice(0, 2)).toEqual([
      '/auth/access/account/notifications/update',
      { ...SAVED, mailReport: true },
    ]);
  });
});
