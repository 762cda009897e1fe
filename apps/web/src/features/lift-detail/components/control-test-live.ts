/**
 * A fake live bus for the commands panel's tests: every `useLiftLive` of the panel hears
 * what a test pushes. Kept apart from the rest of the kit: the mock of `use-live.ts` must
 * not import the panel, which imports `use-live.ts`.
 */
import { act, useEffect, useRef } from 'react';
import type { LiftLiveMessage } from '@liftlink/protocol';

const listeners = new Set<(message: LiftLiveMessage) => void>();

/** `use-live.ts` as the panel sees it in tests. */
export const liveMock = {
  useLiftLive: (_liftId: string, listener: (message: LiftLiveMessage) => void) => {
    const current = useRef(listener);
    useEffect(() => {
      current.current = listener;
    });
    useEffect(() => {
      const forward = (message: LiftLiveMessage) => current.current(message);
      listeners.add(forward);
      return () => {
        listeners.delete(forward);
      };
    }, []);
  },
  useLiveConnection: () => 'idle' as const,
};

export function pushLive(message: LiftLiveMessage): void {
  act(() => {
    for (const listener of listeners) listener(message);
  });
}
