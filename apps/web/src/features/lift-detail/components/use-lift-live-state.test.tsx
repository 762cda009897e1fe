import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { initialLiftStatus, type LiftInfo, type LiftLiveMessage, type LiftStatus } from '@liftlink/protocol';
import { createQueryClient } from '../../../lib/query-client.ts';
import { useLiftLiveState } from './use-lift-live-state.ts';

// The live socket as the hook sees it: the test pushes what the server would.
const live = vi.hoisted(() => ({ listener: null as ((m: unknown) => void) | null }));
vi.mock('../../../lib/live/use-live.ts', () => ({
  useLiftLive: (_liftId: string, listener: (m: unknown) => void) => {
    live.listener = listener;
  },
}));
const push = (message: LiftLiveMessage) => act(() => live.listener?.(message));

const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 10, 0, second)).toISOString();

function renderState(info: LiftInfo) {
  const client = createQueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  return renderHook(() => useLiftLiveState(LIFT, info), { wrapper });
}

describe('the lift page\'s live state', () => {
  it('dates the shown status by when the lift was last heard, also when it went offline repeating it', () => {
    const status = initialLiftStatus(1);
    const info = { lift: { online: true, lastSeenAt: at(0) }, status } as unknown as LiftInfo;
    const { result } = renderState(info);
    expect(result.current).toMatchObject({ online: true, status, statusAt: at(0) });

    const moved: LiftStatus = { ...status, floor: 2 };
    push({ type: 'status', liftId: LIFT, seq: 5, ts: at(10), status: moved });
    expect(result.current).toMatchObject({ status: moved, statusAt: at(10) });

    // It stood at floor 2 repeating that status (not pushed again) until it fell silent at :40.
    push({ type: 'presence', liftId: LIFT, online: false, ts: at(40) });
    expect(result.current).toMatchObject({ online: false, status: moved, statusAt: at(40) });

    // An older status arriving late changes neither the status nor its time.
    push({ type: 'status', liftId: LIFT, seq: 4, ts: at(5), status });
    expect(result.current).toMatchObject({ status: moved, statusAt: at(40) });
  });
});
