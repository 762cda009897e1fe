import type { AlertKind, AlertView, LiveChange } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { grantedSql, liftFilter } from '../access/policy.ts';
import { enqueueAlertEvent } from '../webhooks/events.ts';
import { attachRepeat, faultSettleSeconds, inMaintenanceWindow, linkAlert, openAlarmIncident } from '../incidents/hygiene.ts';
import { incidentMessage } from '../incidents/repository.ts';

type Tx = Omit<SqlExecutor, 'transaction'>;

/** A recipient's role grants `alert.query` on the lift, in a scope that reaches it (the one policy). */
const RECIPIENT_GRANT = grantedSql('r.permissions', 'u.org_id', 'alert.query');

const SETTING_BY_KIND: Record<AlertKind, string> = { fault: 'mailFaults', help: 'mailHelp', offline: 'mailOffline', alarmTest: 'mailAlarmDevice', alarmBattery: 'mailAlarmDevice' };

/**
 * Raises an alert unless the same one is already open, and queues it for the users who
 * chose it in their notification settings and may see the lift. An offline alert reaches
 * each user only once the lift has been away for that user's chosen number of minutes; a
 * fault alert only after the fault settle time (FAULT_SETTLE_SECONDS).
 *
 * Alarm hygiene (docs/service.md, modules/incidents/hygiene.ts), in the same transaction:
 * in a maintenance window of the lift nothing is raised; the alarm opens the lift's incident
 * for this cause, or, when one is active, attaches to it as a repeat (no new alert, no new
 * mail). The incident's live messages go into `live` when given.
 */
export async function raiseAlert(tx: Tx, liftId: string, kind: AlertKind, code: string | null, since: Date = new Date(), live?: LiveChange[]): Promise<LiveChange | null> {
  if (await inMaintenanceWindow(tx, liftId)) return null;
  const incidentId = await openAlarmIncident(tx, liftId, kind, code);
  if (!incidentId) {
    const repeat = await attachRepeat(tx, liftId, kind, code, live);
    if (repeat) {
      if (repeat.requeue) await queueDeliveries(tx, repeat.requeue.alertId, liftId, kind, since, repeat.requeue.raisedAt);
      return null;
    }
  }
  const [alert] = await tx.query<{ id: string; raised_at: Date; device_no: string | null; alias: string }>(
    `with a as (insert into alerts (lift_id, kind, code) values ($1, $2, $3) on conflict do nothing returning id, raised_at)
     select a.id, a.raised_at, l.device_no, l.alias from a join lifts l on l.id = $1`,
    [liftId, kind, code],
  );
  if (incidentId) {
    await linkAlert(tx, incidentId, liftId, kind, code, alert?.id ?? null);
    live?.push(await incidentMessage(tx, incidentId));
  }
  if (!alert) return null;
  await queueDeliveries(tx, alert.id, liftId, kind, since, new Date(alert.raised_at));
  await enqueueAlertEvent(tx, 'alert.raised', alert.id); // the organizations' webhooks (docs/webhooks.md)
  return {
    type: 'alert',
    liftId,
    alert: { id: Number(alert.id), liftId, deviceNo: alert.device_no, alias: alert.alias, kind, code, raisedAt: new Date(alert.raised_at).toISOString(), clearedAt: null, acknowledgedAt: null, acknowledgedBy: null },
  };
}

/**
 * Queues an alert's notifications (mail and in-app) for the users who chose its kind and may
 * see the lift; a user queued already keeps their entry. Due: offline `since` + the user's
 * minutes; fault `faultSince` + the settle time (at once if that has passed); else now.
 */
async function queueDeliveries(tx: Tx, alertId: string, liftId: string, kind: AlertKind, since: Date, faultSince: Date): Promise<void> {
  await tx.query(
    `insert into alert_deliveries (alert_id, user_id, due_at, mail)
     select $1, u.id,
            case when $3 = 'offline' then $5::timestamptz + make_interval(mins => coalesce((u.notifications->>'offlineMinutes')::integer, 60))
                 when $3 = 'fault' then greatest(now(), $6::timestamptz + make_interval(secs => $7::double precision))
                 else now() end,
            true
       from users u join roles r on r.id = u.role_id join lifts l on l.id = $2
      where u.status = 'active'
        and coalesce((u.notifications->>$4)::boolean, false)
        and (jsonb_array_length(coalesce(u.notifications->'liftIds', '[]'::jsonb)) = 0 or coalesce(u.notifications->'liftIds', '[]'::jsonb) ? l.id::text)
        and ${RECIPIENT_GRANT}
     on conflict (alert_id, user_id) do nothing`,
    [alertId, liftId, kind, SETTING_BY_KIND[kind], since, faultSince, faultSettleSeconds()],
  );
}

/** The condition went away (help signal off, lift back online): the open alert is closed. */
export async function clearAlerts(tx: Tx, liftIds: string[], kind: AlertKind): Promise<void> {
  if (!liftIds.length) return;
  const cleared = await tx.query<{ id: string }>(`update alerts set cleared_at = now() where lift_id = any($1::uuid[]) and kind = $2 and cleared_at is null and acknowledged_at is null returning id`, [liftIds, kind]);
  for (const a of cleared) await enqueueAlertEvent(tx, 'alert.cleared', a.id);
}

export const ALERT_COLUMNS = `a.id, a.lift_id as "liftId", l.device_no as "deviceNo", l.alias, a.kind, a.code, a.raised_at as "raisedAt",
  a.cleared_at as "clearedAt", a.acknowledged_at as "acknowledgedAt", a.acknowledged_by_name as "acknowledgedBy"`;

type AlertRow = Omit<AlertView, 'raisedAt' | 'clearedAt' | 'acknowledgedAt' | 'id'> & { id: string; raisedAt: Date; clearedAt: Date | null; acknowledgedAt: Date | null };
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export const toAlertView = (r: AlertRow): AlertView => ({ ...r, id: Number(r.id), raisedAt: new Date(r.raisedAt).toISOString(), clearedAt: iso(r.clearedAt), acknowledgedAt: iso(r.acknowledgedAt) });
export type { AlertRow };

/** A page of the alerts on the caller's lifts, newest first, with how many match and how many are open. */
export async function alertPage(sql: SqlExecutor, auth: AuthContext, q: { page: number; pageSize: number; state?: 'open' | 'acknowledged' | undefined; liftId?: string | undefined }): Promise<{ list: AlertView[]; total: number; open: number }> {
  const scope = liftFilter(auth, 1);
  const params: unknown[] = scope.param ? [scope.param] : [];
  const where = [scope.where];
  if (q.state === 'open') where.push('a.acknowledged_at is null and a.cleared_at is null');
  if (q.state === 'acknowledged') where.push('a.acknowledged_at is not null');
  if (q.liftId) where.push(`a.lift_id = $${params.push(q.liftId)}`);
  const cond = where.join(' and ');
  const [count] = await sql.query<{ n: string; open: string }>(
    `select count(*) as n, count(*) filter (where a.acknowledged_at is null and a.cleared_at is null) as open from alerts a join lifts l on l.id = a.lift_id where ${cond}`,
    params,
  );
  const rows = await sql.query<AlertRow>(
    `select ${ALERT_COLUMNS} from alerts a join lifts l on l.id = a.lift_id where ${cond} order by a.raised_at desc, a.id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return { list: rows.map(toAlertView), total: Number(count!.n), open: Number(count!.open) };
}

/** Acknowledges an open alert on one of the caller's lifts; null when there is none such. */
export async function acknowledgeAlert(sql: SqlExecutor, auth: AuthContext, id: number): Promise<{ lift_id: string } | null> {
  const scope = liftFilter(auth, 2);
  const [row] = await sql.query<{ lift_id: string }>(
    `update alerts a set acknowledged_at = now(), acknowledged_by = $${scope.param ? 3 : 2}, acknowledged_by_name = $${scope.param ? 4 : 3}
       from lifts l where a.id = $1 and l.id = a.lift_id and ${scope.where} and a.acknowledged_at is null returning a.lift_id`,
    scope.param ? [id, scope.param, auth.userId, auth.username] : [id, auth.userId, auth.username],
  );
  return row ?? null;
}

/** A user's in-app notifications that are due (the newest 50) and how many are unread. */
export async function notificationsOf(sql: SqlExecutor, userId: string): Promise<{ list: (AlertView & { readAt: string | null; read: boolean })[]; unread: number }> {
  const rows = await sql.query<AlertRow & { readAt: Date | null }>(
    `select ${ALERT_COLUMNS}, d.read_at as "readAt" from alert_deliveries d join alerts a on a.id = d.alert_id join lifts l on l.id = a.lift_id
      where d.user_id = $1 and d.due_at <= now() order by a.raised_at desc limit 50`,
    [userId],
  );
  const [unread] = await sql.query<{ n: string }>(`select count(*) as n from alert_deliveries where user_id = $1 and due_at <= now() and read_at is null`, [userId]);
  return { list: rows.map((r) => ({ ...toAlertView(r), readAt: r.readAt ? new Date(r.readAt).toISOString() : null, read: r.readAt !== null })), unread: Number(unread!.n) };
}

export async function markNotificationsRead(sql: SqlExecutor, userId: string, alertIds: number[]): Promise<void> {
  await sql.query(`update alert_deliveries set read_at = now() where user_id = $1 and alert_id = any($2::bigint[]) and read_at is null`, [userId, alertIds]);
}
