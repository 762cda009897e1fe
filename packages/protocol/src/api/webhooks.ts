import { z } from 'zod';
import { alertViewSchema } from './alerts.ts';
import { dateTimeSchema, listOf, pageOf } from './envelope.ts';

/**
 * Webhooks (docs/webhooks.md): an organization's own systems (ticketing, paging) receive
 * its incident and alert events as signed HTTP POSTs. Messages are i18n keys (`validation.*`).
 */

/**
 * The events an endpoint can subscribe to. Alert events carry the alert (`alertViewSchema`),
 * incident events the incident as the incidents API shows it. `webhook.test` is sent only
 * by the test-send button, to the one endpoint, whatever it subscribed to.
 */
export const WEBHOOK_EVENT_TYPES = ['alert.raised', 'alert.acknowledged', 'alert.cleared', 'incident.opened', 'incident.updated', 'incident.resolved', 'incident.closed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export type WebhookDeliveredType = WebhookEventType | typeof WEBHOOK_TEST_EVENT;

/** The header that carries the signature: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-liftlink-signature';
/** Also sent: the event's id (receivers drop a repeat: a retry after a lost answer delivers the same id again). */
export const WEBHOOK_EVENT_HEADER = 'x-liftlink-event';
/** A signature older (or newer) than this is refused by receivers: a captured request cannot be replayed later. */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;
/** Deliveries are retried, with exponential backoff, until this long after the event; then they are `failed`. */
export const WEBHOOK_RETRY_HOURS = 24;
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** The JSON body of every delivery. `id` stays the same across the retries of one event. */
export const webhookEnvelopeSchema = z.strictObject({
  id: z.string(),
  type: z.union([z.enum(WEBHOOK_EVENT_TYPES), z.literal(WEBHOOK_TEST_EVENT)]),
  occurredAt: dateTimeSchema,
  data: z.record(z.string(), z.unknown()),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
/** The data of the alert events. */
export const webhookAlertDataSchema = alertViewSchema;

// --- The signature: one rule for the server that signs and the receivers that check. ---

/** The part of Web Crypto the signature needs (typed here: the package builds without the DOM library). */
interface HmacSubtle {
  importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: boolean, usages: 'sign'[]): Promise<unknown>;
  sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}

function subtle(): HmacSubtle {
  const c = (globalThis as { crypto?: { subtle?: HmacSubtle } }).crypto;
  if (!c?.subtle) throw new Error('Web Crypto is not available (Node 20 or later, or a browser over HTTPS)');
  return c.subtle;
}

const toHex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** Hex HMAC-SHA256 of `"<timestamp>.<body>"` under `secret` (the `v1` of the header). */
export async function webhookSignatureOf(secret: string, timestamp: number, body: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await subtle().importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toHex(await subtle().sign('HMAC', key, enc.encode(`${timestamp}.${body}`)));
}

/** The signature header's value for a body sent at `timestamp` (unix seconds). */
export async function signWebhook(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  return `t=${timestamp},v1=${await webhookSignatureOf(secret, timestamp, body)}`;
}

export type WebhookVerdict = { ok: true; timestamp: number } | { ok: false; reason: 'malformed' | 'expired' | 'mismatch' };

/**
 * What a receiver runs on each request: the raw body (exactly the bytes received, before
 * any JSON parsing), the signature header and the endpoint's secret. Refuses a timestamp
 * more than the replay window away from `now` (unix seconds), and a signature that does not
 * match (compared in constant time). Several `v1` values are accepted (any may match).
 */
export async function verifyWebhookSignature(secret: string, body: string, header: string | null | undefined, now = Math.floor(Date.now() / 1000), windowSeconds = WEBHOOK_REPLAY_WINDOW_SECONDS): Promise<WebhookVerdict> {
  if (!header) return { ok: false, reason: 'malformed' };
  const parts = header.split(',').map((p) => p.trim().split('=', 2) as [string, string | undefined]);
  const t = parts.find(([k]) => k === 't')?.[1];
  const signatures = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!);
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return { ok: false, reason: 'malformed' };
  const timestamp = Number(t);
  if (Math.abs(now - timestamp) > windowSeconds) return { ok: false, reason: 'expired' };
  const expected = await webhookSignatureOf(secret, timestamp, body);
  return signatures.some((s) => constantTimeEqual(s, expected)) ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// --- The routes (`/auth/access/webhooks/...`). ---

const id = z.uuid('validation.id');
const eventTypes = z.array(z.enum(WEBHOOK_EVENT_TYPES, 'validation.invalid')).min(1, 'validation.required').max(WEBHOOK_EVENT_TYPES.length);
/** The address is checked on the server as well (https, no credentials; http only where allowed). */
const url = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(2000, 'validation.tooLong');
const description = z.string().trim().max(200, 'validation.tooLong');

/** `GET /auth/access/webhooks?orgId=`: an organization's endpoints (without orgId: the caller's own). */
export const webhookListQuerySchema = z.strictObject({ orgId: id.optional() });
export const webhookCreateSchema = z.strictObject({ orgId: id.optional(), url, description: description.optional(), eventTypes, enabled: z.boolean().optional() });
export type WebhookCreateRequest = z.infer<typeof webhookCreateSchema>;
export const webhookUpdateSchema = z.strictObject({ id, url: url.optional(), description: description.optional(), eventTypes: eventTypes.optional(), enabled: z.boolean().optional() });
export type WebhookUpdateRequest = z.infer<typeof webhookUpdateSchema>;
export const webhookIdSchema = z.strictObject({ id });
export const webhookDeliveryQuerySchema = z.strictObject({
  id,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  state: z.enum(WEBHOOK_DELIVERY_STATES).optional(),
});

/** An endpoint as lists show it: never its secret (only its first characters, to tell secrets apart). */
export const webhookViewSchema = z.strictObject({
  id: z.string(),
  orgId: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  secretPrefix: z.string(),
  createdAt: dateTimeSchema,
  updatedAt: dateTimeSchema,
});
export type WebhookView = z.infer<typeof webhookViewSchema>;
export const webhookListSchema = listOf(webhookViewSchema);
/** The answer of create and rotate: the only time the whole secret is shown. */
export const webhookWithSecretSchema = z.strictObject({ webhook: webhookViewSchema, secret: z.string() });

/** One HTTP attempt of a delivery. */
export const webhookAttemptSchema = z.strictObject({
  at: dateTimeSchema,
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  durationMs: z.number(),
});
export const webhookDeliverySchema = z.strictObject({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  occurredAt: dateTimeSchema,
  state: z.enum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  nextAttemptAt: dateTimeSchema.nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  lastDurationMs: z.number().nullable(),
  deliveredAt: dateTimeSchema.nullable(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryPageSchema = pageOf(webhookDeliverySchema);
