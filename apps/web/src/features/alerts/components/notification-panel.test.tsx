import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertView, IncidentNotification } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish, userInfo } from '../../../test/render.tsx';
import NotificationPanel from './notification-panel.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const LIFT = '44444444-4444-4444-8444-444444444444';
const ALERT: AlertView & { read: boolean; readAt: null } = {
  id: 5,
  liftId: LIFT,
  deviceNo: 'LL-0001',
  alias: 'Station',
  kind: 'help',
  code: null,
  raisedAt: '2026-03-01T08:00:00.000Z',
  clearedAt: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
  read: true,
  readAt: null,
};
const base = {
  incidentId: 12,
  liftId: LIFT,
  deviceNo: 'LL-0001',
  alias: 'Station',
  cause: 'fault',
  code: 'E01',
  title: null,
  priority: 'high' as const,
};
const ASKED: IncidentNotification = {
  ...base,
  id: 1,
  kind: 'escalated',
  manager: false,
  actorName: null,
  at: '2026-03-01T08:05:00.000Z',
  read: true,
};
const MANAGER: IncidentNotification = {
  ...ASKED,
  id: 2,
  manager: true,
  incidentId: 13,
  at: '2026-03-01T08:10:00.000Z',
  read: true,
};
const TAKEN: IncidentNotification = {
  ...base,
  id: 3,
  kind: 'taken',
  manager: false,
  actorName: 'Boris',
  at: '2026-03-01T08:20:00.000Z',
  read: false,
};

describe('the bell with escalated incidents', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockImplementation(async (url: string) => {
      if (url === '/auth/access/notifications') return { list: [ALERT], unread: 0 };
      if (url === '/auth/access/notifications/incidents')
        return { list: [TAKEN, MANAGER, ASKED], unread: 1 };
      throw new Error(`unexpected GET ${url}`);
    });
    vi.mocked(http.post).mockResolvedValue(null);
  });

  it('lists the incident notifications with the alerts, newest first, and marks one read when opened', async () => {
    renderAt(<NotificationPanel onClose={() => undefined} />, {
      session: { info: userInfo('technician'), permissions: [], routes: [] },
    });
    expect(await screen.findByText('Taken by Boris')).toBeInTheDocument();
    expect(
      screen.getByText('Nobody on call acknowledged it: you are the manager'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Nobody has acknowledged it: you are next on call'),
    ).toBeInTheDocument();
    expect(screen.getByText('Incident #13')).toBeInTheDocument();
    // The newest first, the alert (oldest) last.
    const rows = screen.getAllByTestId(/^notification-(item|incident)$/);
    expect(rows.map((r) => r.dataset.testid)).toEqual([
      'notification-incident',
      'notification-incident',
      'notification-incident',
      'notification-item',
    ]);
    expect(rows[0]).toHaveAttribute('data-read', 'false');

    const user = userEvent.setup();
    await user.click(screen.getByText('Taken by Boris'));
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith('/auth/access/notifications/incidents/read', {
        ids: [3],
      }),
    );
  });

  it('marks every unread one read', async () => {
    renderAt(<NotificationPanel onClose={() => undefined} />, {
      session: { info: userInfo('technician'), permissions: [], routes: [] },
    });
    const user = userEvent.setup();
    await screen.findByText('Taken by Boris');
    await user.click(screen.getByTestId('notifications-read-all'));
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith('/auth/access/notifications/incidents/read', {
        ids: [3],
      }),
    );
    // No unread alert: the alerts' route is not called for nothing.
    expect(
      vi.mocked(http.post).mock.calls.filter(([u]) => u === '/auth/access/notifications/read'),
    ).toHaveLength(0);
  });
});
