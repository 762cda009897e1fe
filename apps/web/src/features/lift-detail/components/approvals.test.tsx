import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import {
  KEY,
  LIFT,
  ME,
  approvalOf,
  mine,
  postsTo,
  pushLive,
  renderPanel,
  serve,
} from './control-test-kit.tsx';

vi.mock(
  '../../../lib/live/use-live.ts',
  async () => (await import('./control-test-live.ts')).liveMock,
);
vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(), post: vi.fn() } };
});

const BOBS = '55555555-5555-4555-8555-555555555555';
const MINE = '66666666-6666-4666-8666-666666666666';
const rows = () => screen.getAllByTestId('approval-row');
const progress = () => screen.getAllByTestId('command-progress')[0]!;

describe('two-person approval', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    vi.mocked(http.post).mockReset();
    vi.mocked(http.get).mockReset();
  });

  it('after an approval.required refusal asks for a reason, checks it, and requests approval', async () => {
    const user = userEvent.setup();
    serve({
      lease: mine(),
      post: {
        control: () => {
          throw new ApiError(409, 'approval.required', 'approval', { commandClass: 'aging' });
        },
        'approval/request': (body) =>
          approvalOf({
            id: MINE,
            requesterId: ME,
            requesterName: 'Olga',
            reason: String(body.reason),
          }),
      },
    });
    renderPanel();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Overall aging' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Overall aging' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send' }),
    );
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'rejected'));
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      "This kind of command needs another user's approval",
    );
    expect(within(progress()).getByTestId('command-reason-advice')).toHaveTextContent(
      'Request approval with a reason; it runs once another authorized user approves.',
    );

    await user.click(within(progress()).getByTestId('command-request-approval'));
    const dialog = await screen.findByTestId('approval-request-modal');
    expect(within(dialog).getByTestId('approval-command')).toHaveTextContent(
      '"Overall aging" on the lift "Station" needs a second person\'s approval',
    );
    await user.click(screen.getByTestId('approval-submit'));
    expect(await within(dialog).findByText('Input cannot be empty')).toBeInTheDocument();
    await user.type(within(dialog).getByTestId('approval-reason'), '   ');
    await user.click(screen.getByTestId('approval-submit'));
    expect(postsTo('approval/request')).toHaveLength(0);

    await user.clear(within(dialog).getByTestId('approval-reason'));
    await user.type(within(dialog).getByTestId('approval-reason'), 'Yearly check');
    await user.click(screen.getByTestId('approval-submit'));
    await waitFor(() => expect(postsTo('approval/request')).toHaveLength(1));
    expect(postsTo('approval/request')[0]![0]).toEqual({
      liftId: LIFT,
      command: 'aging',
      args: { target: 'overall' },
      reason: 'Yearly check',
      idempotencyKey: expect.stringMatching(KEY),
    });
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(rows()[0]).toHaveAttribute('data-state', 'pending');
    expect(within(rows()[0]!).getByTestId('approval-withdraw')).toBeInTheDocument();

    // The class is known now: the next click asks for approval straight away.
    expect(await screen.findByText('Approval requested')).toBeInTheDocument();
    await user.click(screen.getByTestId('cmd-aging-overall'));
    await waitFor(() => expect(screen.getByTestId('approval-reason')).toHaveValue(''));
    expect(await screen.findAllByRole('dialog', { name: 'Request approval' })).not.toHaveLength(0);
    expect(postsTo('control')).toHaveLength(1);
  });

  it("asks for approval at the first click of a class the lift's organization puts under approval, sending nothing", async () => {
    const user = userEvent.setup();
    serve({ lease: mine() });
    renderPanel({ approvalClasses: ['aging'] });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Overall aging' })).toBeEnabled(),
    );
    await user.click(screen.getByRole('button', { name: 'Overall aging' }));
    expect(await screen.findByTestId('approval-request-modal')).toBeInTheDocument();
    expect(postsTo('control')).toHaveLength(0);
  });

  it('offers Approve and Reject on requests of others only; the requester may withdraw', async () => {
    const user = userEvent.setup();
    serve({
      lease: mine(),
      approvals: [
        approvalOf({ id: BOBS, reason: 'Calibrate after repair' }),
        approvalOf({
          id: MINE,
          command: 'deform',
          args: { shape: 'fold' },
          commandClass: 'deformation',
          requesterId: ME,
          requesterName: 'Olga',
          reason: 'Check the flaps',
        }),
      ],
      post: {
        'approval/reject': () =>
          approvalOf({
            id: BOBS,
            reason: 'Calibrate after repair',
            state: 'rejected',
            deciderId: ME,
            deciderName: 'Olga',
          }),
        'approval/withdraw': () =>
          approvalOf({
            id: MINE,
            command: 'deform',
            args: { shape: 'fold' },
            requesterId: ME,
            reason: 'Check the flaps',
            state: 'withdrawn',
          }),
      },
    });
    renderPanel();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const bobs = rows().find((row) => row.textContent?.includes('Calibrate after repair'))!;
    const own = rows().find((row) => row.textContent?.includes('Check the flaps'))!;
    expect(within(bobs).getByText(/Requested by Bob/)).toBeInTheDocument();
    expect(within(bobs).getByTestId('approval-time-left')).toHaveTextContent(/(10:00|9:5\d) left/);
    expect(within(bobs).getByTestId('approval-approve')).toBeInTheDocument();
    expect(within(bobs).getByTestId('approval-reject')).toBeInTheDocument();
    expect(within(bobs).queryByTestId('approval-withdraw')).toBeNull();
    expect(within(own).queryByTestId('approval-approve')).toBeNull();
    expect(within(own).queryByTestId('approval-reject')).toBeNull();

    await user.click(within(bobs).getByTestId('approval-reject'));
    expect(postsTo('approval/reject')).toEqual([[{ approvalId: BOBS }, undefined]]);
    await waitFor(() =>
      expect(screen.getByText('Calibrate after repair').closest('li')).toHaveAttribute(
        'data-state',
        'rejected',
      ),
    );
    await user.click(within(own).getByTestId('approval-withdraw'));
    expect(postsTo('approval/withdraw')).toEqual([[{ approvalId: MINE }, undefined]]);
    await waitFor(() =>
      expect(screen.getByText('Check the flaps').closest('li')).toHaveAttribute(
        'data-state',
        'withdrawn',
      ),
    );
  });

  it("approves another's request after asking, and follows the command it runs", async () => {
    const user = userEvent.setup();
    serve({
      lease: mine(),
      approvals: [approvalOf({ id: BOBS })],
      post: {
        'approval/approve': () => ({
          commandId: 'c9',
          state: 'accepted',
          reason: null,
          reasonText: null,
        }),
      },
    });
    renderPanel();
    await user.click(await screen.findByTestId('approval-approve'));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(/"Overall aging" runs on the lift "Station" at once/),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByTestId('approval-approve-confirm'));
    expect(postsTo('approval/approve')).toEqual([[{ approvalId: BOBS }, undefined]]);
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'accepted'));
    expect(progress()).toHaveAttribute('data-command', 'aging');
  });

  it('shows the requester the outcome: approved runs as command progress, rejected as a state', async () => {
    serve({
      lease: mine(),
      approvals: [approvalOf({ id: MINE, requesterId: ME, requesterName: 'Olga' })],
    });
    renderPanel();
    await waitFor(() => expect(rows()).toHaveLength(1));
    pushLive({
      type: 'approval',
      liftId: LIFT,
      approval: approvalOf({
        id: MINE,
        requesterId: ME,
        state: 'approved',
        deciderId: 'x',
        deciderName: 'Bob',
        commandId: 'c10',
        commandState: 'sent',
      }),
    });
    await waitFor(() => expect(rows()[0]).toHaveAttribute('data-state', 'approved'));
    expect(rows()[0]).toHaveTextContent('decided by Bob');
    expect(progress()).toHaveAttribute('data-state', 'sent');
    pushLive({
      type: 'command',
      liftId: LIFT,
      commandId: 'c10',
      name: 'aging',
      state: 'done',
      reason: null,
    });
    expect(progress()).toHaveAttribute('data-state', 'done');

    pushLive({
      type: 'approval',
      liftId: LIFT,
      approval: approvalOf({ id: BOBS, state: 'rejected', deciderName: 'Bob', reason: 'Other' }),
    });
    await waitFor(() =>
      expect(screen.getByText('Other').closest('li')).toHaveAttribute('data-state', 'rejected'),
    );
    expect(screen.getByText('Other').closest('li')).toHaveTextContent('Rejected');
  });
});
