/**
 * A fake live bus for the incidents tests: every `useFleetLive` and `useLiftLive` hears what
 * a test pushes. Apart from the kit: the mock of `use-live.ts` must not import the pages.
 */
import { act, useEffect, useRef } from 'react';
import type { LiveIncidentMessage } from '@liftlink/protocol';

const listeners = new Set<(message: LiveIncidentMessage) => void>();

function useListener(
  listener: (message: LiveIncidentMessage) => void,
  filter: (m: LiveIncidentMessage) => boolean,
) {
  const current = useRef({ listener, filter });
  useEffect(() => {
    current.current = { listener, filter };
  });
  useEffect(() => {
    const forward = (message: LiveIncidentMessage) => {
      if (current.current.filter(message)) current.current.listener(message);
    };
    listeners.add(forward);
    return () => {
      listeners.delete(forward);
    };
  }, []);
}

/** `use-live.ts` as the incidents pages see it in tests. */
export const liveMock = {
  useFleetLive: (listener: (message: LiveIncidentMessage) => void) =>
    useListener(listener, () => true),
  useLiftLive: (liftId: string | undefined, listener: (message: LiveIncidentMessage) => void) =>
    useListener(listener, (m) => m.liftId === liftId),
  useLiveConnection: () => 'idle' as const,
};

export function pushLive(message: LiveIncidentMessage): void {
  act(() => {
    for (const listener of listeners) listener(message);
  });
}
