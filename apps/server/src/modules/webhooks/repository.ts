import { randomBytes } from 'node:crypto';
import type { WebhookDelivery, WebhookDeliveryState, WebhookEventType, WebhookView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

type Executor = Pick<SqlExecutor, 'query'>;

/** A new signing secret: 256 random bits, with a prefix that tells what it is in a vault. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** How many characters of a secret lists show, to tell secrets apart (`whsec_` and four more). */
const SHOWN_PREFIX = 10;

export interface EndpointRecord extends WebhookView {
  secret: string;
}

interface EndpointRow {
  id: string; org_id: string; url: string; description: string; event_types: WebhookEventType[]; enabled: boolean; secret: string; created_at: Date; updated_at: Date;
}

const toRecord = (r: EndpointRow): EndpointRecord => ({
  id: r.id, orgId: r.org_id, url: r.url, description: r.description, eventTypes: r.event_types, enabled: r.enabled,
  secretPrefix: r.secret.slice(0, SHOWN_PREFIX), secret: r.secret, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

/** The endpoint without its secret: what every answer but create and rotate shows. */
export function publicView(e: EndpointRecord): WebhookView {
  const { secret: _secret, ...view } = e;
  return view;
}

const iso = (d: Date | string) => new Date(d).toISOString();

const COLUMNS = 'id, org_id, url, description, event_types, enabled, secret, created_at, updated_at';

export async function endpointsOf(sql: Executor, orgId: string): Promise<EndpointRecord[]> {
  const rows = await sql.query<EndpointRow>(`select ${COLUMNS} from webhook_endpoints where org_id = $1 order by created_at, id`, [orgId]);
  return rows.map(toRecord);
}

export async function findEndpoint(sql: Executor, id: string): Promise<EndpointRecord | undefined> {
  const [row] = await sql.query<EndpointRow>(`select ${COLUMNS} from webhook_endpoints where id = $1`, [id]);
  return row ? toRecord(row) : undefined;
}

export async function createEndpoint(sql: Executor, e: { orgId: string; url: string; description: string; eventTypes: WebhookEventType[]; enabled: boolean; createdBy: string }): Promise<EndpointRecord> {
  const [row] = await sql.query<EndpointRow>(
    `insert into webhook_endpoints (org_id, url, description, event_types, enabled, secret, created_by) values ($1, $2, $3, $4::text[], $5, $6, $7) returning ${COLUMNS}`,
    [e.orgId, e.url, e.description, e.eventTypes, e.enabled, newWebhookSecret(), e.createdBy],
  );
  return toRecord(row!);
}

export async function updateEndpoint(sql: Executor, id: string, change: { url?: string | undefined; description?: string | undefined; eventTypes?: WebhookEventType[] | undefined; enabled?: boolean | undefined }): Promise<EndpointRecord> {
  const [row] = await sql.query<EndpointRow>(
    `update webhook_endpoints set url = coalesce($2, url), description = coalesce($3, description), event_types = coalesce($4::text[], event_types),
            enabled = coalesce($5, enabled), updated_at = now()
      where id = $1 returning ${COLUMNS}`,
    [id, change.url ?? null, change.description ?? null, change.eventTypes ?? null, change.enabled ?? null],
  );
  return toRecord(row!);
}

export async function rotateSecret(sql: Executor, id: string): Promise<EndpointRecord> {
  const [row] = await sql.query<EndpointRow>(`update webhook_endpoints set secret = $2, updated_at = now() where id = $1 returning ${COLUMNS}`, [id, newWebhookSecret()]);
  return toRecord(row!);
}

/** Deletes the endpoint with its deliveries and their log. */
export async function deleteEndpoint(sql: Executor, id: string): Promise<void> {
  await sql.query(`delete from webhook_endpoints where id = $1`, [id]);
}

interface DeliveryRow {
  id: string; event_id: string; event_type: string; occurred_at: Date; state: WebhookDeliveryState; attempts: number; next_attempt_at: Date | null;
  last_status_code: number | null; last_error: string | null; last_duration_ms: number | null; delivered_at: Date | null;
  attempt_log: { at: string; statusCode: number | null; error: string | null; durationMs: number }[] | null;
}

const DELIVERY_COLUMNS = `d.id, d.event_id, d.event_type, d.occurred_at, d.state, d.attempts, d.next_attempt_at, d.last_status_code, d.last_error, d.last_duration_ms, d.delivered_at,
  (select json_agg(json_build_object('at', a.at, 'statusCode', a.status_code, 'error', a.error, 'durationMs', a.duration_ms) order by a.id)
     from webhook_attempts a where a.delivery_id = d.id) as attempt_log`;

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: String(r.id), eventId: r.event_id, eventType: r.event_type, occurredAt: iso(r.occurred_at), state: r.state, attempts: r.attempts,
  nextAttemptAt: r.state === 'pending' && r.next_attempt_at ? iso(r.next_attempt_at) : null, lastStatusCode: r.last_status_code, lastError: r.last_error, lastDurationMs: r.last_duration_ms,
  deliveredAt: r.delivered_at ? iso(r.delivered_at) : null, attemptLog: (r.attempt_log ?? []).map((a) => ({ ...a, at: iso(a.at) })),
});

/** The delivery log of an endpoint, newest first, with each delivery's attempts. */
export async function deliveryPage(sql: Executor, endpointId: string, q: { page: number; pageSize: number; state?: WebhookDeliveryState | undefined }): Promise<{ list: WebhookDelivery[]; total: number }> {
  const params: unknown[] = [endpointId];
  const where = ['d.endpoint_id = $1'];
  if (q.state) where.push(`d.state = $${params.push(q.state)}`);
  const cond = where.join(' and ');
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from webhook_deliveries d where ${cond}`, params);
  const rows = await sql.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS} from webhook_deliveries d where ${cond} order by d.id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return { list: rows.map(toDelivery), total: Number(count!.n) };
}

export async function findDelivery(sql: Executor, id: string): Promise<WebhookDelivery | undefined> {
  const [row] = await sql.query<DeliveryRow>(`select ${DELIVERY_COLUMNS} from webhook_deliveries d where d.id = $1`, [id]);
  return row ? toDelivery(row) : undefined;
}
