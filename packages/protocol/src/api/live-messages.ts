import type { CommandState, RefusalReason } from '../device/commands.ts';
import type { PresenceReason } from '../device/events.ts';
import type { LiftStatus } from '../device/status.ts';
import type { AlertView } from './alerts.ts';
import type { ApiCode } from './envelope.ts';
import type { ApprovalView, LeaseEndReason, LeaseView } from './control.ts';
import type { IncidentView } from './incidents.ts';
import type { IncidentNotification } from './escalation.ts';
import type { GroupConfigLiftState, GroupConfigReason } from './group-config.ts';
import type { FirmwareReason, FirmwareState } from '../device/firmware.ts';

/**
 * The live WebSocket (`GET /ws/live`): JSON messages both ways, typed here for the server
 * that writes them and the web client that reads them. Zod-free, so the web shell can use
 * it without zod; what the server receives is checked by the schema in live.ts.
 */

/** The most lift ids one subscribe or unsubscribe message may carry. */
export const LIVE_SUBSCRIBE_MAX = 500;

/** Messages a browser may send (live.ts checks them on arrival). */
export type LiveClientMessage =
  /** The session, when the HttpOnly cookie did not come with the upgrade. */
  | { type: 'auth'; token: string }
  /** `since`: per lift, the id of the last run-log entry the client holds; newer ones are replayed. */
  | { type: 'subscribe'; liftIds: string[]; since?: Record<string, number> }
  | { type: 'unsubscribe'; liftIds: string[] }
  /** Presence, mode, floor and fault changes of every lift the user may see (the fleet list), and alerts. */
  | { type: 'subscribeFleet' }
  | { type: 'ping' };

/** Why a client message was refused; the web client translates it as `errors.<code>`. */
export type LiveErrorCode = Extract<ApiCode, 'request.malformed' | 'validation.failed' | 'auth.unauthorized' | 'forbidden' | 'internal'>;

/**
 * A lift's new status snapshot. Sent when the snapshot differs from the stored one: a lift
 * that repeats its status advances `seq` and `ts` in the database only (a reconnecting
 * client's replay brings them).
 */
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

/**
 * The lift's control lease changed (docs/remote-control.md): taken, renewed, released,
 * taken over, expired or ended by local use. `lease` is the new state; `ended` says why the
 * previous holder lost it, `endedHolderId` who that was (so their page can tell them).
 */
export interface LiveLeaseMessage {
  type: 'lease';
  liftId: string;
  lease: LeaseView | null;
  localUntil: string | null;
  ended: LeaseEndReason | null;
  endedHolderId: string | null;
}

/** A request for two-person approval was made or changed state. */
export interface LiveApprovalMessage {
  type: 'approval';
  liftId: string;
  approval: ApprovalView;
}

/** An incident was opened, changed state or assignee, got a note, or a repeat of its cause attached to it. */
export interface LiveIncidentMessage {
  type: 'incident';
  liftId: string;
  incident: IncidentView;
}

/**
 * An in-app notification about an incident (escalation: asked to acknowledge, or told who
 * took it) for one user: the socket sends it only to `userId`, whatever they subscribed.
 */
export interface LiveNotificationMessage {
  type: 'notification';
  liftId: string;
  userId: string;
  notification: IncidentNotification;
}

/** A lift's state in a group configuration send changed (docs/group-config.md). */
export interface LiveGroupConfigMessage {
  type: 'groupConfig';
  liftId: string;
  groupId: string;
  state: GroupConfigLiftState;
  reason: GroupConfigReason | null;
}

/**
 * The lift reported on a firmware update (`firmware/state`, docs/protocol.md section 11):
 * its state, download progress, why it waits or failed, and what it runs now.
 */
export interface LiveFirmwareMessage {
  type: 'firmware';
  liftId: string;
  offerSeq: number | null;
  packageId: string | null;
  campaignId: string | null;
  version: string | null;
  state: FirmwareState;
  percent: number | null;
  reason: FirmwareReason | null;
  retryAt: string | null;
  runningVersion: string;
  ts: string;
}

/** A change of one lift, as the live bus carries it between instances (and command waiters hear it). */
export type LiveChange = LiveStatusMessage | LiveEventMessage | LivePresenceMessage | LiveCommandMessage | LiveConfigMessage | LiveAlertMessage | LiveLeaseMessage | LiveApprovalMessage | LiveIncidentMessage | LiveNotificationMessage | LiveGroupConfigMessage | LiveFirmwareMessage;

/** What a subscriber of one lift is given. */
export type LiftLiveMessage = LiveStatusMessage | LiveEventMessage | LivePresenceMessage | LiveCommandMessage | LiveConfigMessage | LiveLeaseMessage | LiveApprovalMessage | LiveIncidentMessage | LiveGroupConfigMessage | LiveFirmwareMessage;

/** What a fleet subscriber is given: presence, a digest of each status, alerts, and incidents (to those who may see incidents). */
export type FleetLiveMessage = LivePresenceMessage | LiveFleetStatusMessage | LiveAlertMessage | LiveIncidentMessage | LiveNotificationMessage;

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
