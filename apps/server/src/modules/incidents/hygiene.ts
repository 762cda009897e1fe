import { priorityOf, type LiveChange } from '@liftlink/protocol';
import { appendLogbook, type Tx } from '../logbook/append.ts';
import type { Executor } from './repository.ts';
import { ACTIVE_SQL, addStep, incidentMessage } from './repository.ts';
import { enqueueIncidentEvent } from './webhook-events.ts';

/**
 * Alarm hygiene (docs/service.md), run by `raiseAlert` in the transaction that raises the
 * alarm: no alarm in a maintenance window; one active incident per lift, cause and code,
 * to which repeats attach instead of raising new alerts and mails; a new fault held for the
 * settle time before anyone is notified.
 */

/**
 * FAULT_SETTLE_SECONDS of this process. The ingest appliers that raise alerts see only their
 * transaction, so the incidents plugin sets it once at start from the configuration.
 */
let settleSeconds = 0;
export function setFaultSettleSeconds(seconds: number): void {
  settleSeconds = seconds;
}
export function faultSettleSeconds(): number {
  return settleSeconds;
}

/** Whether a maintenance window of the lift runs now: it raises nothing then. */
export async function inMaintenanceWindow(tx: Executor, liftId: string): Promise<boolean> {
  const [row] = await tx.query<{ found: boolean }>(
    `select exists (select 1 from maintenance_window_lifts wl join maintenance_windows w on w.id = wl.window_id
                     where wl.lift_id = $1 and w.starts_at <= now() and w.ends_at > now()) as found`,
    [liftId],
  );
  return row!.found;
}

/**
 * Opens the lift's incident for this cause and code, opened by the system; null when one is
 * active already (the unique index decides, so two transactions at once open one).
 */
export async function openAlarmIncident(tx: Tx, liftId: string, cause: string, code: string | null): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(
    `insert into incidents (lift_id, cause, code, priority) values ($1, $2, $3, $4)
     on conflict (lift_id, cause, coalesce(code, '')) where cause <> 'manual' and state in ${ACTIVE_SQL} do nothing returning id`,
    [liftId, cause, code, priorityOf(cause)],
  );
  if (!row) return null;
  await addStep(tx, row.id, { from: null, to: 'open', actor: { userId: null, name: null } });
  await appendLogbook(tx, { liftId, kind: 'incident', actor: null, data: { incidentId: Number(row.id), cause, code, from: null, to: 'open' } });
  await enqueueIncidentEvent(tx, row.id, 'open'); // the organizations' webhooks (docs/webhooks.md)
  return row.id;
}

/** Links the alert that tells people about the incident (a new one, or one still open from before). */
export async function linkAlert(tx: Executor, incidentId: string, liftId: string, kind: string, code: string | null, alertId: string | null): Promise<void> {
  const id =
    alertId ??
    (await tx.query<{ id: string }>(`select id from alerts where lift_id = $1 and kind = $2 and coalesce(code, '') = coalesce($3, '') and acknowledged_at is null and cleared_at is null`, [liftId, kind, code]))[0]?.id ??
    null;
  if (id) await tx.query(`update incidents set alert_id = $2 where id = $1`, [incidentId, id]);
}

export interface Repeat {
  incidentId: string;
  /** The incident's alert went quiet within the settle time and is back: its mails are queued again. */
  requeue: { alertId: string; raisedAt: Date } | null;
}

/**
 * The same cause again on a lift with an active incident for it: counted as a repeat, no new
 * alert. A fault is an event, so each one is a repeat. The other kinds are conditions that
 * clear (help signal off, lift back online): while the incident's alert is still uncleared
 * the condition goes on and nothing is counted (the offline sweep asks again and again);
 * once cleared, its return is a repeat and the alert is reopened, so the sweep stops asking.
 * Null when no incident is active (it was closed meanwhile: the caller opens one).
 */
export async function attachRepeat(tx: Executor, liftId: string, kind: string, code: string | null, live: LiveChange[] | undefined): Promise<Repeat | null> {
  const [row] = await tx.query<{ id: string; alert_id: string | null; cleared_at: Date | null; acknowledged_at: Date | null; raised_at: Date | null }>(
    `select i.id, a.id as alert_id, a.cleared_at, a.acknowledged_at, a.raised_at from incidents i left join alerts a on a.id = i.alert_id
      where i.lift_id = $1 and i.cause = $2 and coalesce(i.code, '') = coalesce($3, '') and i.state in ${ACTIVE_SQL} for update of i`,
    [liftId, kind, code],
  );
  if (!row) return null;
  const ongoing = row.alert_id !== null && row.cleared_at === null;
  if (kind !== 'fault' && ongoing) return { incidentId: row.id, requeue: null };
  await tx.query(`update incidents set repeats = repeats + 1, last_repeat_at = now() where id = $1`, [row.id]);
  let requeue: Repeat['requeue'] = null;
  if (row.alert_id && row.cleared_at !== null) {
    // Reopened unless another open alert holds its key (one from before incidents existed).
    const reopened = await tx.query(
      `update alerts a set cleared_at = null where a.id = $1
          and not exists (select 1 from alerts o where o.lift_id = a.lift_id and o.kind = a.kind and coalesce(o.code, '') = coalesce(a.code, '') and o.id <> a.id and o.acknowledged_at is null and o.cleared_at is null)
        returning a.id`,
      [row.alert_id],
    );
    if (reopened.length && kind === 'fault' && row.acknowledged_at === null) requeue = { alertId: row.alert_id, raisedAt: new Date(row.raised_at!) };
  }
  live?.push(await incidentMessage(tx, row.id));
  return { incidentId: row.id, requeue };
}

/**
 * Faults that went away within the settle time wake nobody: called with the lifts whose new
 * status was just stored, it clears their open fault alerts raised less than the settle time
 * ago whose code the status no longer lists, and drops their notifications not yet due. An
 * alert raised or repeated in this same transaction is left alone (the status may be older
 * than the fault event of the same batch). The incident stays active: a fault that comes
 * back is a repeat and reopens the alert, which then notifies once the settle time from its
 * first appearance has passed.
 */
export async function settleClearedFaults(tx: Executor, liftIds: string[]): Promise<void> {
  if (!liftIds.length || settleSeconds <= 0) return;
  await tx.query(
    `with cleared as (
       update alerts a set cleared_at = now()
         from lifts l
        where l.id = a.lift_id and a.lift_id = any($1::uuid[]) and a.kind = 'fault' and a.cleared_at is null and a.acknowledged_at is null
          and a.raised_at < now() and a.raised_at > now() - make_interval(secs => $2::double precision)
          and not coalesce(l.status->'faults' ? a.code, false)
          and not exists (select 1 from incidents i where i.alert_id = a.id and i.last_repeat_at >= now())
       returning a.id)
     delete from alert_deliveries d using cleared c where d.alert_id = c.id and d.due_at > now()`,
    [liftIds, settleSeconds],
  );
}
