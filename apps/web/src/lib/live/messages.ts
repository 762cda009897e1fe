import type { CommandState, LiftStatus, PresenceReason, RefusalReason } from '@liftlink/protocol';

/** An alert as the server sends it (alerts page, notification bell, live `alert` message). */
export interface AlertItem {
  id: number;
  liftId: string;
  deviceNo: string | null;
  alias: string;
  kind: 'fault' | 'help' | 'offline';
  code: string | null;
  raisedAt: string;
  /** When the condition ended by itself (the lift came back online, the fault was cleared). */
  clearedAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
}

/** What `/ws/live` pushes (apps/server/src/modules/live/ws.ts). */
export type LiftLiveMessage =
  | { type: 'presence'; liftId: string; online: boolean; ts: string }
  | { type: 'status'; liftId: string; seq: number; ts: string; status: LiftStatus }
  | {
      type: 'event';
      liftId: string;
      id: number;
      seq: number;
      ts: string;
      code: string;
      floor: number | null;
      fault: boolean;
      /** Only on the cloud's ONLINE / OFFLINE entries: why the lift went online or offline. */
      reason?: PresenceReason | null;
    }
  | {
      type: 'command';
      liftId: string;
      commandId: string;
      name: string;
      state: CommandState;
      reason: RefusalReason | null;
    }
  | { type: 'config'; liftId: string; version: number };

/** What fleet subscribers get: presence, a digest of each status, and alerts. */
export type FleetLiveMessage =
  | { type: 'presence'; liftId: string; online: boolean; ts: string }
  | {
      type: 'fleetStatus';
      liftId: string;
      mode: string;
      floor: number | null;
      activeFault: string | null;
    }
  | { type: 'alert'; alert: AlertItem };

export type ServerMessage =
  | LiftLiveMessage
  | FleetLiveMessage
  | { type: 'ready' }
  | { type: 'pong' }
  | { type: 'subscribed'; liftIds: string[]; denied: string[] }
  | { type: 'unsubscribed'; liftIds: string[] }
  | { type: 'fleetSubscribed'; count: number }
  | { type: 'error'; code: string };

export type ClientMessage =
  | { type: 'auth'; token: string }
  | { type: 'subscribe'; liftIds: string[]; since?: Record<string, number> }
  | { type: 'unsubscribe'; liftIds: string[] }
  | { type: 'subscribeFleet' }
  | { type: 'ping' };
