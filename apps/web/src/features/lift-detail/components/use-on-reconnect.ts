import { useEffect, useEffectEvent, useRef } from 'react';
import { useLiveConnection } from '../../../lib/live/use-live.ts';

/**
 * Runs `callback` when the live connection opens again after it was lost: what changed
 * meanwhile came without a message (the lease, requests for approval). Not on the first
 * open, which the page's own first read covers.
 */
export function useOnReconnect(callback: () => void): void {
  const connection = useLiveConnection();
  const wasOpen = useRef(false);
  const run = useEffectEvent(callback);
  useEffect(() => {
    if (connection !== 'open') return;
    if (wasOpen.current) run();
    wasOpen.current = true;
  }, [connection]);
}
