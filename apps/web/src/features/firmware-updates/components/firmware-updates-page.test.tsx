import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LiftFirmwareUpdate } from '@liftlink/protocol';
import {
  endedOf,
  LIFT_ID,
  updateOf,
} from '../../../components/firmware-update/firmware-update-fixtures.ts';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { renderAt, useEnglish } from '../../../test/render.tsx';
import FirmwareUpdatesPage from './firmware-updates-page.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});
const get = vi.mocked(http.get);
const PATH = '/auth/access/lift/firmware-updates';
const SECOND = '6f1c2a3b-0000-4000-8000-000000000002';
const THIRD = '6f1c2a3b-0000-4000-8000-000000000003';

const awaiting = updateOf({ campaignState: 'awaitingApproval' });
const deferred = updateOf({
  liftId: SECOND,
  deviceNo: 'DEMO-0002',
  alias: null,
  operatorOrgName: 'Harbour Lifts',
  offeredAt: '2026-11-28T08:00:00.000Z',
  state: 'deferred',
  reason: 'outsideWindow',
});
const failed = endedOf({
  liftId: THIRD,
  deviceNo: 'DEMO-0003',
  alias: 'Library',
  state: 'failed',
  reason: 'hashMismatch',
  runningVersion: 'SIM-1.0.0',
});

function serve(list: LiftFirmwareUpdate[]) {
  get.mockImplementation(async (path: string) => {
    if (path === PATH) return { list };
    throw new Error(`unexpected GET ${path}`);
  });
}

// Plain selectors: role queries over a whole antd table are slow in jsdom.
const rows = () => [...document.querySelectorAll<HTMLElement>('tr[data-row-key]')];
const rowIds = () => rows().map((r) => r.getAttribute('data-testid'));

/** antd's breakpoints see a desktop: every min-width query matches. */
function desktop() {
  const original = Object.getOwnPropertyDescriptor(window, 'matchMedia')!;
  const phone = original.value as (query: string) => MediaQueryList;
  window.matchMedia = (query: string) => ({
    ...phone(query),
    matches: query.includes('min-width'),
  });
  return () => Object.defineProperty(window, 'matchMedia', original);
}

describe('the firmware updates page', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    get.mockReset();
  });
  let restore: (() => void) | null = null;
  afterEach(() => {
    restore?.();
    restore = null;
  });

  it('lists the open updates of the lifts, each with its outlook and when, linked to the lift', async () => {
    serve([awaiting, deferred, failed]);
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    expect(await screen.findByText('Firmware updates')).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rowIds()).toEqual([`firmware-update-row-${LIFT_ID}`, `firmware-update-row-${SECOND}`]);
    const [first, second] = rows();
    expect(within(first!).getByTestId('firmware-update-outlook-awaitingApproval')).toBeVisible();
    expect(within(first!).getByTestId('firmware-update-when')).toHaveTextContent(
      "Waits for the maker's approval",
    );
    expect(within(first!).getByTestId('firmware-update-lift')).toHaveAttribute(
      'href',
      `/lift/${LIFT_ID}`,
    );
    expect(first).toHaveTextContent('Station hall');
    expect(first).toHaveTextContent('City Transit');
    expect(first).toHaveTextContent('Gentler stop · Stairway Works');
    expect(within(second!).getByTestId('firmware-update-outlook-inProgress')).toBeVisible();
    expect(within(second!).getByTestId('firmware-update-when')).toHaveTextContent(
      'Outside the installation window',
    );
    expect(second).toHaveTextContent('Harbour Lifts');
    expect(get).toHaveBeenCalledWith(PATH, undefined, expect.anything());
  });

  it('shows those that ended too once asked, and searches by device number or name', async () => {
    serve([awaiting, deferred, failed]);
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup();
    await user.click(screen.getByTestId('firmware-updates-show-all'));
    await waitFor(() => expect(rows()).toHaveLength(3));
    const last = rows()[2]!;
    expect(within(last).getByTestId('firmware-update-outlook-failed')).toBeVisible();
    expect(within(last).getByTestId('firmware-update-when')).toHaveTextContent(
      'The image is corrupted (SHA-256 mismatch)',
    );

    await user.type(screen.getByRole('searchbox', { name: 'Device no. or name' }), 'libr');
    await waitFor(() => expect(rowIds()).toEqual([`firmware-update-row-${THIRD}`]));
    await user.clear(screen.getByRole('searchbox', { name: 'Device no. or name' }));
    await user.type(screen.getByRole('searchbox', { name: 'Device no. or name' }), 'nothing');
    expect(await screen.findByText('No lift matches “nothing”')).toBeInTheDocument();

    await user.click(screen.getByTestId('firmware-updates-show-open'));
    await user.clear(screen.getByRole('searchbox', { name: 'Device no. or name' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it('at desktop width: one column per fact', async () => {
    restore = desktop();
    serve([deferred]);
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    await waitFor(() => expect(rows()).toHaveLength(1));
    const headers = [...document.querySelectorAll('th')].map((th) => th.textContent);
    expect(headers).toEqual([
      'Lift',
      'Operator',
      'Version',
      'Campaign',
      'Status and time',
      'Updated',
    ]);
    expect(within(rows()[0]!).getByTestId('firmware-update-version')).toHaveTextContent(
      'SIM-1.0.0 → SIM-1.2.0',
    );
  });

  it('says no update is planned when there is none', async () => {
    serve([]);
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    expect(await screen.findByTestId('firmware-updates-empty-none')).toHaveTextContent(
      'No firmware updates are planned for your lifts',
    );
    expect(screen.queryByTestId('firmware-updates-show-ended')).toBeNull();
    // nothing to filter
    expect(screen.queryByTestId('firmware-updates-search')).toBeNull();
  });

  it('says none is planned right now when only ended ones exist, and shows them on request', async () => {
    serve([failed]);
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    expect(await screen.findByTestId('firmware-updates-empty-noneOpen')).toHaveTextContent(
      'No firmware update is planned for your lifts right now',
    );
    await userEvent.click(screen.getByTestId('firmware-updates-show-ended'));
    await waitFor(() => expect(rowIds()).toEqual([`firmware-update-row-${THIRD}`]));
  });

  it('shows a loading state, then a failed load with a retry that loads again', async () => {
    let fail!: (error: unknown) => void;
    get
      .mockImplementationOnce(() => new Promise((_, reject) => (fail = reject)))
      .mockResolvedValue({ list: [awaiting] });
    renderAt(<FirmwareUpdatesPage />, { path: '/lift/firmware-updates' });
    expect(await screen.findByRole('status')).toBeInTheDocument();
    // a 403 is not retried by itself: the error shows at once
    fail(new ApiError(403, 'forbidden', 'forbidden'));
    const error = await screen.findByTestId('panel-error');
    await userEvent.click(within(error).getByRole('button'));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });
});
