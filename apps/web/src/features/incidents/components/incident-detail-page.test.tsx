import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { INCIDENT_STATES, INCIDENT_TRANSITIONS, type IncidentState } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import IncidentDetailPage from './incident-detail-page.tsx';
import {
  LIFT,
  TECH_ID,
  detailOf,
  incidentOf,
  postsTo,
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

const stepButtons = () =>
  within(screen.getByTestId('incident-actions'))
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid')?.replace('incident-step-', ''));

function showIncident(extra: Parameters<typeof incidentOf>[0] = {}, post = {}) {
  const incident = incidentOf(extra);
  serve({ get: { get: () => detailOf(incident) }, post });
  return incident;
}

describe('incident detail', () => {
  beforeAll(englishTexts);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('shows what, where and who: the fault code with its text, the lift with a link, steps and events', async () => {
    showIncident({ repeats: 3, lastRepeatAt: new Date().toISOString() });
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    expect(await screen.findByTestId('incident-subject')).toHaveTextContent(/^EC · /);
    expect(screen.getByTestId('incident-priority')).toHaveTextContent('High');
    expect(screen.getByTestId('incident-state')).toHaveTextContent('Open');
    expect(screen.getByTestId('incident-lift-link')).toHaveAttribute('href', `/lift/${LIFT}`);
    expect(screen.getByTestId('incident-lift-link')).toHaveTextContent('LL-0007 · Station B');
    expect(screen.getByTestId('incident-detail-assignee')).toHaveTextContent('Unassigned');
    expect(screen.getByText(/^3×, last at/)).toBeInTheDocument();
    expect(within(screen.getByTestId('incident-timeline')).getByText('Opened')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('incident-timeline')).getByText(/^System · /),
    ).toBeInTheDocument();
    const events = screen.getByTestId('incident-events');
    expect(within(events).getByText('EC')).toBeInTheDocument();
    expect(events).not.toHaveTextContent('server text');
  });

  it.each(INCIDENT_STATES.map((state) => [state]))(
    'offers exactly the steps the table allows from %s',
    async (state: IncidentState) => {
      showIncident({ state, assigneeId: TECH_ID, assigneeName: 'Tom' });
      renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
      await screen.findByTestId('incident-subject');
      if (INCIDENT_TRANSITIONS[state].length === 0) {
        expect(screen.queryByTestId('incident-actions')).toBeNull();
        return;
      }
      expect(stepButtons()).toEqual([...INCIDENT_TRANSITIONS[state]]);
    },
  );

  it('keeps "On my way" disabled with the reason until someone is assigned; "Take it" assigns me', async () => {
    const user = userEvent.setup();
    const incident = showIncident(
      { state: 'acknowledged' },
      {
        assign: (body: Record<string, unknown>) =>
          incidentOf({
            state: 'acknowledged',
            assigneeId: String(body.userId),
            assigneeName: 'Tom',
          }),
      },
    );
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    const onMyWay = await screen.findByTestId('incident-step-enRoute');
    expect(onMyWay).toBeDisabled();
    expect(screen.getByTestId('incident-step-enRoute-reason')).toHaveTextContent(
      'Assign a technician first',
    );
    expect(screen.getByTestId('incident-step-resolved')).toBeEnabled();

    vi.mocked(http.get).mockImplementation(async () =>
      detailOf({ ...incident, assigneeId: TECH_ID, assigneeName: 'Tom' }),
    );
    await user.click(screen.getByTestId('incident-take'));
    expect(postsTo('assign')).toEqual([{ id: 7, userId: TECH_ID }]);
    await waitFor(() => expect(screen.getByTestId('incident-step-enRoute')).toBeEnabled());
    expect(screen.queryByTestId('incident-step-enRoute-reason')).toBeNull();
    expect(screen.getByTestId('incident-detail-assignee')).toHaveTextContent('Tom');
  });

  it('resolving asks for a root cause of the lift kind and checks the text and parts before sending', async () => {
    const user = userEvent.setup();
    showIncident(
      { state: 'onSite', assigneeId: TECH_ID, assigneeName: 'Tom' },
      { transition: () => incidentOf({ state: 'resolved', rootCause: 'rackWear' }) },
    );
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    await user.click(await screen.findByTestId('incident-step-resolved'));
    const dialog = await screen.findByTestId('incident-resolve-modal');
    await user.click(within(dialog).getByTestId('incident-add-part'));
    await user.click(within(dialog).getByTestId('incident-resolution-text'));
    await user.paste('x'.repeat(4001));
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    // The root cause and the empty part line.
    await waitFor(() =>
      expect(within(dialog).getAllByText('Input cannot be empty')).toHaveLength(2),
    );
    expect(within(dialog).getByText('The input is too long')).toBeInTheDocument();
    expect(postsTo('transition')).toHaveLength(0);

    // The rack lift offers rack wear, not the hydraulic causes.
    await user.click(within(dialog).getByRole('combobox'));
    expect(await screen.findByText('Rack wear or misalignment')).toBeInTheDocument();
    expect(screen.queryByText('Hydraulic leak')).toBeNull();
    await user.click(screen.getByText('Rack wear or misalignment'));
    await user.clear(within(dialog).getByTestId('incident-resolution-text'));
    await user.type(
      within(dialog).getByTestId('incident-resolution-text'),
      'Rack segment replaced',
    );
    await user.type(within(dialog).getByTestId('incident-part-0'), 'Rack segment 1 m');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(postsTo('transition')).toHaveLength(1));
    expect(postsTo('transition')[0]).toEqual({
      id: 7,
      to: 'resolved',
      rootCause: 'rackWear',
      resolutionText: 'Rack segment replaced',
      partsUsed: ['Rack segment 1 m'],
    });
  });

  it("shows the server's refusal in the user's language and keeps the state", async () => {
    const user = userEvent.setup();
    showIncident(
      { state: 'open' },
      {
        transition: () => {
          throw new ApiError(
            409,
            'incident.transition',
            'The incident cannot go to that state from its current one',
          );
        },
      },
    );
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    await user.click(await screen.findByTestId('incident-step-acknowledged'));
    expect(
      await screen.findByText('The incident cannot go to that state from its current one'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('incident-state')).toHaveTextContent('Open');
  });

  it('cancelling asks to confirm and sends the note given', async () => {
    const user = userEvent.setup();
    showIncident({ state: 'open' }, { transition: () => incidentOf({ state: 'cancelled' }) });
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    await user.click(await screen.findByTestId('incident-step-cancelled'));
    const dialog = await screen.findByTestId('incident-confirm');
    expect(postsTo('transition')).toHaveLength(0);
    await user.type(within(dialog).getByTestId('incident-confirm-note'), 'False alarm, tested');
    await user.click(screen.getByTestId('incident-confirm-ok'));
    await waitFor(() =>
      expect(postsTo('transition')).toEqual([
        { id: 7, to: 'cancelled', note: 'False alarm, tested' },
      ]),
    );
  });

  it('follows a change by someone else live', async () => {
    const incident = showIncident({ state: 'open' });
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    await screen.findByTestId('incident-step-acknowledged');
    const moved = {
      ...incident,
      state: 'acknowledged' as const,
      assigneeId: 'x',
      assigneeName: 'Ann',
    };
    vi.mocked(http.get).mockImplementation(async () => detailOf(moved));
    pushLive({ type: 'incident', liftId: LIFT, incident: moved });
    await waitFor(() =>
      expect(screen.getByTestId('incident-state')).toHaveTextContent('Acknowledged'),
    );
    expect(stepButtons()).toEqual(['enRoute', 'resolved', 'cancelled']);
    expect(screen.getByTestId('incident-detail-assignee')).toHaveTextContent('Ann');
  });

  it('adds a note (an empty one is refused before sending) and lists it', async () => {
    const user = userEvent.setup();
    const incident = showIncident(
      { state: 'acknowledged' },
      { 'notes/add': () => incidentOf({ state: 'acknowledged' }) },
    );
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7' });
    await user.click(await screen.findByTestId('incident-note-add'));
    expect(await screen.findByText('Input cannot be empty')).toBeInTheDocument();
    expect(postsTo('notes/add')).toHaveLength(0);
    vi.mocked(http.get).mockImplementation(async () =>
      detailOf(incident, {
        notes: [
          {
            id: 1,
            authorId: TECH_ID,
            authorName: 'Tom',
            at: new Date().toISOString(),
            text: 'Spare belt ordered',
          },
        ],
      }),
    );
    await user.type(screen.getByTestId('incident-note-text'), '  Spare belt ordered ');
    await user.click(screen.getByTestId('incident-note-add'));
    await waitFor(() =>
      expect(postsTo('notes/add')).toEqual([{ id: 7, text: 'Spare belt ordered' }]),
    );
    expect(
      await within(screen.getByTestId('incident-notes')).findByText('Spare belt ordered'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('incident-note-text')).toHaveValue('');
  });

  it('shows no controls to a viewer (the server refuses anyway)', async () => {
    showIncident({ state: 'open' });
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/7', role: 'viewer' });
    await screen.findByTestId('incident-subject');
    expect(screen.queryByTestId('incident-actions')).toBeNull();
    expect(screen.queryByTestId('incident-assign')).toBeNull();
    expect(screen.queryByTestId('incident-note-text')).toBeNull();
  });

  it('says an incident out of reach is not found', async () => {
    serve({
      get: {
        get: () => {
          throw new ApiError(404, 'incident.notFound', 'Incident not found');
        },
      },
    });
    renderPage(<IncidentDetailPage />, { path: '/lift/incidents/9' });
    expect(await screen.findByText('Incident not found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Back to incidents/ })).toBeInTheDocument();
  });
});
