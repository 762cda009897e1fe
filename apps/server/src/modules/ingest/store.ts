import type { LiveChange } from '@liftlink/protocol';
import { applyAlarmReports } from './appliers/alarm-device.ts';
import { applyCommandAnswers } from './appliers/command-answer.ts';
import { followCondition, writeConditionFigures } from './appliers/condition.ts';
import { applyConfigReports } from './appliers/config-report.ts';
import { applyEvents, raiseFaultAlerts } from './appliers/events.ts';
import { applyFirmwareReports } from './appliers/firmware-state.ts';
import { lockLifts, takeNewestStatuses, updateLiftRows } from './appliers/lift-rows.ts';
import { lockLogbookHeadsOfBatch } from './appliers/logbook-heads.ts';
import { applyPresence, reviveSpeakingLifts, type PresenceUplink } from './appliers/presence.ts';
import { applyStatusEffects } from './appliers/status.ts';
import type { Tx, UplinkMessage, UplinkOf } from './appliers/uplink.ts';

export type { UplinkMessage } from './appliers/uplink.ts';

/** The batch sorted by what applies it, each part in arrival order (one pass). */
function byApplier(batch: UplinkMessage[]) {
  const parts = {
    events: [] as UplinkOf<'event'>[],
    statuses: [] as UplinkOf<'status'>[],
    presence: [] as PresenceUplink[],
    configReports: [] as UplinkOf<'config/report'>[],
    commandAnswers: [] as UplinkOf<'cmd/ack'>[],
    alarmReports: [] as UplinkOf<'alarm'>[],
    firmwareReports: [] as UplinkOf<'firmware/state'>[],
  };
  for (const m of batch) {
    if (m.kind === 'event') parts.events.push(m);
    else if (m.kind === 'status') parts.statuses.push(m);
    else if (m.kind === 'presence' || m.kind === 'disconnect') parts.presence.push(m);
    else if (m.kind === 'config/report') parts.configReports.push(m);
    else if (m.kind === 'alarm') parts.alarmReports.push(m);
    else if (m.kind === 'firmware/state') parts.firmwareReports.push(m);
    else parts.commandAnswers.push(m);
  }
  return parts;
}

/**
 * Applies one batch in one transaction and returns what browsers should be told, in the
 * order it happened. Every step is idempotent on (lift, seq): a message stored before
 * changes nothing again. The lifts are locked first, then the logbook heads of those it may
 * write entries for (appliers/logbook-heads.ts); the run log comes before the lift rows'
 * one update (which writes the newest statuses and the condition state they leave too), and
 * the alerts, what the statuses change elsewhere, the condition figures, presence,
 * configurations, command answers and alarm-device and firmware reports after.
 */
export async function storeBatch(tx: Tx, batch: UplinkMessage[]): Promise<LiveChange[]> {
  const live: LiveChange[] = [];
  const parts = byApplier(batch);
  const lifts = await lockLifts(tx, batch);
  await lockLogbookHeadsOfBatch(tx, batch);
  await reviveSpeakingLifts(tx, batch, lifts, live);
  const stored = await applyEvents(tx, parts.events, lifts, live);
  takeNewestStatuses(lifts, parts.statuses);
  const condition = followCondition(lifts, parts.statuses, stored);
  await updateLiftRows(tx, lifts);
  await raiseFaultAlerts(tx, stored, live);
  await applyStatusEffects(tx, lifts, live);
  await writeConditionFigures(tx, condition);
  await applyPresence(tx, parts.presence, live);
  await applyConfigReports(tx, parts.configReports, live);
  await applyCommandAnswers(tx, parts.commandAnswers, live);
  await applyAlarmReports(tx, parts.alarmReports, live);
  await applyFirmwareReports(tx, parts.firmwareReports, live);
  return live;
}

/**
 * The answers lane's batch (command answers and configuration reports, which a person waits
 * for). Answers alone, from lifts online and heard within `heardWithinSeconds`, are applied
 * without their lifts' rows: those rows would only get a new last-seen time, and the bulk
 * batch in hand may hold them for the length of a batch of hundreds of statuses. The time is
 * kept by the lift's periodic reports, each well inside the heartbeat window, so the silence
 * sweep never takes a reporting lift for silent; one that falls silent right after answering
 * is marked offline at most one sweep period (`heardWithinSeconds`) sooner, which the sweep's
 * own period already moves. Anything else (a configuration report, a lift offline or silent
 * for longer) goes the whole way.
 */
export async function storeAnswers(tx: Tx, batch: UplinkMessage[], heardWithinSeconds: number): Promise<LiveChange[]> {
  const answers = batch.filter((m): m is UplinkOf<'cmd/ack'> => m.kind === 'cmd/ack');
  if (answers.length < batch.length) return storeBatch(tx, batch);
  const live: LiveChange[] = [];
  if (!(await applyCommandAnswers(tx, answers, live, heardWithinSeconds))) return storeBatch(tx, batch);
  return live;
}
