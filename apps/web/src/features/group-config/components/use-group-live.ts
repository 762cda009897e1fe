import { useEffect, useEffectEvent } from 'react';
import type { LiveGroupConfigMessage } from '@liftlink/protocol';
import { liveClient } from '../../../lib/live/use-live.ts';

/** The live answers of a send's lifts while its results are shown. */
export function useGroupLive(
  liftIds: string[],
  listener: (message: LiveGroupConfigMessage) => void,
): void {
  const onMessage = useEffectEvent(listener);
  const key = liftIds.join(',');
  useEffect(() => {
    if (!key) return;
    const stops = key.split(',').map((liftId) =>
      liveClient.subscribeLift(liftId, (message) => {
        if (message.type === 'groupConfig') onMessage(message);
      }),
    );
    return () => stops.forEach((stop) => stop());
  }, [key]);
}
