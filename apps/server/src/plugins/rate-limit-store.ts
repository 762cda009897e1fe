import type { SqlExecutor } from '../db/client.ts';

const STORE_TIMEOUT_MS = 500;

type IncrCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A @fastify/rate-limit store in PostgreSQL, so the global limit counts the requests of a
 * client across every server instance behind the load balancer (the in-memory store would
 * give each instance its own allowance). One upsert per request; a fixed window per key.
 */
export function postgresRateLimitStore(sql: SqlExecutor) {
  return class PostgresRateLimitStore {
    incr(key: string, cb: IncrCallback, timeWindow = 60_000): void {
      // While the database is slow or away the limit is skipped (skipOnError) rather than
      // holding every request, /health included, until the connection attempt gives up.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('rate-limit store timed out')), STORE_TIMEOUT_MS)));
      const counted = sql
        .query<{ hits: number; ttl: number }>(
          `insert into rate_limit_hits as r (key, hits, reset_at) values ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
           on conflict (key) do update set
             hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
             reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
           returning hits, greatest(0, extract(epoch from reset_at - now()) * 1000)::integer as ttl`,
          [key, timeWindow],
        );
      Promise.race([counted, late])
        .finally(() => clearTimeout(timer))
        .then(
          ([row]) => cb(null, { current: row!.hits, ttl: row!.ttl }),
          (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
        );
    }

    child(): PostgresRateLimitStore {
      return new PostgresRateLimitStore();
    }
  };
}

/** Forgets windows that ended; called by the cleanup job (modules/jobs/cleanup.ts). Returns how many. */
export async function purgeRateLimits(sql: SqlExecutor): Promise<number> {
  const [row] = await sql.query<{ n: string }>('with gone as (delete from rate_limit_hits where reset_at < now() returning 1) select count(*) as n from gone');
  return Number(row?.n ?? 0);
}
