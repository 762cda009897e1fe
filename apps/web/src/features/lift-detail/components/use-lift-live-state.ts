import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiftInfo, LiftStatus } from '@liftlink/protocol';
import { useLiftLive } from '../../../lib/live/use-live.ts';
import { liftDetailKeys } from '../api/lift-api.ts';

const later = (a: string | null, b: string): string => (a !== null && Date.parse(a) > Date.parse(b) ? a : b);

export interface LiftLiveState {
  online: boolean;
  status: LiftStatus | null;
  /** When the lift was last heard with the shown status (ISO), if known. */
  statusAt: string | null;
  /** The configuration version the lift last reported over the live stream. */
  configVersion: number | null;
}

/**
 * The lift's live state on top of the `getInfo` answer: presence and status snapshots
 * (the newest seq wins); a new configuration version refreshes the lift's data. Panels
 * that need events or command answers subscribe themselves (one socket subscription).
 */
export function useLiftLiveState(liftId: string, info: LiftInfo | undefined): LiftLiveState {
  const client = useQueryClient();
  const [live, setLive] = useState<{
    online: boolean | null;
    status: LiftStatus | null;
    seq: number;
    statusAt: string | null;
    configVersion: number | null;
  }>({ online: null, status: null, seq: -1, statusAt: null, configVersion: null });

  useLiftLive(liftId, (message) => {
    // A lift that repeats its status is not pushed again (the server tells only changes), so
    // the presence's time (when it went offline: when it was last heard) is the newer one.
    if (message.type === 'presence') setLive((s) => ({ ...s, online: message.online, statusAt: later(s.statusAt, message.ts) }));
    else if (message.type === 'status')
      setLive((s) =>
        message.seq > s.seq
          ? { ...s, status: message.status, seq: message.seq, statusAt: later(s.statusAt, message.ts) }
          : s,
      );
    else if (message.type === 'config') {
      setLive((s) => ({ ...s, configVersion: message.version }));
      void client.invalidateQueries({ queryKey: liftDetailKeys.info(liftId) });
    }
  });

  return {
    online: live.online ?? info?.lift.online ?? false,
    status: live.status ?? info?.status ?? null,
    statusAt: live.statusAt ?? info?.lift.lastSeenAt ?? null,
    configVersion: live.configVersion,
  };
}
