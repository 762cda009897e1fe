import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import IncidentsPage from './incidents-page.tsx';
import {
  LIFT,
  TECH_ID,
  incidentOf,
  listQueries,
  renderPage,
  serve,
  englishTexts,
} from './incidents-test-kit.tsx';
import { pushLive } from './incidents-test-live.ts';

vi.mock(
  '../../../lib/live/use-live.ts',
  async () => (await import('./incidents-test-live.ts')).liveMock,
);
vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const HELP = incidentOf({
  id: 9,
  cause: 'help',
  code: null,
  priority: 'critical',
  alias: 'Hall',
  deviceNo: 'LL-0009',
});
const FAULT = incidentOf({ id: 7, repeats: 4, assigneeId: TECH_ID, assigneeName: 'Tom' });
const cards = () => screen.getAllByTestId('incident-card');

describe('incidents list', () => {
  beforeAll(englishTexts);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it("shows the server's order with the priority, cause, lift, assignee, age and repeats of each", async () => {
    serve({ get: { '': () => ({ list: [HELP, FAULT], total: 2 }) } });
    renderPage(<IncidentsPage />, { path: '/lift/incidents' });
    await waitFor(() => expect(cards()).toHaveLength(2));
    const [help, fault] = cards();
    expect(within(help!).getByTestId('incident-priority')).toHaveTextContent('Critical');
    expect(help).toHaveClass('incident-card-critical');
    expect(help).toHaveTextContent('Someone pressed the help button on the platform');
    expect(help).toHaveTextContent('LL-0009 · Hall');
    expect(within(help!).getByTestId('incident-assignee')).toHaveTextContent('Unassigned');
    expect(help).toHaveTextContent('Open for 15 min');
    expect(help).toHaveAttribute('href', '/lift/incidents/9');
    expect(fault).toHaveTextContent(/EC · /);
    expect(within(fault!).getByTestId('incident-repeats')).toHaveTextContent('Repeated 4×');
    expect(within(fault!).getByTestId('incident-assignee')).toHaveTextContent('Tom');
    expect(listQueries()[0]).toMatchObject({ state: 'active', page: 1 });
  });

  it('filters by state and by "assigned to me"', async () => {
    const user = userEvent.setup();
    serve({ get: { '': () => ({ list: [], total: 0 }) } });
    renderPage(<IncidentsPage />, { path: '/lift/incidents' });
    expect(await screen.findByText('No active incidents')).toBeInTheDocument();
    await user.click(screen.getByText('Closed'));
    await waitFor(() => expect(listQueries().at(-1)).toMatchObject({ state: 'closed' }));
    await user.click(screen.getByText('All'));
    await waitFor(() => expect(listQueries().at(-1)?.state).toBeUndefined());
    await user.click(screen.getByTestId('incident-mine'));
    await waitFor(() => expect(listQueries().at(-1)).toMatchObject({ assigneeId: TECH_ID }));
    expect(screen.getByText('No incidents')).toBeInTheDocument();
  });

  it("shows one lift's incidents from the lift page's link, and every lift again when its tag is closed", async () => {
    const user = userEvent.setup();
    serve({ get: { '': () => ({ list: [], total: 0 }) } });
    const { router } = renderPage(<IncidentsPage />, {
      path: `/lift/incidents?liftId=${LIFT}&lift=Stairs%20east`,
    });
    expect(await screen.findByTestId('incident-filter-lift')).toHaveTextContent('Lift: Stairs east');
    await waitFor(() => expect(listQueries().at(-1)).toMatchObject({ liftId: LIFT, state: 'active' }));
    await user.click(screen.getByLabelText('Show every lift'));
    await waitFor(() => expect(listQueries().at(-1)?.liftId).toBeUndefined());
    expect(screen.queryByTestId('incident-filter-lift')).toBeNull();
    expect(router.state.location.search).toBe('');
  });

  it('changes a card when a live message says so, and shows a new incident', async () => {
    let list = [FAULT];
    serve({ get: { '': () => ({ list, total: list.length }) } });
    renderPage(<IncidentsPage />, { path: '/lift/incidents' });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(within(cards()[0]!).getByTestId('incident-state')).toHaveTextContent('Open');

    const moved = { ...FAULT, state: 'enRoute' as const };
    list = [moved];
    pushLive({ type: 'incident', liftId: LIFT, incident: moved });
    await waitFor(() =>
      expect(within(cards()[0]!).getByTestId('incident-state')).toHaveTextContent('On the way'),
    );

    list = [HELP, moved];
    pushLive({ type: 'incident', liftId: HELP.liftId, incident: HELP });
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(cards()[0]).toHaveTextContent('Critical');

    // A repeat counts up in place, without asking the server again.
    const calls = listQueries().length;
    pushLive({ type: 'incident', liftId: LIFT, incident: { ...moved, repeats: 5 } });
    await waitFor(() =>
      expect(within(cards()[1]!).getByTestId('incident-repeats')).toHaveTextContent('Repeated 5×'),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(listQueries()).toHaveLength(calls);
  });

  it('says why the list did not load and retries', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      get: {
        '': () => {
          if (fail) throw new ApiError(500, 'server.error', 'boom');
          return { list: [FAULT], total: 1 };
        },
      },
    });
    renderPage(<IncidentsPage />, { path: '/lift/incidents' });
    const error = await screen.findByTestId('panel-error', undefined, { timeout: 10_000 });
    fail = false;
    await user.click(within(error).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
  });

  it('opens an incident by hand: lift and words are required, then its page opens', async () => {
    const user = userEvent.setup();
    serve({
      get: {
        '': () => ({ list: [], total: 0 }),
      },
      post: {
        create: () => incidentOf({ id: 12, cause: 'manual', code: null, title: 'Seat belt torn' }),
      },
    });
    vi.mocked(http.get).mockImplementation(async (url: string) =>
      url === '/auth/access/lift/get'
        ? { list: [{ id: LIFT, deviceNo: 'LL-0007', alias: 'Station B' }], total: 1 }
        : { list: [], total: 0 },
    );
    renderPage(<IncidentsPage />, { path: '/lift/incidents' });
    await user.click(await screen.findByTestId('incident-create'));
    const dialog = await screen.findByTestId('incident-create-modal');
    await user.click(within(dialog).getByRole('button', { name: 'Open incident' }));
    await waitFor(() =>
      expect(within(dialog).getAllByText('Input cannot be empty')).toHaveLength(2),
    );
    expect(vi.mocked(http.post)).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('combobox', { name: 'Lift' }));
    await user.click(await screen.findByText('LL-0007 · Station B'));
    await user.type(within(dialog).getByTestId('incident-create-title'), 'Seat belt torn');
    await user.click(within(dialog).getByRole('button', { name: 'Open incident' }));
    expect(await screen.findByTestId('stand-in-detail')).toBeInTheDocument();
    expect(vi.mocked(http.post)).toHaveBeenCalledWith('/auth/access/incidents/create', {
      liftId: LIFT,
      title: 'Seat belt torn',
      priority: 'normal',
    });
  });

  it('offers opening an incident only to those who may', async () => {
    serve({ get: { '': () => ({ list: [FAULT], total: 1 }) } });
    renderPage(<IncidentsPage />, { path: '/lift/incidents', role: 'viewer' });
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.queryByTestId('incident-create')).toBeNull();
  });
});
