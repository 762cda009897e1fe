import { randomUUID } from 'node:crypto';
import { WEBHOOK_RETRY_HOURS, type AlertView, type WebhookDeliveredType, type WebhookEnvelope, type WebhookEventType } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

type Tx = Pick<SqlExecutor, 'query'>;

export interface WebhookEventInput {
  type: WebhookEventType;
  /** The event's data: for alert events the alert, for incident events the incident (as their APIs show them). */
  data: Record<string, unknown>;
  /** The lift it concerns: its operator and its maker receive it (each if subscribed). */
  liftId?: string;
  /** Or the organizations directly. */
  orgIds?: string[];
  occurredAt?: Date;
}

/** The body an event is delivered with: built once, sent as is by every attempt. */
export function webhookBody(eventId: string, type: WebhookDeliveredType, occurredAt: Date, data: Record<string, unknown>): string {
  const envelope: WebhookEnvelope = { id: eventId, type, occurredAt: occurredAt.toISOString(), data };
  return JSON.stringify(envelope);
}

/**
 * Queues an event for the enabled endpoints subscribed to its type, of the organizations it
 * concerns. Call it inside the transaction that makes the change: the event is queued exactly
 * when the change is stored (a rolled-back change sends nothing). The worker (./job.ts) sends
 * it; nothing here waits for the network. Returns how many deliveries were queued.
 */
export async function enqueueWebhookEvent(tx: Tx, event: WebhookEventInput): Promise<number> {
  const orgIds = new Set(event.orgIds ?? []);
  if (event.liftId) {
    const [lift] = await tx.query<{ operator_org_id: string | null; manufacturer_org_id: string }>(`select operator_org_id, manufacturer_org_id from lifts where id = $1`, [event.liftId]);
    if (lift?.operator_org_id) orgIds.add(lift.operator_org_id);
    if (lift?.manufacturer_org_id) orgIds.add(lift.manufacturer_org_id);
  }
  if (!orgIds.size) return 0;
  const occurredAt = event.occurredAt ?? new Date();
  const eventId = randomUUID();
  const rows = await tx.query(
    `insert into webhook_deliveries (endpoint_id, event_id, event_type, occurred_at, payload, next_attempt_at, give_up_at)
     select e.id, $1, $2, $3, $4, now(), $3::timestamptz + make_interval(hours => $6)
       from webhook_endpoints e
      where e.org_id = any($5::uuid[]) and e.enabled and $2 = any(e.event_types)
     returning id`,
    [eventId, event.type, occurredAt, webhookBody(eventId, event.type, occurredAt, event.data), [...orgIds], WEBHOOK_RETRY_HOURS],
  );
  return rows.length;
}

/** An alert as its webhook events carry it (the alerts API's view of it). */
async function alertData(tx: Tx, alertId: string | number): Promise<AlertView | undefined> {
  const [a] = await tx.query<{ id: string; lift_id: string; device_no: string | null; alias: string; kind: AlertView['kind']; code: string | null; raised_at: Date; cleared_at: Date | null; acknowledged_at: Date | null; acknowledged_by_name: string | null }>(
    `select a.id, a.lift_id, l.device_no, l.alias, a.kind, a.code, a.raised_at, a.cleared_at, a.acknowledged_at, a.acknowledged_by_name
       from alerts a join lifts l on l.id = a.lift_id where a.id = $1`,
    [String(alertId)],
  );
  if (!a) return undefined;
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: Number(a.id), liftId: a.lift_id, deviceNo: a.device_no, alias: a.alias, kind: a.kind, code: a.code,
    raisedAt: new Date(a.raised_at).toISOString(), clearedAt: iso(a.cleared_at), acknowledgedAt: iso(a.acknowledged_at), acknowledgedBy: a.acknowledged_by_name,
  };
}

/** Queues `alert.raised`, `alert.acknowledged` or `alert.cleared` for one alert (one line where the alert changes). */
export async function enqueueAlertEvent(tx: Tx, type: 'alert.raised' | 'alert.acknowledged' | 'alert.cleared', alertId: string | number): Promise<number> {
  const alert = await alertData(tx, alertId);
  return alert ? enqueueWebhookEvent(tx, { type, liftId: alert.liftId, data: alert }) : 0;
}
