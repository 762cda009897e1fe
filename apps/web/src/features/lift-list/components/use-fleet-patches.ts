import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiftListItem } from '@liftlink/protocol';
import { liftKeys } from '../../../lib/lifts.ts';
import { useFleetLive } from '../../../lib/live/use-live.ts';
import type { FleetLiveMessage } from '../../../lib/live/messages.ts';
import { patchCachedLifts } from '../api/lifts-api.ts';

const FLUSH_MS = 500;

/** What a fleet message changes on a list row. */
export function fleetPatch(message: FleetLiveMessage): Partial<LiftListItem> | null {
  if (message.type === 'presence') return { online: message.online };
  if (message.type === 'fleetStatus')
    return { mode: message.mode, floor: message.floor, activeFault: message.activeFault };
  return null;
}

/**
 * Keeps the cached list pages live. A fleet of 10,000 lifts sends many messages a second:
 * they are merged per lift and applied twice a second, and only rows on a cached page
 * change (the rest is ignored without a re-render).
 */
export function useFleetPatches(enabled: boolean): void {
  const client = useQueryClient();
  const pending = useRef(new Map<string, Partial<LiftListItem>>());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      timer.current = null;
      pending.current.clear();
    },
    [],
  );

  useFleetLive(
    (message) => {
      const patch = fleetPatch(message);
      if (!patch || message.type === 'alert') return;
      const map = pending.current;
      map.set(message.liftId, { ...map.get(message.liftId), ...patch });
      timer.current ??= setTimeout(() => {
        timer.current = null;
        const batch = new Map(map);
        map.clear();
        patchCachedLifts(client, batch);
      }, FLUSH_MS);
    },
    {
      enabled,
      // Presence and faults that changed before the subscription came without a message.
      onSubscribed: () => void client.invalidateQueries({ queryKey: liftKeys.lists }),
    },
  );
}
