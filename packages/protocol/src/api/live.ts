import { z } from 'zod';
import type { CommandState, RefusalReason } from '../device/commands.ts';
import type { PresenceReason } from '../device/events.ts';
import type { LiftStatus } from '../device/status.ts';
import type { AlertView } from './alerts.ts';
import type { ApiCode } from './envelope.ts';

/**
 * The live WebSocket (`GET /ws/live`): JSON messages both ways. What the server receives is
 * a zod schema (checked at the boundary); what it sends is typed here for the server that
 * writes it and the web client that reads it.
 */

/** The most lift ids one subscribe or unsubscribe message may carry. */
export const LIVE_SUBSCRIBE_MAX = 500;

const liftIdsSchema = z.array(z.uuid()).min(1).max(LIVE_SUBSCRIBE_MAX);

/** Messages a browser may send; anything else is answered with an error and changes nothing. */
export const liveClientMessageSchema = z.discriminatedUnion('type', [
  /** The session, when the HttpOnly cookie did not come with the upgrade. */
  z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(200) }),
  z.strictObject({
    type: z.literal('subscribe'),
    liftIds: liftIdsSchema,
    /** Per lift, the id of the last run-log entry the client holds: newer ones are replayed. */
    since: z.record(z.uuid(), z.number().int().min(0)).optional(),
  }),
  z.strictObject({ type: z.literal('unsubscribe'), liftIds: liftIdsSchema }),
  /** Presence, mode, floor and fault changes of every lift the user may see (the fleet list), and alerts. */
  z.strictObject({ type: z.literal('subscribeFleet') }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type LiveClientMessage = z.infer<typeof liveClientMessageSchema>;

/** Why a client message was refused; the web client translates it as `errors.<code>`. */
export type LiveErrorCode = Extract<ApiCode, 'request.malformed' | 'validation.failed' | 'auth.unauthorized' | 'forbidden' | 'internal'>;

/** Reads one client message: the message, or the error code to answer with. */
export function parseLiveClientMessage(text: string): { message: LiveClientMessage } | { error: LiveErrorCode } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { error: 'request.malformed' };
  }
  const parsed = liveClientMessageSchema.safeParse(data);
  return parsed.success ? { message: parsed.data } : { error: 'validation.failed' };
}

export interface LiveStatusMessage {
  type: 'status';
  liftId: string;
  seq: number;
  ts: string;
  status: LiftStatus;
}

/** A run-log entry; `reason` only on the cloud's ONLINE / OFFLINE entries (whose seq is negative). */
export interface LiveEventMessage {
  type: 'event';
  liftId: string;
  id: number;
  seq: number;
  ts: string;
  code: string;
  floor: number | null;
  fault: boolean;
  reason?: PresenceReason | null;
}

export interface LivePresenceMessage {
  type: 'presence';
  liftId: string;
  online: boolean;
  ts: string;
}

export interface LiveCommandMessage {
  type: 'command';
  liftId: string;
  commandId: string;
  name: string;
  state: CommandState;
  reason: RefusalReason | null;
}

/** The lift reported a configuration (a new version or the same one again). */
export interface LiveConfigMessage {
  type: 'config';
  liftId: string;
  version: number;
}

/** A new alert (the alerts page and the notification bell). */
export interface LiveAlertMessage {
  type: 'alert';
  liftId: string;
  alert: AlertView;
}

/** A fleet subscriber's digest of a status. */
export interface LiveFleetStatusMessage {
  type: 'fleetStatus';
  liftId: string;
  mode: LiftStatus['mode'];
  floor: number | null;
  activeFault: string | null;
}

/** A change of one lift, as the live bus carries it between instances (and command waiters hear it). */
export type LiveChange = LiveStatusMessage | LiveEventMessage | LivePresenceMessage | LiveCommandMessage | LiveConfigMessage | LiveAlertMessage;

/** What a subscriber of one lift is given. */
export type LiftLiveMessage = LiveStatusMessage | LiveEventMessage | LivePresenceMessage | LiveCommandMessage | LiveConfigMessage;

/** What a fleet subscriber is given: presence, a digest of each status, and alerts. */
export type FleetLiveMessage = LivePresenceMessage | LiveFleetStatusMessage | LiveAlertMessage;

/** Everything `/ws/live` sends. */
export type LiveServerMessage =
  | LiveChange
  | LiveFleetStatusMessage
  | { type: 'ready' }
  | { type: 'pong' }
  | { type: 'subscribed'; liftIds: string[]; denied: string[] }
  | { type: 'unsubscribed'; liftIds: string[] }
  | { type: 'fleetSubscribed'; count: number }
  | { type: 'error'; code: LiveErrorCode };

/** The fleet's digest of a status: its mode, floor and first active fault. */
export function fleetStatusOf(message: LiveStatusMessage): LiveFleetStatusMessage {
  return { type: 'fleetStatus', liftId: message.liftId, mode: message.status.mode, floor: message.status.floor, activeFault: message.status.faults[0] ?? null };
}
