import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * Sign-in throttle, kept in the database so every server instance sees the same counts.
 * After `free` failures each further failure blocks the key for twice as long as the last
 * (from 30 s), capped at 15 minutes; counts expire an hour after the first failure. So an
 * attacker is slowed to a handful of guesses an hour, and a user is never locked out for good.
 */
export const THROTTLE = {
  account: { free: 5 },
  address: { free: 30 },
  baseBlockMs: 30_000,
  maxBlockMs: 15 * 60_000,
  windowMs: 60 * 60_000,
} as const;

export type ThrottleKey = { key: string; free: number };

export const accountKey = (login: string): ThrottleKey => ({ key: `account:${login.trim().toLowerCase()}`, free: THROTTLE.account.free });
export const addressKey = (ip: string): ThrottleKey => ({ key: `address:${ip}`, free: THROTTLE.address.free });

export async function assertNotBlocked(sql: SqlExecutor, keys: ThrottleKey[]): Promise<void> {
  const rows = await sql.query<{ blocked_until: Date | null }>(
    `select blocked_until from auth_throttle where key = any($1::text[]) and blocked_until > now()`,
    [keys.map((k) => k.key)],
  );
  if (rows.length === 0) return;
  const until = Math.max(...rows.map((r) => new Date(r.blocked_until!).getTime()));
  const retryAfter = Math.max(1, Math.ceil((until - Date.now()) / 1000));
  throw new AppError('auth.tooManyAttempts', { retryAfter }, undefined, { 'retry-after': String(retryAfter) });
}

export async function recordFailure(sql: SqlExecutor, keys: ThrottleKey[]): Promise<void> {
  for (const { key, free } of keys) {
    await sql.query(
      `insert into auth_throttle as t (key, failures, first_failure_at) values ($1, 1, now())
       on conflict (key) do update set
         failures = case when t.first_failure_at < now() - make_interval(secs => $2::double precision / 1000) then 1 else t.failures + 1 end,
         first_failure_at = case when t.first_failure_at < now() - make_interval(secs => $2::double precision / 1000) then now() else t.first_failure_at end`,
      [key, THROTTLE.windowMs],
    );
    await sql.query(
      `update auth_throttle set blocked_until = now() + make_interval(secs => least($2::double precision, $3::double precision * power(2, failures - $4 - 1)) / 1000)
        where key = $1 and failures > $4`,
      [key, THROTTLE.maxBlockMs, THROTTLE.baseBlockMs, free],
    );
  }
}

export async function clearFailures(sql: SqlExecutor, key: ThrottleKey): Promise<void> {
  await sql.query('delete from auth_throttle where key = $1', [key.key]);
}
