import type { ReactNode } from 'react';
import { act } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import type { CommandResult } from '@liftlink/protocol';
import { ApiError, http } from '../../../lib/http.ts';
import type * as HttpModule from '../../../lib/http.ts';
import type { LiftLiveMessage } from '../../../lib/live/messages.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { useEnglish } from '../../../test/render.tsx';
import { CommandsPanel } from './commands-panel.tsx';

const live = vi.hoisted(() => ({ listener: null as ((m: LiftLiveMessage) => void) | null }));
vi.mock('../../../lib/live/use-live.ts', () => ({
  useLiftLive: (_id: string, listener: (m: LiftLiveMessage) => void) => {
    live.listener = listener;
  },
}));
vi.mock('../../../lib/http.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof HttpModule>();
  return { ...actual, http: { get: vi.fn(async () => ({ list: [] })), post: vi.fn() } };
});

const post = vi.mocked(http.post);
const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';

function Wrapper({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

function panel(online = true) {
  return render(
    <CommandsPanel
      liftId={LIFT}
      liftName="Station"
      floors={2}
      online={online}
      hasDeviceNo
      status={null}
    />,
    { wrapper: Wrapper },
  );
}

const progress = () => screen.getAllByTestId('command-progress')[0]!;
const push = (message: Omit<Extract<LiftLiveMessage, { type: 'command' }>, 'type' | 'liftId'>) =>
  act(() => live.listener?.({ type: 'command', liftId: LIFT, ...message }));

describe('commands panel', { timeout: 60_000 }, () => {
  beforeAll(useEnglish);
  beforeEach(() => post.mockReset());

  it('sends a command that does not move at once and shows it done', async () => {
    const user = userEvent.setup();
    post.mockResolvedValueOnce({ commandId: 'c1', state: 'done', reason: null, reasonText: null });
    panel();
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(post).toHaveBeenCalledWith('/auth/access/lift/control', {
      liftId: LIFT,
      command: 'pause',
      args: {},
    });
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'done'));
    expect(within(progress()).getByText('Done')).toBeInTheDocument();
  });

  it('asks before a movement, then follows the lift: sent, accepted, done', async () => {
    const user = userEvent.setup();
    let answer: (result: CommandResult) => void = () => undefined;
    post.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    panel();
    await user.click(screen.getByRole('button', { name: 'Summon to floor 2' }));
    expect(post).not.toHaveBeenCalled();
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getAllByText('Confirm movement').length).toBeGreaterThan(0);
    expect(
      within(confirm).getByText(/"Summon to floor 2" makes the lift "Station" move/),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Send' }));
    expect(post).toHaveBeenCalledWith('/auth/access/lift/control', {
      liftId: LIFT,
      command: 'summon',
      args: { floor: 2 },
    });
    expect(within(progress()).getByText('Sent')).toBeInTheDocument();

    push({ commandId: 'c2', name: 'summon', state: 'accepted', reason: null });
    expect(within(progress()).getByText('Accepted by the lift')).toBeInTheDocument();
    await act(async () =>
      answer({ commandId: 'c2', state: 'accepted', reason: null, reasonText: null }),
    );
    push({ commandId: 'c2', name: 'summon', state: 'done', reason: null });
    expect(within(progress()).getByText('Done')).toBeInTheDocument();
  });

  it("shows a refusal with the lift's reason", async () => {
    const user = userEvent.setup();
    post.mockRejectedValueOnce(
      new ApiError(409, 'lift.refused', 'locked', {
        commandId: 'c3',
        state: 'rejected',
        reason: 'lockout',
      }),
    );
    panel();
    await user.click(screen.getByRole('button', { name: 'Restart' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Send' }),
    );
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'rejected'));
    expect(within(progress()).getByText('Refused')).toBeInTheDocument();
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      'The lift is locked out',
    );
  });

  it('says when the lift is offline or does not answer', async () => {
    const user = userEvent.setup();
    post.mockRejectedValueOnce(
      new ApiError(504, 'lift.timeout', 'timeout', {
        commandId: 'c4',
        state: 'timeout',
        reason: 'timeout',
      }),
    );
    panel();
    await user.click(screen.getByRole('button', { name: 'Communications test' }));
    await waitFor(() => expect(progress()).toHaveAttribute('data-state', 'timeout'));
    expect(within(progress()).getByText('Timed out')).toBeInTheDocument();
    expect(within(progress()).getByTestId('command-reason')).toHaveTextContent(
      'The lift did not answer in time',
    );
  });

  it('disables every control while the lift is offline', () => {
    panel(false);
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
});
