import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maintenancePlanSetSchema } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { MaintenanceTab } from './maintenance-tab.tsx';
import {
  BASE,
  LIFT,
  OPERATOR_ACCESS,
  TECHNICIAN_ACCESS,
  VIEWER_ACCESS,
  englishTexts,
  liftInfoOf,
  maintenanceOf,
  postedTo,
  renderPage,
  serve,
  visitOf,
} from './maintenance-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const ROUTE = '/lift/:liftId';
const PATH = `/lift/${LIFT}`;

function serveTab() {
  serve({
    get: {
      [BASE]: () => maintenanceOf(),
      [`${BASE}/visits`]: () => ({ list: [visitOf()], total: 1 }),
    },
    post: {
      [`${BASE}/plan/set`]: (body) =>
        maintenanceOf({
          plan: {
            liftId: LIFT,
            intervalDays: (body.intervalDays as number | null) ?? null,
            intervalTrips: (body.intervalTrips as number | null) ?? null,
            since: '2026-11-25T00:00:00.000Z',
            updatedByName: 'Tom',
          },
        }),
    },
  });
}

describe("the lift page's Maintenance tab", () => {
  beforeAll(englishTexts);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('shows the plan, the due state by date and trips, and the past visits with results', async () => {
    const user = userEvent.setup();
    serveTab();
    renderPage(<MaintenanceTab info={liftInfoOf(TECHNICIAN_ACCESS)} />, {
      path: PATH,
      route: ROUTE,
    });
    expect(await screen.findByTestId('due-status')).toHaveTextContent('Overdue');
    expect(screen.getByTestId('due-days')).toHaveTextContent('Due 2026-10-30 (overdue 26 d)');
    expect(screen.getByTestId('due-trips')).toHaveTextContent('5,200 of 5,000 trips (200 over)');
    expect(screen.getByTestId('maintenance-plan-days')).toHaveTextContent('Every 90 days');
    expect(screen.getByTestId('maintenance-plan-trips')).toHaveTextContent('Every 5,000 trips');

    const visit = await screen.findByTestId('maintenance-visit');
    expect(visit).toHaveTextContent('Tom');
    expect(within(visit).getByTestId('visit-result')).toHaveTextContent('1 failed');
    await user.click(within(visit).getByRole('button', { expanded: false }));
    expect(within(visit).getByTestId('visit-result-batteryVoltage')).toHaveTextContent(
      'Fail · 23.1 V (Limits 24–28.8 V)',
    );
    expect(within(visit).getByTestId('visit-findings')).toHaveTextContent('Battery replaced');

    // A technician records visits but does not change the plan.
    expect(screen.queryByTestId('maintenance-plan-edit')).toBeNull();
    await user.click(screen.getByTestId('maintenance-record-visit'));
    expect(await screen.findByTestId('stand-in-visit')).toBeInTheDocument();
  });

  it('is read-only for a user who may only look', async () => {
    serveTab();
    renderPage(<MaintenanceTab info={liftInfoOf(VIEWER_ACCESS)} />, {
      path: PATH,
      route: ROUTE,
      role: 'viewer',
    });
    expect(await screen.findByTestId('maintenance-plan')).toBeInTheDocument();
    await screen.findByTestId('maintenance-visit');
    expect(screen.queryByTestId('maintenance-record-visit')).toBeNull();
    expect(screen.queryByTestId('maintenance-plan-edit')).toBeNull();
    expect(screen.queryByTestId('maintenance-plan-delete')).toBeNull();
  });

  it('lets those who may change the plan set its intervals', async () => {
    const user = userEvent.setup();
    serveTab();
    renderPage(<MaintenanceTab info={liftInfoOf(OPERATOR_ACCESS)} />, {
      path: PATH,
      route: ROUTE,
      role: 'operator',
    });
    await user.click(await screen.findByTestId('maintenance-plan-edit'));
    const dialog = await screen.findByTestId('maintenance-plan-modal');
    const days = within(dialog).getByTestId('maintenance-plan-days-input');
    const trips = within(dialog).getByTestId('maintenance-plan-trips-input');
    await user.clear(days);
    await user.clear(trips);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Give a days interval, a trips interval or both'),
    ).toBeInTheDocument();
    expect(postedTo(`${BASE}/plan/set`)).toHaveLength(0);

    await user.type(days, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(postedTo(`${BASE}/plan/set`)).toHaveLength(1));
    const [body] = postedTo(`${BASE}/plan/set`);
    expect(body).toEqual({ liftId: LIFT, intervalDays: 30, intervalTrips: null });
    expect(maintenancePlanSetSchema.safeParse(body).success).toBe(true);
    await waitFor(() =>
      expect(screen.getByTestId('maintenance-plan-days')).toHaveTextContent('Every 30 days'),
    );
    expect(screen.getByTestId('maintenance-plan-trips')).toHaveTextContent('—');
  });
});
