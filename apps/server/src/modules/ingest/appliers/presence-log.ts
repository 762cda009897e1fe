import { presenceCode, type LiveChange, type LiveEventMessage, type PresenceReason } from '@liftlink/protocol';
import { bookAvailability } from '../../availability/book.ts';
import type { Tx } from './uplink.ts';

/** Splits [from, to) into UTC days, for the daily online time. */
function msPerDay(from: Date, to: Date): [string, number][] {
  const out: [string, number][] = [];
  let start = from.getTime();
  const end = to.getTime();
  while (start < end) {
    const dayEnd = Date.UTC(new Date(start).getUTCFullYear(), new Date(start).getUTCMonth(), new Date(start).getUTCDate() + 1);
    const stop = Math.min(dayEnd, end);
    out.push([new Date(start).toISOString().slice(0, 10), stop - start]);
    start = stop;
  }
  return out;
}

async function addOnlineTime(tx: Tx, liftId: string, since: Date | null, until: Date): Promise<void> {
  if (!since || until <= since) return;
  const parts = msPerDay(since, until);
  const total = parts.reduce((a, [, ms]) => a + ms, 0);
  await tx.query('update lifts set online_ms_total = online_ms_total + $2 where id = $1', [liftId, total]);
  for (const [day, ms] of parts) {
    await tx.query(
      `insert into lift_daily_stats (lift_id, day, online_ms) values ($1, $2, $3)
       on conflict (lift_id, day) do update set online_ms = lift_daily_stats.online_ms + excluded.online_ms`,
      [liftId, day, ms],
    );
  }
}

export interface PresenceChange {
  liftId: string;
  reason: PresenceReason;
  /** When it happened; null: now (the transaction's time, as `now()` in the same statement elsewhere). */
  at: Date | string | null;
}

/**
 * Writes the run-log entries of presence transitions (ONLINE / OFFLINE with their reason),
 * in the caller's transaction, in one statement. Each takes its lift's next ordinal `n`
 * (the lift's `events_total` is advanced here) and seq = -n: cloud entries have no seq of
 * the lift, whose seqs are positive (migration 0012). Returns the live run-log messages and
 * each lift's last ordinal.
 */
export async function logPresence(tx: Tx, changes: PresenceChange[]): Promise<{ live: LiveEventMessage[]; lastOrdinal: Map<string, number> }> {
  const live: LiveEventMessage[] = [];
  const lastOrdinal = new Map<string, number>();
  if (!changes.length) return { live, lastOrdinal };
  const rows = await tx.query<{ id: string; lift_id: string; n: string; ts: Date; code: string; reason: PresenceReason }>(
    `with v as (select * from unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[]) with ordinality as v(lift_id, ts, code, reason, k)),
          c as (select lift_id, count(*) as cnt from v group by lift_id),
          u as (update lifts l set events_total = l.events_total + c.cnt from c where l.id = c.lift_id returning l.id, l.events_total - c.cnt as base),
          r as (select v.lift_id, coalesce(v.ts, now()) as ts, v.code, v.reason, u.base + row_number() over (partition by v.lift_id order by v.k) as n
                  from v join u on u.id = v.lift_id)
     insert into lift_events (lift_id, seq, n, ts, code, fault, reason) select lift_id, -n, n, ts, code, false, reason from r
     returning id, lift_id, n, ts, code, reason`,
    [
      changes.map((c) => c.liftId),
      changes.map((c) => (c.at === null ? null : typeof c.at === 'string' ? c.at : c.at.toISOString())),
      changes.map((c) => presenceCode(c.reason)),
      changes.map((c) => c.reason),
    ],
  );
  for (const r of rows.sort((a, b) => Number(a.n) - Number(b.n))) {
    const n = Number(r.n);
    lastOrdinal.set(r.lift_id, Math.max(n, lastOrdinal.get(r.lift_id) ?? 0));
    live.push({ type: 'event', liftId: r.lift_id, id: Number(r.id), seq: -n, ts: new Date(r.ts).toISOString(), code: r.code, floor: null, fault: false, reason: r.reason });
  }
  return { live, lastOrdinal };
}

/**
 * Marks a lift offline (goodbye, will, lost connection, silence or credential reset), books
 * its online time and availability up to `at` and writes OFFLINE with the reason to its run log. Nothing
 * happens (no second OFFLINE) when it is offline already, or when `session` is older than
 * the lift's current connection.
 */
export async function markOffline(tx: Tx, liftId: string, at: Date, session: number | null, reason: PresenceReason): Promise<LiveChange[]> {
  const [lift] = await tx.query<{ online_since: Date | null }>(
    `select online_since from lifts where id = $1 and online and ($2::bigint is null or $2::bigint >= presence_session) for update`,
    [liftId, session],
  );
  if (!lift) return [];
  await tx.query('update lifts set online = false, online_since = null where id = $1', [liftId]);
  await addOnlineTime(tx, liftId, lift.online_since ? new Date(lift.online_since) : null, at);
  await bookAvailability(tx, [{ liftId, at }]);
  const { live } = await logPresence(tx, [{ liftId, reason, at }]);
  return [{ type: 'presence', liftId, online: false, ts: at.toISOString() }, ...live];
}
