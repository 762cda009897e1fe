import type { SqlExecutor } from '../../db/client.ts';
import type { LiveMessage } from '../live/bus.ts';
import { grantedSql } from '../access/policy.ts';

type Tx = Omit<SqlExecutor, 'transaction'>;
export type AlertKind = 'fault' | 'help' | 'offline';

export interface AlertView {
  id: number;
  liftId: string;
  deviceNo: string | null;
  alias: string;
  kind: AlertKind;
  code: string | null;
  raisedAt: string;
  clearedAt: string | null;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
}

/** A recipient's role grants `alert.query` on the lift, in a scope that reaches it (the one policy). */
const RECIPIENT_GRANT = grantedSql('r.permissions', 'u.org_id', 'alert.query');

const SETTING_BY_KIND: Record<AlertKind, string> = { fault: 'mailFaults', help: 'mailHelp', offline: 'mailOffline' };

/**
 * Raises an alert unless the same one is already open, and queues it for the users who
 * chose it in their notification settings and may see the lift. An offline alert reaches
 * each user only once the lift has been away for that user's chosen number of minutes.
 */
export async function raiseAlert(tx: Tx, liftId: string, kind: AlertKind, code: string | null, since: Date = new Date()): Promise<LiveMessage | null> {
  const [alert] = await tx.query<{ id: string; raised_at: Date; device_no: string | null; alias: string }>(
    `with a as (insert into alerts (lift_id, kind, code) values ($1, $2, $3) on conflict do nothing returning id, raised_at)
     select a.id, a.raised_at, l.device_no, l.alias from a join lifts l on l.id = $1`,
    [liftId, kind, code],
  );
  if (!alert) return null;
  await tx.query(
    `insert into alert_deliveries (alert_id, user_id, due_at, mail)
     select $1, u.id,
            case when $3 = 'offline' then $5::timestamptz + make_interval(mins => coalesce((u.notifications->>'offlineMinutes')::integer, 60)) else now() end,
            true
       from users u join roles r on r.id = u.role_id join lifts l on l.id = $2
      where u.status = 'active'
        and coalesce((u.notifications->>$4)::boolean, false)
        and (jsonb_array_length(coalesce(u.notifications->'liftIds', '[]'::jsonb)) = 0 or coalesce(u.notifications->'liftIds', '[]'::jsonb) ? l.id::text)
        and ${RECIPIENT_GRANT}`,
    [alert.id, liftId, kind, SETTING_BY_KIND[kind], since],
  );
  return {
    type: 'alert',
    liftId,
    alert: { id: Number(alert.id), liftId, deviceNo: alert.device_no, alias: alert.alias, kind, code, raisedAt: new Date(alert.raised_at).toISOString(), clearedAt: null, acknowledgedAt: null, acknowledgedBy: null },
  };
}

/** The condition went away (help signal off, lift back online): the open alert is closed. */
export async function clearAlerts(tx: Tx, liftIds: string[], kind: AlertKind): Promise<void> {
  if (!liftIds.length) return;
  await tx.query(`update alerts set cleared_at = now() where lift_id = any($1::uuid[]) and kind = $2 and cleared_at is null and acknowledged_at is null`, [liftIds, kind]);
}

export const ALERT_COLUMNS = `a.id, a.lift_id as "liftId", l.device_no as "deviceNo", l.alias, a.kind, a.code, a.raised_at as "raisedAt",
  a.cleared_at as "clearedAt", a.acknowledged_at as "acknowledgedAt", a.acknowledged_by_name as "acknowledgedBy"`;

type AlertRow = Omit<AlertView, 'raisedAt' | 'clearedAt' | 'acknowledgedAt' | 'id'> & { id: string; raisedAt: Date; clearedAt: Date | null; acknowledgedAt: Date | null };
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
export const toAlertView = (r: AlertRow): AlertView => ({ ...r, id: Number(r.id), raisedAt: new Date(r.raisedAt).toISOString(), clearedAt: iso(r.clearedAt), acknowledgedAt: iso(r.acknowledgedAt) });
export type { AlertRow };
