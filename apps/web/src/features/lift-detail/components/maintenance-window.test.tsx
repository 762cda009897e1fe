import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MaintenanceWindow } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { MaintenanceWindowBar } from './maintenance-window.tsx';
import { LIFT, postedTo, renderInApp, serveRoutes } from './logbook-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn(), download: vi.fn() } };
});

const LIST = '/auth/access/lift/maintenance-windows';
const DECLARE = `${LIST}/declare`;
const END = `${LIST}/end`;

function windowOf(startOffsetMs: number, endOffsetMs: number): MaintenanceWindow {
  const now = Date.now();
  return {
    id: 12,
    liftIds: [LIFT],
    startsAt: new Date(now + startOffsetMs).toISOString(),
    endsAt: new Date(now + endOffsetMs).toISOString(),
    reason: 'Rope replacement',
    declaredById: '11111111-1111-4111-8111-111111111111',
    declaredByName: 'olga',
    declaredAt: new Date(now - 60_000).toISOString(),
    endedByName: null,
  };
}

const all = { canSee: true, canDeclare: true, canEnd: true };

describe('maintenance window on the lift page', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockReset();
  });

  it('shows a banner while a window runs: alerts held until its end, why and by whom', async () => {
    const running = windowOf(-600_000, 3_600_000);
    serveRoutes({ get: { [LIST]: () => ({ list: [running] }) } });
    renderInApp(<MaintenanceWindowBar liftId={LIFT} {...all} />);
    const banner = await screen.findByTestId('maintenance-banner');
    expect(banner).toHaveAttribute('data-state', 'running');
    expect(banner).toHaveTextContent(
      /Maintenance window: alerts are held until \d{4}-\d\d-\d\d \d\d:\d\d/,
    );
    expect(banner).toHaveTextContent('Reason: Rope replacement · declared by olga');
    expect(vi.mocked(http.get).mock.calls[0]?.[1]).toEqual({ liftId: LIFT, current: 'true' });
    // A running window is not declared again from here.
    expect(screen.queryByTestId('maintenance-declare')).not.toBeInTheDocument();
  });

  it('ends the running window only after the confirmation', async () => {
    const user = userEvent.setup();
    const running = windowOf(-600_000, 3_600_000);
    let list = [running];
    serveRoutes({
      get: { [LIST]: () => ({ list }) },
      post: {
        [END]: () => {
          list = [];
          return { ...running, endsAt: new Date().toISOString(), endedByName: 'olga' };
        },
      },
    });
    renderInApp(<MaintenanceWindowBar liftId={LIFT} {...all} />);
    await user.click(await screen.findByTestId('maintenance-end'));
    expect(
      await screen.findByText(
        'End the maintenance window now? The lift raises alerts again from now on.',
      ),
    ).toBeInTheDocument();
    expect(postedTo(END)).toHaveLength(0);
    await user.click(screen.getByTestId('maintenance-end-confirm'));
    await waitFor(() => expect(postedTo(END)).toEqual([{ id: 12 }]));
    expect(await screen.findByText('Maintenance window ended')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument());
  });

  it('shows a planned window as planned, and no End without incident.edit', async () => {
    serveRoutes({ get: { [LIST]: () => ({ list: [windowOf(3_600_000, 7_200_000)] }) } });
    renderInApp(<MaintenanceWindowBar liftId={LIFT} {...all} canEnd={false} />);
    const banner = await screen.findByTestId('maintenance-banner');
    expect(banner).toHaveAttribute('data-state', 'planned');
    expect(banner).toHaveTextContent(/Maintenance window planned from .+ to .+/);
    expect(screen.queryByTestId('maintenance-end')).not.toBeInTheDocument();
  });

  it('reads nothing and shows nothing without incident.query', () => {
    serveRoutes({});
    renderInApp(
      <MaintenanceWindowBar liftId={LIFT} canSee={false} canDeclare={false} canEnd={false} />,
    );
    expect(screen.queryByTestId('maintenance-banner')).not.toBeInTheDocument();
    expect(screen.queryByTestId('maintenance-declare')).not.toBeInTheDocument();
    expect(http.get).not.toHaveBeenCalled();
  });

  it('declares a window: the protocol schema names a missing end and reason, nothing is sent until fixed', async () => {
    const user = userEvent.setup();
    serveRoutes({
      get: { [LIST]: () => ({ list: [] }) },
      post: { [DECLARE]: (body) => ({ ...windowOf(0, 3_600_000), reason: String(body.reason) }) },
    });
    renderInApp(<MaintenanceWindowBar liftId={LIFT} {...all} />);
    await user.click(await screen.findByTestId('maintenance-declare'));
    const dialog = await screen.findByTestId('maintenance-declare-modal');
    await user.click(screen.getByTestId('maintenance-submit'));
    // Each field validates on its own tick: wait until both have said it.
    await waitFor(() => expect(within(dialog).getAllByText('Input cannot be empty')).toHaveLength(2));
    expect(postedTo(DECLARE)).toHaveLength(0);

    // An end before the start is refused on the end field.
    const ends = within(dialog).getByTestId('maintenance-ends-at');
    const input = ends.querySelector('input') ?? ends;
    await user.click(input);
    await user.type(input, '2020-01-01 10:00:00{Enter}');
    await user.type(within(dialog).getByTestId('maintenance-reason'), 'Rope replacement');
    await user.click(screen.getByTestId('maintenance-submit'));
    expect(await within(dialog).findByText('The input is not valid')).toBeInTheDocument();
    expect(postedTo(DECLARE)).toHaveLength(0);

    const later = new Date(Date.now() + 2 * 3_600_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    const text = `${later.getFullYear()}-${pad(later.getMonth() + 1)}-${pad(later.getDate())} ${pad(later.getHours())}:${pad(later.getMinutes())}:00`;
    await user.click(input);
    await user.clear(input);
    await user.type(input, `${text}{Enter}`);
    await user.click(screen.getByTestId('maintenance-submit'));
    await waitFor(() => expect(postedTo(DECLARE)).toHaveLength(1));
    const sent = postedTo(DECLARE)[0]!;
    // The start left as shown means "now": the server starts it on arrival.
    expect(sent).toEqual({
      liftIds: [LIFT],
      endsAt: expect.any(String),
      reason: 'Rope replacement',
    });
    expect(Math.abs(Date.parse(String(sent.endsAt)) - later.setSeconds(0, 0))).toBeLessThan(1000);
    expect(await screen.findByText('Maintenance window declared')).toBeInTheDocument();
  });
});
