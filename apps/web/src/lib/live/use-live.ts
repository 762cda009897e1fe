import { useEffect, useEffectEvent, useSyncExternalStore } from 'react';
import { getToken } from '../token.ts';
import { LiveClient, type LiveConnectionState } from './live-client.ts';
import type { FleetLiveMessage, LiftLiveMessage } from '@liftlink/protocol';

function liveUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}/ws/live`;
}

/** The one live connection of the page. */
export const liveClient = new LiveClient({ url: liveUrl, token: getToken });

/**
 * Live messages of one lift while the component is shown (a hidden tab unsubscribes; on
 * return the client resubscribes and the server replays presence, status and the missed
 * run-log entries).
 */
export function useLiftLive(
  liftId: string | null | undefined,
  listener: (message: LiftLiveMessage) => void,
  client: LiveClient = liveClient,
): void {
  const onMessage = useEffectEvent(listener);
  useEffect(() => {
    if (!liftId) return;
    return client.subscribeLift(liftId, (message) => onMessage(message));
  }, [liftId, client]);
}

export interface FleetLiveOptions {
  /** Subscribe only while true (the user may query the fleet). */
  enabled?: boolean;
  /**
   * Runs each time the server confirms the fleet subscription, on opening and after a lost
   * connection: read again over HTTP what the messages keep current, since a change
   * stored before that moment came without a message.
   */
  onSubscribed?: () => void;
  client?: LiveClient;
}

/** Presence, mode, floor and fault changes of the user's whole fleet, and alerts. */
export function useFleetLive(
  listener: (message: FleetLiveMessage) => void,
  { enabled = true, onSubscribed, client = liveClient }: FleetLiveOptions = {},
): void {
  const onMessage = useEffectEvent(listener);
  const onConfirmed = useEffectEvent(() => onSubscribed?.());
  useEffect(() => {
    if (!enabled) return;
    return client.subscribeFleet(
      (message) => onMessage(message),
      () => onConfirmed(),
    );
  }, [enabled, client]);
}

/** Whether live updates flow (for a small "live" / "reconnecting" indicator). */
export function useLiveConnection(client: LiveClient = liveClient): LiveConnectionState {
  return useSyncExternalStore(
    (listener) => client.onStateChange(listener),
    () => client.getState(),
  );
}
