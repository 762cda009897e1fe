import type { FastifyInstance } from 'fastify';
import { WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER, signWebhook } from '@liftlink/protocol';
import type { Config } from '../../config.ts';

/** A claimed delivery with what its attempt needs. */
export interface DueDelivery {
  id: string;
  event_id: string;
  payload: string;
  attempts: number;
  give_up_at: Date;
  url: string;
  secret: string;
}

/** How many deliveries one worker pass claims (sent concurrently), and how many passes a run makes at most. */
const BATCH = 20;
const MAX_BATCHES = 10;
/** Finished deliveries are kept this long in the delivery log. */
const KEEP_DAYS = 30;

/**
 * The delay before retry number `attempts` (1 after the first failure): base, doubling each
 * time, capped, with ±20 % jitter so endpoints that failed together do not retry in step.
 */
export function retryDelayMs(attempts: number, cfg: Config['webhooks'], random = Math.random): number {
  const plain = Math.min(cfg.retryMaxMs, cfg.retryBaseMs * 2 ** Math.min(30, Math.max(0, attempts - 1)));
  return Math.round(plain * (0.8 + 0.4 * random()));
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * One signed POST. Any 2xx is success; a redirect is not followed (the endpoint's address is
 * the one checked and shown) and counts as a failure like any other status.
 */
async function post(app: FastifyInstance, d: DueDelivery, stop?: AbortSignal): Promise<AttemptOutcome> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(app.config.webhooks.timeoutMs);
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      redirect: 'manual',
      signal: stop ? AbortSignal.any([timeout, stop]) : timeout,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'LiftLink-Webhooks/1',
        [WEBHOOK_SIGNATURE_HEADER]: await signWebhook(d.secret, d.payload),
        [WEBHOOK_EVENT_HEADER]: d.event_id,
      },
      body: d.payload,
    });
    // The answer's body is not kept; reading it ends the request cleanly.
    await res.arrayBuffer().catch(() => undefined);
    return { statusCode: res.status, error: null, durationMs: Math.round(performance.now() - started) };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    const error = timeout.aborted ? `timeout after ${app.config.webhooks.timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message);
    return { statusCode: null, error: String(error).slice(0, 500), durationMs: Math.round(performance.now() - started) };
  }
}

/**
 * Makes one attempt of a claimed delivery and records it: delivered on a 2xx; else pending
 * again after the backoff, or failed when the next try would come after `give_up_at`.
 */
export async function attemptDelivery(app: FastifyInstance, d: DueDelivery, stop?: AbortSignal): Promise<AttemptOutcome & { state: 'delivered' | 'pending' | 'failed' }> {
  const outcome = await post(app, d, stop);
  const attempts = d.attempts + 1;
  const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = new Date(Date.now() + retryDelayMs(attempts, app.config.webhooks));
  const state = delivered ? 'delivered' : next >= new Date(d.give_up_at) ? 'failed' : 'pending';
  await app.database.sql.transaction(async (tx) => {
    await tx.query(`insert into webhook_attempts (delivery_id, status_code, error, duration_ms) values ($1, $2, $3, $4)`, [d.id, outcome.statusCode, outcome.error, outcome.durationMs]);
    await tx.query(
      `update webhook_deliveries set attempts = $2, state = $3, next_attempt_at = $4, last_status_code = $5, last_error = $6, last_duration_ms = $7,
              delivered_at = case when $3 = 'delivered' then now() else delivered_at end
        where id = $1`,
      [d.id, attempts, state, state === 'pending' ? next : null, outcome.statusCode, outcome.error, outcome.durationMs],
    );
  });
  return { ...outcome, state };
}

/**
 * Claims due deliveries of enabled endpoints: their due time moves past this attempt's
 * timeout, so another instance (or the next run) skips them meanwhile, and takes them again
 * only if this instance died before recording the attempt. `skip locked`: two instances
 * claiming at once take different rows.
 */
export async function claimDue(app: FastifyInstance, limit: number, deliveryId?: string): Promise<DueDelivery[]> {
  const leaseMs = app.config.webhooks.timeoutMs + 30_000;
  return app.database.sql.query<DueDelivery>(
    `with due as (
       select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
        where d.state = 'pending' and d.next_attempt_at <= now() and ($3::bigint is null or d.id = $3::bigint)
          and (e.enabled or d.event_type = 'webhook.test')
        order by d.next_attempt_at limit $1 for update of d skip locked)
     update webhook_deliveries d set next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
       from due, webhook_endpoints e
      where d.id = due.id and e.id = d.endpoint_id
     returning d.id, d.event_id, d.payload, d.attempts, d.give_up_at, e.url, e.secret`,
    [limit, leaseMs, deliveryId ?? null],
  );
}

/** Deliveries due past their last chance (the endpoint was disabled meanwhile, the server was down) are failed. */
async function failExpired(app: FastifyInstance): Promise<number> {
  const rows = await app.database.sql.query(
    `update webhook_deliveries set state = 'failed', next_attempt_at = null, last_error = coalesce(last_error, 'not sent within the retry window')
      where state = 'pending' and give_up_at <= now() returning id`,
  );
  return rows.length;
}

/** One run of the worker: expire, then send what is due, batch after batch; prune the old log. */
export async function deliverDue(app: FastifyInstance, stop: AbortSignal): Promise<Record<string, number>> {
  const counts = { delivered: 0, retrying: 0, failed: await failExpired(app), pruned: 0 };
  for (let batch = 0; batch < MAX_BATCHES && !stop.aborted; batch++) {
    const due = await claimDue(app, BATCH);
    const outcomes = await Promise.all(due.map((d) => attemptDelivery(app, d, stop)));
    for (const o of outcomes) counts[o.state === 'pending' ? 'retrying' : o.state] += 1;
    if (due.length < BATCH) break;
  }
  const pruned = await app.database.sql.query(`delete from webhook_deliveries where state <> 'pending' and created_at < now() - make_interval(days => $1) returning id`, [KEEP_DAYS]);
  counts.pruned = pruned.length;
  return counts;
}
