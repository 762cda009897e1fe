import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maintenanceVisitRecordSchema } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import VisitPage from './visit-page.tsx';
import {
  BASE,
  LIFT,
  TECHNICIAN_ACCESS,
  VIEWER_ACCESS,
  englishTexts,
  liftInfoOf,
  maintenanceOf,
  openIncident,
  postedTo,
  renderPage,
  serve,
  visitOf,
} from './maintenance-test-kit.tsx';

vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

/** The signed-in user of renderPage (userInfo's id): drafts are kept per user and lift. */
const TOM = '11111111-1111-4111-8111-111111111111';
const ROUTE = '/lift/maintenance/visit/:liftId';
const PATH = `/lift/maintenance/visit/${LIFT}`;
const RECORD = `${BASE}/visits/record`;

function serveLift(
  access = TECHNICIAN_ACCESS,
  record?: (body: Record<string, unknown>) => unknown,
) {
  serve({
    get: {
      [BASE]: () => maintenanceOf(),
      '/auth/access/incidents': () => ({ list: [openIncident()], total: 1 }),
    },
    post: {
      '/auth/access/lift/getInfo': () => liftInfoOf(access),
      ...(record ? { [RECORD]: record } : {}),
    },
  });
}

const item = (id: string) => screen.getByTestId(`visit-item-${id}`);

describe('maintenance visit on a phone', () => {
  beforeAll(englishTexts);
  beforeEach(() => {
    vi.mocked(http.get).mockReset();
    vi.mocked(http.post).mockReset();
  });

  it('shows the checklist with units and limits; a value out of limits fails at once', async () => {
    const user = userEvent.setup();
    serveLift();
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    expect(await screen.findByTestId('visit-lift')).toHaveTextContent('LL-0007 · Station B');
    expect(screen.getByTestId('due-status')).toHaveTextContent('Overdue');
    expect(item('batteryVoltage')).toHaveTextContent('Limits 24–28.8 V');
    expect(item('batteryVoltage')).toHaveAttribute('data-verdict', 'open');

    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '30');
    expect(item('batteryVoltage')).toHaveAttribute('data-verdict', 'fail');
    expect(within(item('batteryVoltage')).getByTestId('visit-verdict')).toHaveTextContent(
      'Out of limits: failed',
    );
    expect(screen.getByTestId('visit-note-batteryVoltage')).toBeInTheDocument();

    // A comma is a decimal point too; 26,4 V is within the limits.
    await user.clear(screen.getByTestId('visit-value-batteryVoltage'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '26,4');
    expect(item('batteryVoltage')).toHaveAttribute('data-verdict', 'pass');
    expect(within(item('batteryVoltage')).getByTestId('visit-verdict')).toHaveTextContent(
      'Within limits',
    );

    await user.click(within(item('brake')).getByText('Fail'));
    expect(item('brake')).toHaveAttribute('data-verdict', 'fail');
    expect(screen.getByTestId('visit-tally')).toHaveTextContent('2 of 2 done');
  });

  it('asks for every answer before sending anything', async () => {
    const user = userEvent.setup();
    serveLift(TECHNICIAN_ACCESS, () => visitOf());
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.click(await screen.findByTestId('visit-submit'));
    expect(await screen.findByText('Choose pass or fail')).toBeInTheDocument();
    expect(screen.getByText('Enter the measured value (a number)')).toBeInTheDocument();
    expect(postedTo(RECORD)).toHaveLength(0);
  });

  it('sends the shape the schema expects and shows the recorded visit', async () => {
    const user = userEvent.setup();
    serveLift(TECHNICIAN_ACCESS, () => visitOf());
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.click(within(await screen.findByTestId('visit-item-brake')).getByText('Pass'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '23.1');
    await user.type(screen.getByTestId('visit-note-batteryVoltage'), ' Old battery ');
    await user.type(screen.getByTestId('visit-findings-input'), 'Battery replaced');
    await user.click(screen.getByTestId('visit-add-part'));
    await user.type(screen.getByTestId('visit-part-0'), 'Battery 24 V');
    await user.click(await screen.findByTestId('visit-incident-7'));
    await user.click(screen.getByTestId('visit-submit'));

    expect(await screen.findByTestId('visit-recorded')).toHaveTextContent('Visit recorded');
    const [body] = postedTo(RECORD);
    expect(body).toEqual({
      liftId: LIFT,
      startedAt: expect.any(String),
      results: [
        { itemId: 'brake', passed: true },
        { itemId: 'batteryVoltage', value: 23.1, note: 'Old battery' },
      ],
      findings: 'Battery replaced',
      partsUsed: ['Battery 24 V'],
      incidentIds: [7],
      idempotencyKey: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      ),
    });
    expect(maintenanceVisitRecordSchema.safeParse(body).success).toBe(true);
    const summary = screen.getByTestId('visit-summary');
    expect(within(summary).getByTestId('visit-result')).toHaveTextContent('1 failed');
    expect(within(summary).getByTestId('visit-closed-incidents')).toHaveTextContent('#7');
  });

  it('keeps everything entered when the save fails, says why in words, and sends again', async () => {
    const user = userEvent.setup();
    let fail = true;
    serveLift(TECHNICIAN_ACCESS, () => {
      if (fail) throw new ApiError(409, 'visit.incidentNotOnLift', 'not open');
      return visitOf();
    });
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.click(within(await screen.findByTestId('visit-item-brake')).getByText('Fail'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '30');
    await user.type(screen.getByTestId('visit-findings-input'), 'Brake pads worn');
    await user.click(screen.getByTestId('visit-submit'));

    const error = await screen.findByTestId('visit-save-error');
    expect(error).toHaveTextContent('An incident named is not an open incident of this lift');
    expect(error).toHaveTextContent('Everything you entered is still here');
    expect(screen.getByTestId('visit-value-batteryVoltage')).toHaveValue('30');
    expect(screen.getByTestId('visit-findings-input')).toHaveValue('Brake pads worn');
    expect(item('brake')).toHaveAttribute('data-verdict', 'fail');
    expect(screen.getByTestId('visit-submit')).toHaveTextContent('Try again');

    fail = false;
    await user.click(screen.getByTestId('visit-submit'));
    expect(await screen.findByTestId('visit-recorded')).toBeInTheDocument();
    const bodies = postedTo(RECORD);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
  });

  it('keeps an unsent visit through a reload, sends it again under the same key, and forgets it once recorded', async () => {
    const user = userEvent.setup();
    let lost = true;
    serveLift(TECHNICIAN_ACCESS, () => {
      // The first answer never arrives (a phone on a slow network).
      if (lost) throw new ApiError(503, 'server.unavailable', 'down');
      return visitOf();
    });
    const first = renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.click(within(await screen.findByTestId('visit-item-brake')).getByText('Fail'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '23.1');
    await user.type(screen.getByTestId('visit-findings-input'), 'Brake pads worn');
    await user.click(screen.getByTestId('visit-add-part'));
    await user.type(screen.getByTestId('visit-part-0'), 'Brake pads');
    await user.click(await screen.findByTestId('visit-incident-7'));
    await user.click(screen.getByTestId('visit-submit'));
    expect(await screen.findByTestId('visit-save-error')).toBeInTheDocument();
    first.unmount();

    // The page again (a reload, the phone's browser brought back): everything entered is back.
    lost = false;
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    expect(await screen.findByTestId('visit-restored')).toHaveTextContent(
      'Restored the visit you had not sent',
    );
    expect(item('brake')).toHaveAttribute('data-verdict', 'fail');
    expect(screen.getByTestId('visit-value-batteryVoltage')).toHaveValue('23.1');
    expect(screen.getByTestId('visit-findings-input')).toHaveValue('Brake pads worn');
    expect(screen.getByTestId('visit-part-0')).toHaveValue('Brake pads');
    await user.click(screen.getByTestId('visit-submit'));
    expect(await screen.findByTestId('visit-recorded')).toBeInTheDocument();

    // The same visit as before the reload, key and start included: the server records it once.
    const bodies = postedTo(RECORD);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[1]).toMatchObject({ incidentIds: [7], partsUsed: ['Brake pads'] });
    expect(localStorage.getItem(`liftlink.visitDraft.${TOM}.${LIFT}`)).toBeNull();
  });

  it("never shows another user's draft of the same lift (a shared phone)", async () => {
    const user = userEvent.setup();
    serveLift(TECHNICIAN_ACCESS, () => visitOf());
    const mine = renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.type(await screen.findByTestId('visit-findings-input'), 'Half done');
    mine.unmount();
    const kept = localStorage.getItem(`liftlink.visitDraft.${TOM}.${LIFT}`)!;
    localStorage.clear();
    localStorage.setItem(`liftlink.visitDraft.someone-else.${LIFT}`, kept);

    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    expect(await screen.findByTestId('visit-findings-input')).toHaveValue('');
    expect(screen.queryByTestId('visit-restored')).toBeNull();
  });

  it('starts over on request: nothing entered and a new key', async () => {
    const user = userEvent.setup();
    serveLift(TECHNICIAN_ACCESS, () => visitOf());
    const first = renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.type(await screen.findByTestId('visit-findings-input'), 'Half done');
    const kept = JSON.parse(localStorage.getItem(`liftlink.visitDraft.${TOM}.${LIFT}`)!);
    first.unmount();

    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    expect(await screen.findByTestId('visit-findings-input')).toHaveValue('Half done');
    await user.click(screen.getByTestId('visit-start-over'));
    expect(screen.getByTestId('visit-findings-input')).toHaveValue('');
    expect(screen.queryByTestId('visit-restored')).toBeNull();
    expect(localStorage.getItem(`liftlink.visitDraft.${TOM}.${LIFT}`)).toBeNull();

    await user.click(within(item('brake')).getByText('Pass'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '25');
    await user.click(screen.getByTestId('visit-submit'));
    expect(await screen.findByTestId('visit-recorded')).toBeInTheDocument();
    const [body] = postedTo(RECORD);
    expect(body).toMatchObject({ findings: '', idempotencyKey: expect.any(String) });
    expect(body!.idempotencyKey).not.toBe(kept.idempotencyKey);
  });

  it('says a visit sent before with other values was recorded then, and offers to start over', async () => {
    const user = userEvent.setup();
    serveLift(TECHNICIAN_ACCESS, () => {
      throw new ApiError(409, 'conflict', 'Conflict');
    });
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    await user.click(within(await screen.findByTestId('visit-item-brake')).getByText('Pass'));
    await user.type(screen.getByTestId('visit-value-batteryVoltage'), '25');
    await user.click(screen.getByTestId('visit-submit'));
    expect(await screen.findByTestId('visit-save-error')).toHaveTextContent(
      'This visit was recorded already, before your last changes',
    );
    await user.click(screen.getByTestId('visit-conflict-start-over'));
    expect(screen.queryByTestId('visit-save-error')).toBeNull();
    expect(item('brake')).toHaveAttribute('data-verdict', 'open');
  });

  it('says when the page did not load and retries', async () => {
    const user = userEvent.setup();
    let fail = true;
    serve({
      get: {
        [BASE]: () => {
          if (fail) throw new ApiError(503, 'server.unavailable', 'down');
          return maintenanceOf();
        },
        '/auth/access/incidents': () => ({ list: [], total: 0 }),
      },
      post: { '/auth/access/lift/getInfo': () => liftInfoOf(TECHNICIAN_ACCESS) },
    });
    renderPage(<VisitPage />, { path: PATH, route: ROUTE });
    const retry = await screen.findByTestId('visit-retry', undefined, { timeout: 15_000 });
    fail = false;
    await user.click(retry);
    expect(await screen.findByTestId('visit-checklist')).toBeInTheDocument();
    expect(await screen.findByTestId('visit-no-incidents')).toBeInTheDocument();
  });

  it('is read-only for a user who may not record visits on the lift', async () => {
    serveLift(VIEWER_ACCESS);
    renderPage(<VisitPage />, { path: PATH, route: ROUTE, role: 'viewer' });
    expect(await screen.findByTestId('visit-not-allowed')).toHaveTextContent(
      'You may not record visits on this lift',
    );
    expect(screen.queryByTestId('visit-submit')).toBeNull();
    expect(screen.queryByTestId('visit-form')).toBeNull();
  });
});
