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

/** A lift's time online [since, until); `ms` 0 when it has none. */
interface OnlineSpan {
  liftId: string;
  since: Date;
  until: Date;
  ms: number;
}

/** Each lift's online time split per UTC day, for the daily online time. */
async function addDailyOnlineTime(tx: Tx, spans: OnlineSpan[]): Promise<void> {
  const rows = spans.flatMap(({ liftId, since, until, ms }) => (ms > 0 ? msPerDay(since, until).map(([day, part]) => ({ liftId, day, ms: part })) : []));
  if (!rows.length) return;
  await tx.query(
    `insert into lift_daily_stats (lift_id, day, online_ms) select * from unnest($1::uuid[], $2::date[], $3::bigint[])
     on conflict (lift_id, day) do update set online_ms = lift_daily_stats.online_ms + excluded.online_ms`,
    [rows.map((r) => r.liftId), rows.map((r) => r.day), rows.map((r) => r.ms)],
  );
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

export interface OfflineChange {
  liftId: string;
  /** When it went offline: its online time and its OFFLINE entry end there. */
  at: Date;
  /** The connection that ended; null: whichever is current. */
  session: number | null;
  reason: PresenceReason;
}

/**
 * Marks lifts offline (goodbye, will, lost connection, silence or credential reset), books
 * their online time and availability up to `at` and writes OFFLINE with the reason to their
 * run logs, in a few statements for all of them. Nothing happens (no second OFFLINE) to a
 * lift offline already, or when `session` is older than the lift's current connection.
 * One change per lift (the first is kept).
 */
export async function markOfflineAll(tx: Tx, changes: OfflineChange[]): Promise<LiveChange[]> {
  const byLift = new Map<string, OfflineChange>();
  for (const c of changes) if (!byLift.has(c.liftId)) byLift.set(c.liftId, c);
  if (!byLift.size) return [];
  const list = [...byLift.values()];
  const going = await tx.query<{ id: string; online_since: Date | null }>(
    `select l.id, l.online_since from lifts l join unnest($1::uuid[], $2::bigint[]) as v(id, session) on v.id = l.id
      where l.online and (v.session is null or v.session >= l.presence_session) order by l.id for no key update of l`,
    [list.map((c) => c.liftId), list.map((c) => c.session)],
  );
  if (!going.length) return [];
  const spans = going.map((r): OnlineSpan => {
    const until = byLift.get(r.id)!.at;
    const since = r.online_since ? new Date(r.online_since) : until;
    return { liftId: r.id, since, until, ms: Math.max(0, until.getTime() - since.getTime()) };
  });
  await tx.query(
    `update lifts l set online = false, online_since = null, online_ms_total = l.online_ms_total + v.ms
       from unnest($1::uuid[], $2::bigint[]) as v(id, ms) where l.id = v.id`,
    [spans.map((s) => s.liftId), spans.map((s) => s.ms)],
  );
  await addDailyOnlineTime(tx, spans);
  const offline = going.map((r) => byLift.get(r.id)!);
  await bookAvailability(tx, offline.map((c) => ({ liftId: c.liftId, at: c.at })));
  const { live } = await logPresence(tx, offline);
  return [...offline.map((c): LiveChange => ({ type: 'presence', liftId: c.liftId, online: false, ts: c.at.toISOString() })), ...live];
}

/** One lift offline: `markOfflineAll` with one change. */
export function markOffline(tx: Tx, liftId: string, at: Date, session: number | null, reason: PresenceReason): Promise<LiveChange[]> {
  return markOfflineAll(tx, [{ liftId, at, session, reason }]);
}
