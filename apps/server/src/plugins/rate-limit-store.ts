import type { SqlExecutor } from '../db/client.ts';

const STORE_TIMEOUT_MS = 500;

/** Calls of `incr` between two looks for windows that ended (the memory of clients gone). */
const FORGET_EVERY = 1_000;

type IncrCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

interface CountRow {
  hits: number;
  ttl: number;
  /** The window's end by the database's clock: the same value names the same window on every instance. */
  window: string;
}

/** What this instance knows of a client's window: the database's count when it last answered, plus the requests taken since. */
interface Known {
  hits: number;
  window: string;
  resetAt: number;
}

/**
 * A @fastify/rate-limit store in PostgreSQL, so the global limit counts the requests of a
 * client across every server instance behind the load balancer (the in-memory store would
 * give each instance its own allowance). One upsert per request; a fixed window per key.
 *
 * A request is not held for its upsert while its client is far below the limit: while what
 * this instance last heard of the window plus the requests it took since is at most half of
 * the limit, it answers from that and counts in the database behind the answer. Each of those
 * counts brings the instance the window's total again, so a client nearing the limit is
 * counted before its answer, as every request was before: the shared limit holds (test:
 * rate-limit-store.test.ts). A signed-in request saves one round trip to the database.
 */
export function postgresRateLimitStore(sql: SqlExecutor, defaultMax: number) {
  const known = new Map<string, Known>();
  let calls = 0;

  const count = (key: string, timeWindow: number) =>
    sql.query<CountRow>(
      `insert into rate_limit_hits as r (key, hits, reset_at) values ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
       on conflict (key) do update set
         hits = case when r.reset_at <= now() then 1 else r.hits + 1 end,
         reset_at = case when r.reset_at <= now() then excluded.reset_at else r.reset_at end
       returning hits, greatest(0, extract(epoch from reset_at - now()) * 1000)::integer as ttl, reset_at::text as window`,
      [key, timeWindow],
    );

  /** Takes the database's answer in: within one window counts only grow (answers may come back out of order). */
  const learn = (key: string, row: CountRow) => {
    const before = known.get(key);
    const hits = before?.window === row.window ? Math.max(before.hits, row.hits) : row.hits;
    known.set(key, { hits, window: row.window, resetAt: Date.now() + row.ttl });
  };

  const forgetEnded = () => {
    const now = Date.now();
    for (const [key, k] of known) if (k.resetAt <= now) known.delete(key);
  };

  return class PostgresRateLimitStore {
    incr(key: string, cb: IncrCallback, timeWindow = 60_000, max = defaultMax): void {
      if (++calls % FORGET_EVERY === 0) forgetEnded();
      const counted = count(key, timeWindow).then(([row]) => (learn(key, row!), row!));
      const k = known.get(key);
      if (k && k.resetAt > Date.now() && k.hits + 1 <= max / 2) {
        k.hits += 1;
        // Counted all the same; a count lost with the database away only errs for the client.
        counted.catch(() => undefined);
        cb(null, { current: k.hits, ttl: k.resetAt - Date.now() });
        return;
      }
      // While the database is slow or away the limit is skipped (skipOnError) rather than
      // holding every request, /health included, until the connection attempt gives up.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('rate-limit store timed out')), STORE_TIMEOUT_MS)));
      Promise.race([counted, late])
        .finally(() => clearTimeout(timer))
        .then(
          (row) => cb(null, { current: row.hits, ttl: row.ttl }),
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
