import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CommandResult } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import {
  KEY,
  LIFT,
  held,
  mine,
  path,
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

const post = vi.mocked(http.post);
const progress = () => screen.getAllByTestId('command-progress')[0]!;
const push = (message: {
  commandId: string;
  name: string;
  state: CommandResult['state'];
  reason: null;
}) => pushLive({ type: 'command', liftId: LIFT, ...message });

/** The panel of a user who holds the lift's lease, once it shows so. */
async function panelInControl(online = true) {
  serve({ lease: mine() });
  const view = renderPanel({ online });
  await waitFor(() =>
    expect(screen.getByTestId('control-holder')).toHaveAttribute('data-holder', 'me'),
  );
  return view;
}

describe('commands panel', () => {
  beforeAll(useEnglish);
  beforeEach(() => {
    post.mockReset();
    vi.mocked(http.get).mockReset();
  });

  it('sends a command that does not move at once, with its click key, and shows it done', async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockResolvedValueOnce({ commandId: 'c1', state: 'done', reason: null, reasonText: null });
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(post).toHaveBeenCalledWith(path('control'), {
      liftId: LIFT,
      command: 'pause',
      args: {},
      idempotencyKey: expect.stringMatching(KEY),
    });
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'done'));
    expect(within(progress()).getByText('Done')).toBeInTheDocument();
  });

  it('asks before a movement, then follows the lift: sent, accepted, done', async () => {
    const user = userEvent.setup();
    await panelInControl();
    let answer: (result: CommandResult) => void = () => undefined;
    post.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    await user.click(screen.getByRole('button', { name: 'Summon to floor 2' }));
    expect(post).not.toHaveBeenCalled();
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getAllByText('Confirm movement').length).toBeGreaterThan(0);
    expect(
      within(confirm).getByText(/"Summon to floor 2" makes the lift "Station" move/),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Send' }));
    expect(post).toHaveBeenCalledWith(path('control'), {
      liftId: LIFT,
      command: 'summon',
      args: { floor: 2 },
      idempotencyKey: expect.stringMatching(KEY),
    });
    // In its cancel window the command is still in the cloud: the page does not call it sent.
    expect(within(progress()).getByText('Not sent yet')).toBeInTheDocument();

    push({ commandId: 'c2', name: 'summon', state: 'accepted', reason: null });
    expect(within(progress()).getByText('Accepted by the lift')).toBeInTheDocument();
    await act(async () =>
      answer({ commandId: 'c2', state: 'accepted', reason: null, reasonText: null }),
    );
    push({ commandId: 'c2', name: 'summon', state: 'done', reason: null });
    expect(within(progress()).getByText('Done')).toBeInTheDocument();
  });

  it("shows a refusal with the lift's reason and what to do next", async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockRejectedValueOnce(
      new ApiError(409, 'lift.refused', 'locked', {
        commandId: 'c3',
        state: 'rejected',
        reason: 'lockout',
        reasonText: 'The lift is locked out',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Restart' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send' }),
    );
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'rejected'));
    expect(within(progress()).getByText('Refused')).toBeInTheDocument();
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      'The lift is locked out',
    );
    expect(within(progress()).getByTestId('command-reason-advice')).toHaveTextContent(
      'Unlock the lift first.',
    );
  });

  it("names the lease's holder when the server refuses for another's lease", async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockRejectedValueOnce(
      new ApiError(409, 'lease.held', 'held', {
        holderName: 'Alice',
        expiresAt: new Date().toISOString(),
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Communications test' }));
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'rejected'));
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      'Alice controls this lift',
    );
    expect(within(progress()).getByTestId('command-reason-advice')).toHaveTextContent(
      'Wait until they release control, or take over if you are allowed to.',
    );
  });

  it('says when the lift is offline or does not answer', async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockRejectedValueOnce(
      new ApiError(504, 'lift.timeout', 'timeout', {
        commandId: 'c4',
        state: 'timeout',
        reason: 'timeout',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Communications test' }));
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'timeout'));
    expect(within(progress()).getByText('Timed out')).toBeInTheDocument();
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      'The lift did not answer in time',
    );
  });

  it('disables every control while the lift is offline', async () => {
    await panelInControl(false);
    expect(
      screen.getByText('The lift is offline: commands cannot be sent now'),
    ).toBeInTheDocument();
    for (const name of [
      'Summon to floor 1',
      'Pause',
      'Fold',
      'Stop aging',
      'Channel configuration',
      'Lock',
    ])
      expect(screen.getByRole('button', { name })).toBeDisabled();
  });

  it('disables leased controls while another user holds the lease, naming them; stopping stays open', async () => {
    serve({ lease: held('Alice') });
    renderPanel();
    await waitFor(() =>
      expect(screen.getByTestId('control-holder')).toHaveTextContent('Alice controls this lift'),
    );
    for (const name of [
      'Summon to floor 1',
      'Restart',
      'Fold',
      'Overall aging',
      'Communications test',
    ])
      expect(screen.getByRole('button', { name })).toBeDisabled();
    for (const name of ['Pause', 'Stop aging', 'Lock', 'Enable'])
      expect(screen.getByRole('button', { name })).toBeEnabled();
    expect(screen.queryByTestId('control-take')).toBeNull();
  });

  it('sends a double click once, with one key, and keeps the button busy until the answer', async () => {
    const user = userEvent.setup();
    await panelInControl();
    let answer: (result: CommandResult) => void = () => undefined;
    post.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const button = screen.getByTestId('cmd-test-communications');
    await user.dblClick(button);
    await user.click(button);
    expect(postsTo('control')).toHaveLength(1);
    expect(postsTo('control')[0]![0].idempotencyKey).toMatch(KEY);
    expect(button).toHaveClass('ant-btn-loading');
    await act(async () =>
      answer({ commandId: 'c5', state: 'done', reason: null, reasonText: null }),
    );
    await waitFor(() => expect(button).not.toHaveClass('ant-btn-loading'));
    await user.click(button);
    expect(postsTo('control')).toHaveLength(2);
    expect(postsTo('control')[1]![0].idempotencyKey).not.toBe(
      postsTo('control')[0]![0].idempotencyKey,
    );
  });

  it('sends a click again with its own key after a network failure', async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockRejectedValueOnce(new ApiError(0, 'request.network', 'Network error'));
    await user.click(screen.getByRole('button', { name: 'Lock' }));
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'error'));
    post.mockResolvedValueOnce({ commandId: 'c6', state: 'done', reason: null, reasonText: null });
    await user.click(within(progress()).getByTestId('command-retry'));
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'done'));
    const [first, second] = postsTo('control');
    expect(second![0].idempotencyKey).toBe(first![0].idempotencyKey);
    expect(screen.getAllByTestId('command-progress')).toHaveLength(1);
  });

  it('cancels a leased command in its cancel window; the row ends cancelled', async () => {
    const user = userEvent.setup();
    await panelInControl();
    let fail: (error: unknown) => void = () => undefined;
    post.mockImplementation(async (url) => {
      if (url === path('control')) return new Promise((_resolve, reject) => (fail = reject));
      if (url === path('command/cancel')) return null;
      throw new Error(`unexpected ${url}`);
    });
    await user.click(screen.getByRole('button', { name: 'Communications test' }));
    const cancel = within(progress()).getByTestId('command-cancel');
    expect(cancel).toHaveTextContent(/Cancel \([1-3] s\)/);
    await user.click(cancel);
    const [[control]] = [postsTo('control')];
    expect(postsTo('command/cancel')).toEqual([
      [{ liftId: LIFT, idempotencyKey: control![0].idempotencyKey }, undefined],
    ]);
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'cancelled'));
    expect(within(progress()).getByText('Cancelled')).toBeInTheDocument();
    expect(within(progress()).queryByTestId('command-cancel')).toBeNull();
    // The control call then ends with the cancelled command: the row stays so.
    await act(async () =>
      fail(
        new ApiError(409, 'lift.refused', 'cancelled', {
          commandId: 'c7',
          state: 'cancelled',
          reason: 'cancelled',
        }),
      ),
    );
    expect(progress()).toHaveAttribute('data-state', 'cancelled');
  });

  it('says so when a cancel comes too late', async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockImplementation(async (url) => {
      if (url === path('control')) return new Promise(() => undefined);
      throw new ApiError(409, 'command.cancelTooLate', 'too late');
    });
    await user.click(screen.getByRole('button', { name: 'Communications test' }));
    await user.click(within(progress()).getByTestId('command-cancel'));
    expect(await within(progress()).findByTestId('command-cancel-error')).toHaveTextContent(
      'The command was sent already and can no longer be cancelled',
    );
    expect(progress()).toHaveAttribute('data-state', 'sending');
    expect(within(progress()).queryByTestId('command-cancel')).toBeNull();
  });

  it('offers no cancel for a command that needs no lease', async () => {
    const user = userEvent.setup();
    await panelInControl();
    post.mockReturnValue(new Promise(() => undefined));
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(progress()).toHaveAttribute('data-state', 'sending');
    expect(within(progress()).queryByTestId('command-cancel')).toBeNull();
  });
});
