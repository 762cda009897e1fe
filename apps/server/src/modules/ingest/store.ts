import {
  isFault,
  presenceCode,
  type CmdAckMessage,
  type CommandState,
  type ConfigReportMessage,
  type EventMessage,
  type PresenceMessage,
  type PresenceReason,
  type RefusalReason,
  type StatusMessage,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { LiveMessage } from '../live/bus.ts';
import { clearAlerts, raiseAlert } from '../alerts/repository.ts';

export type UplinkMessage =
  | { kind: 'status'; liftId: string; message: StatusMessage }
  | { kind: 'event'; liftId: string; message: EventMessage }
  | { kind: 'presence'; liftId: string; message: PresenceMessage }
  | { kind: 'config/report'; liftId: string; message: ConfigReportMessage }
  | { kind: 'cmd/ack'; liftId: string; message: CmdAckMessage }
  /** The embedded broker saw the lift's connection close (its will is not routed to ingest there). */
  | { kind: 'disconnect'; liftId: string; at: Date };

type Tx = Omit<SqlExecutor, 'transaction'>;

/** Lifecycle order: an answer may only move a command forward (a late `accepted` never undoes `done`). */
const NEXT_STATES: Record<string, CommandState[]> = {
  accepted: ['created', 'sent'],
  rejected: ['created', 'sent'],
  done: ['created', 'sent', 'accepted'],
  failed: ['created', 'sent', 'accepted'],
};

const TRIP_CODES = new Set(['RZGU', 'RZGD']);

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
type EventMessageLive = Extract<LiveMessage, { type: 'event' }>;

export async function logPresence(tx: Tx, changes: PresenceChange[]): Promise<{ live: EventMessageLive[]; lastOrdinal: Map<string, number> }> {
  const live: EventMessageLive[] = [];
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
 * its online time up to `at` and writes OFFLINE with the reason to its run log. Nothing
 * happens (no second OFFLINE) when it is offline already, or when `session` is older than
 * the lift's current connection.
 */
export async function markOffline(tx: Tx, liftId: string, at: Date, session: number | null, reason: PresenceReason): Promise<LiveMessage[]> {
  const [lift] = await tx.query<{ online_since: Date | null }>(
    `select online_since from lifts where id = $1 and online and ($2::bigint is null or $2::bigint >= presence_session) for update`,
    [liftId, session],
  );
  if (!lift) return [];
  await tx.query('update lifts set online = false, online_since = null where id = $1', [liftId]);
  await addOnlineTime(tx, liftId, lift.online_since ? new Date(lift.online_since) : null, at);
  const { live } = await logPresence(tx, [{ liftId, reason, at }]);
  return [{ type: 'presence', liftId, online: false, ts: at.toISOString() }, ...live];
}

interface StoredEvent {
  id: number;
  liftId: string;
  seq: number;
  ts: string;
  code: string;
  floor: number | null;
  fault: boolean;
}

/**
 * Adds the batch's new run-log entries, numbered with their lift's next ordinals (the lifts
 * are locked, so two instances' batches number them in turn), in one multi-row insert.
 * A message stored before is skipped by (lift, seq, ts): the run log is partitioned by ts
 * and a redelivery carries its original ts (migration 0011). That is rare (a redelivery after a
 * lost acknowledgement), so the insert assumes there is none; when the database finds one,
 * the entries are taken back and numbered again without it, leaving no gap in the ordinals.
 * `next` holds each lift's last ordinal and is advanced.
 */
async function insertEvents(tx: Tx, events: Extract<UplinkMessage, { kind: 'event' }>[], next: Map<string, number>): Promise<StoredEvent[]> {
  // One entry per (lift, seq), in sequence order; the key is built once per message.
  const byKey = new Map<string, StoredEvent>();
  for (const { liftId, message } of events) {
    const key = `${liftId}|${message.seq}`;
    if (byKey.has(key)) continue;
    const ts = message.ts.length === 24 ? message.ts : new Date(message.ts).toISOString();
    byKey.set(key, { id: 0, liftId, seq: message.seq, ts, code: message.code, floor: message.floor ?? null, fault: isFault(message.code) });
  }
  let fresh = [...byKey.values()].sort((a, b) => a.seq - b.seq);
  const first = new Map(next);
  for (let attempt = 0; ; attempt++) {
    const ordinals = fresh.map((e) => {
      const n = next.get(e.liftId)! + 1;
      next.set(e.liftId, n);
      return n;
    });
    const rows = await tx.query<{ id: string; lift_id: string; seq: string }>(
      `insert into lift_events (lift_id, seq, n, ts, code, fault, floor)
       select * from unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::timestamptz[], $5::text[], $6::boolean[], $7::integer[])
       on conflict (lift_id, seq, ts) do nothing
       returning id, lift_id, seq`,
      [fresh.map((e) => e.liftId), fresh.map((e) => e.seq), ordinals, fresh.map((e) => e.ts), fresh.map((e) => e.code), fresh.map((e) => e.fault), fresh.map((e) => e.floor)],
    );
    for (const r of rows) byKey.get(`${r.lift_id}|${r.seq}`)!.id = Number(r.id);
    if (rows.length === fresh.length || attempt > 0) return fresh.filter((e) => e.id !== 0);
    // Some were stored before: take this insert back and number only the new ones.
    await tx.query(`delete from lift_events where id = any($1::bigint[])`, [rows.map((r) => r.id)]);
    fresh = fresh.filter((e) => e.id !== 0);
    for (const e of fresh) e.id = 0;
    for (const [liftId, n] of first) next.set(liftId, n);
  }
}

/**
 * Counts the new fault entries per lift (for `faults_total`) and adds them to the hourly
 * fault figures of the dashboard. Faults are rare: usually nothing to write.
 */
async function addFaults(tx: Tx, inserted: StoredEvent[], faultsByLift: Map<string, number>): Promise<void> {
  const buckets = new Map<string, { liftId: string; hour: string; code: string; n: number }>();
  for (const e of inserted) {
    if (!e.fault) continue;
    faultsByLift.set(e.liftId, (faultsByLift.get(e.liftId) ?? 0) + 1);
    const hour = `${e.ts.slice(0, 13)}:00:00.000Z`;
    const key = `${e.liftId}|${hour}|${e.code}`;
    const bucket = buckets.get(key) ?? { liftId: e.liftId, hour, code: e.code, n: 0 };
    bucket.n++;
    buckets.set(key, bucket);
  }
  if (!buckets.size) return;
  const rows = [...buckets.values()];
  await tx.query(
    `insert into fault_hourly_stats (scope, hour, code, faults)
     select s.scope, f.hour, f.code, sum(f.n) from unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::integer[]) as f(id, hour, code, n) join lifts l on l.id = f.id
       cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text), ('o:' || l.operator_org_id::text)) as s(scope)
      where s.scope is not null group by s.scope, f.hour, f.code
     on conflict (scope, hour, code) do update set faults = fault_hourly_stats.faults + excluded.faults`,
    [rows.map((r) => r.liftId), rows.map((r) => r.hour), rows.map((r) => r.code), rows.map((r) => r.n)],
  );
}

/**
 * Applies one batch in one transaction and returns what browsers should be told. Every
 * step is idempotent on (lift, seq): a message stored before changes nothing again.
 */
export async function storeBatch(tx: Tx, batch: UplinkMessage[]): Promise<LiveMessage[]> {
  const live: LiveMessage[] = [];
  const seenLifts = [...new Set(batch.map((m) => m.liftId))];
  // Lock the batch's lifts in one order first (two instances' batches then never deadlock);
  // their row is changed once, in one statement, after the run log (each extra update of a
  // lift row costs a new row version).
  const locked = await tx.query<{ id: string; events_total: string; online: boolean; presence_session: string }>(
    `select id, events_total, online, presence_session from lifts where id = any($1::uuid[]) order by id for update`,
    [seenLifts],
  );
  const eventsTotal = new Map(locked.map((r) => [r.id, Number(r.events_total)]));
  const tripsByLift = new Map<string, number>();
  // A lift that speaks is alive: one the silence sweep had marked offline comes back online
  // (unless it says so itself in this batch: its online message below brings it back, as
  // connected). Its ONLINE entry comes before what it said, and has the time `online_since` gets.
  const speaking = new Set(batch.filter((m) => m.kind !== 'presence' && m.kind !== 'disconnect').map((m) => m.liftId));
  const session = new Map(locked.map((r) => [r.id, Number(r.presence_session)]));
  const reconnecting = new Set(batch.filter((m) => m.kind === 'presence' && m.message.online && m.message.session >= session.get(m.liftId)!).map((m) => m.liftId));
  const revive = (r: { id: string; online: boolean }) => !r.online && speaking.has(r.id) && !reconnecting.has(r.id);
  const revived = locked.filter(revive).map((r) => r.id);
  if (revived.length) {
    const heard = await logPresence(tx, revived.map((liftId) => ({ liftId, reason: 'messageReceived', at: null })));
    for (const [liftId, n] of heard.lastOrdinal) eventsTotal.set(liftId, n);
    for (const e of heard.live) live.push({ type: 'presence', liftId: e.liftId, online: true, ts: e.ts }, e);
  }
  await clearAlerts(tx, revived, 'offline');

  const faultsByLift = new Map<string, number>();
  const events = batch.filter((m): m is Extract<UplinkMessage, { kind: 'event' }> => m.kind === 'event');
  if (events.length) {
    const inserted = await insertEvents(tx, events, eventsTotal);
    await addFaults(tx, inserted, faultsByLift);
    const trips = new Map<string, { liftId: string; day: string; n: number }>();
    for (const r of inserted) {
      live.push({ type: 'event', liftId: r.liftId, id: r.id, seq: r.seq, ts: r.ts, code: r.code, floor: r.floor, fault: r.fault });
      if (!TRIP_CODES.has(r.code)) continue;
      const key = `${r.liftId}|${r.ts.slice(0, 10)}`;
      const entry = trips.get(key) ?? { liftId: r.liftId, day: r.ts.slice(0, 10), n: 0 };
      entry.n++;
      trips.set(key, entry);
    }
    if (trips.size) {
      const rows = [...trips.values()];
      const params = [rows.map((t) => t.liftId), rows.map((t) => t.day), rows.map((t) => t.n)];
      await tx.query(
        `insert into lift_daily_stats (lift_id, day, trips) select * from unnest($1::uuid[], $2::date[], $3::integer[])
         on conflict (lift_id, day) do update set trips = lift_daily_stats.trips + excluded.trips`,
        params,
      );
      for (const t of rows) tripsByLift.set(t.liftId, (tripsByLift.get(t.liftId) ?? 0) + t.n);
      await tx.query(
        `insert into fleet_daily_stats (scope, day, trips)
         select s.scope, t.day, sum(t.n) from unnest($1::uuid[], $2::date[], $3::integer[]) as t(id, day, n) join lifts l on l.id = t.id
           cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text), ('o:' || l.operator_org_id::text)) as s(scope)
          where s.scope is not null group by s.scope, t.day
         on conflict (scope, day) do update set trips = fleet_daily_stats.trips + excluded.trips`,
        params,
      );
    }
  }

  // Every lift of the batch in one update: seen now, back online if it spoke, its run-log
  // ordinal and trip counts.
  await tx.query(
    `update lifts l set last_seen_at = now(), events_total = v.n, trips_total = l.trips_total + v.t, trips_30d = l.trips_30d + v.t,
            faults_total = l.faults_total + v.f, online = l.online or v.revive, online_since = case when v.revive then now() else l.online_since end
       from unnest($1::uuid[], $2::bigint[], $3::integer[], $4::boolean[], $5::integer[]) as v(id, n, t, revive, f) where l.id = v.id`,
    [
      locked.map((r) => r.id),
      locked.map((r) => eventsTotal.get(r.id)!),
      locked.map((r) => tripsByLift.get(r.id) ?? 0),
      locked.map(revive),
      locked.map((r) => faultsByLift.get(r.id) ?? 0),
    ],
  );

  for (const e of live.filter((m): m is Extract<LiveMessage, { type: 'event' }> => m.type === 'event' && m.fault)) {
    const alert = await raiseAlert(tx, e.liftId, 'fault', e.code);
    if (alert) live.push(alert);
  }

  // Status: the newest snapshot per lift wins, and only if newer than what is stored.
  const latest = new Map<string, StatusMessage>();
  for (const m of batch) if (m.kind === 'status' && (latest.get(m.liftId)?.seq ?? 0) < m.message.seq) latest.set(m.liftId, m.message);
  if (latest.size) {
    const ids = [...latest.keys()];
    const msgs = [...latest.values()];
    const updated = await tx.query<{ id: string; was_help: boolean; help: boolean }>(
      `with v as (select * from unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::jsonb[]) as v(id, seq, ts, status)),
            prev as (select l.id, l.help_signal from lifts l join v on v.id = l.id for update of l)
       update lifts l set status = v.status, status_seq = v.seq, status_at = v.ts, mode = v.status->>'mode',
              floor = (v.status->>'floor')::integer, active_fault = v.status->'faults'->>0,
              help_signal = (v.status->'platform'->>'helpSignal')::boolean, voltage = (v.status->'platform'->>'voltage')::real
         from v, prev where l.id = v.id and prev.id = l.id and l.status_seq < v.seq
       returning l.id, prev.help_signal as was_help, l.help_signal as help`,
      [ids, msgs.map((m) => m.seq), msgs.map((m) => m.ts), msgs.map((m) => JSON.stringify(m.status))],
    );
    const fresh = new Set(updated.map((u) => u.id));
    for (const u of updated.filter((u) => u.help && !u.was_help)) {
      const alert = await raiseAlert(tx, u.id, 'help', null);
      if (alert) live.push(alert);
    }
    await clearAlerts(tx, updated.filter((u) => !u.help && u.was_help).map((u) => u.id), 'help');
    const sampled = ids.filter((id) => fresh.has(id));
    if (sampled.length) {
      await tx.query(
        `insert into lift_samples (lift_id, ts, voltage, load_value)
         select * from unnest($1::uuid[], $2::timestamptz[], $3::real[], $4::real[]) on conflict do nothing`,
        [sampled, sampled.map((id) => new Date(Math.floor(new Date(latest.get(id)!.ts).getTime() / 60_000) * 60_000)), sampled.map((id) => latest.get(id)!.status.platform.voltage), sampled.map((id) => latest.get(id)!.status.platform.loadValue)],
      );
    }
    for (const id of sampled) {
      const m = latest.get(id)!;
      live.push({ type: 'status', liftId: id, seq: m.seq, ts: m.ts, status: m.status });
    }
  }

  // Presence: ordered by connection session, the online message before its will.
  const presence = batch
    .filter((m): m is Extract<UplinkMessage, { kind: 'presence' | 'disconnect' }> => m.kind === 'presence' || m.kind === 'disconnect')
    .sort((a, b) => (a.kind === 'presence' ? a.message.session : Infinity) - (b.kind === 'presence' ? b.message.session : Infinity) || (a.kind === 'presence' && a.message.online ? -1 : 1));
  // A lift with a single online message in the batch (the usual case, and all of a fleet
  // reconnecting at once) is set online in one statement for all of them.
  const presenceCount = new Map<string, number>();
  for (const p of presence) presenceCount.set(p.liftId, (presenceCount.get(p.liftId) ?? 0) + 1);
  const simpleOnline = presence.filter((p): p is Extract<UplinkMessage, { kind: 'presence' }> => p.kind === 'presence' && p.message.online && presenceCount.get(p.liftId) === 1);
  if (simpleOnline.length) {
    // `before` is the row as it was: only a lift that was offline makes an ONLINE entry (a new
    // session of a lift still online, its old connection's will not in yet, is no transition).
    const rows = await tx.query<{ id: string; was_online: boolean }>(
      `update lifts l set online = true, presence_session = v.session, online_since = case when l.online then l.online_since else v.ts end,
              firmware = coalesce(v.firmware, l.firmware)
         from unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::text[]) as v(id, session, ts, firmware), lifts before
        where l.id = v.id and before.id = l.id and l.presence_session <= v.session and not (l.online and l.presence_session = v.session)
        returning l.id, before.online as was_online`,
      [simpleOnline.map((p) => p.liftId), simpleOnline.map((p) => p.message.session), simpleOnline.map((p) => p.message.ts), simpleOnline.map((p) => p.message.firmware ?? null)],
    );
    const changed = new Set(rows.map((r) => r.id));
    const cameOnline = new Set(rows.filter((r) => !r.was_online).map((r) => r.id));
    for (const p of simpleOnline) if (changed.has(p.liftId)) live.push({ type: 'presence', liftId: p.liftId, online: true, ts: p.message.ts });
    const logged = await logPresence(tx, simpleOnline.filter((p) => cameOnline.has(p.liftId)).map((p) => ({ liftId: p.liftId, reason: 'connected', at: p.message.ts })));
    live.push(...logged.live);
    if (changed.size) await clearAlerts(tx, [...changed], 'offline');
  }
  const handled = new Set<UplinkMessage>(simpleOnline);
  for (const p of presence) {
    if (handled.has(p)) continue;
    if (p.kind === 'disconnect') {
      // The embedded broker saw the connection close while the lift was still online: it
      // did not say goodbye first.
      live.push(...(await markOffline(tx, p.liftId, p.at, null, 'connectionLost')));
    } else if (p.message.online) {
      const rows = await tx.query<{ was_online: boolean }>(
        `update lifts l set online = true, presence_session = $2, online_since = case when l.online then l.online_since else $3::timestamptz end,
                firmware = coalesce($4, l.firmware)
           from lifts before
          where l.id = $1 and before.id = l.id and l.presence_session <= $2 and not (l.online and l.presence_session = $2) returning before.online as was_online`,
        [p.liftId, p.message.session, p.message.ts, p.message.firmware ?? null],
      );
      if (rows.length) {
        live.push({ type: 'presence', liftId: p.liftId, online: true, ts: p.message.ts });
        if (!rows[0]!.was_online) live.push(...(await logPresence(tx, [{ liftId: p.liftId, reason: 'connected', at: p.message.ts }])).live);
        await clearAlerts(tx, [p.liftId], 'offline');
      }
    } else {
      // A will carries the time its connection opened; the lift went offline when it arrived.
      // The will's seq is its session (docs/protocol.md 4.3); a goodbye has a newer seq.
      const reason = p.message.seq === p.message.session ? 'connectionLost' : 'cleanDisconnect';
      live.push(...(await markOffline(tx, p.liftId, new Date(), p.message.session, reason)));
    }
  }

  // Configuration reports: the lift's configuration is the truth; a new version is logged.
  for (const m of batch) {
    if (m.kind !== 'config/report') continue;
    const [before] = await tx.query<{ config: Record<string, unknown> | null; config_version: number }>(
      `select config, config_version from lifts where id = $1 and config_seq < $2 for update`,
      [m.liftId, m.message.seq],
    );
    if (!before) continue;
    await tx.query(`update lifts set config = $2::jsonb, config_version = $3, config_seq = $4, config_at = $5 where id = $1`, [
      m.liftId,
      JSON.stringify(m.message.config),
      m.message.version,
      m.message.seq,
      m.message.ts,
    ]);
    if (before.config_version !== m.message.version) {
      const [cmd] = m.message.commandId
        ? await tx.query<{ user_id: string | null; username: string | null; kind: string }>(`select user_id, username, kind from lift_commands where id = $1 and lift_id = $2`, [m.message.commandId, m.liftId])
        : [];
      await tx.query(
        `insert into lift_config_log (lift_id, ts, user_id, username, source, command_id, version, before, after, result)
         values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, 'applied')`,
        [m.liftId, m.message.ts, cmd?.user_id ?? null, cmd?.username ?? null, cmd?.kind === 'config/set' ? 'cloud' : 'device', m.message.commandId ?? null, m.message.version, JSON.stringify(before.config), JSON.stringify(m.message.config)],
      );
    }
    live.push({ type: 'config', liftId: m.liftId, version: m.message.version });
  }

  // Command answers: forward-only state changes of the lift's own commands. A lift's
  // 'accepted' and 'done' often arrive in one batch: only the furthest answer per command
  // is written (the earlier one would be overwritten in the same transaction anyway).
  const answers = new Map<string, Extract<UplinkMessage, { kind: 'cmd/ack' }>>();
  for (const m of batch) {
    if (m.kind !== 'cmd/ack') continue;
    const key = `${m.liftId}|${m.message.commandId}`;
    const before = answers.get(key);
    if (!before || (before.message.state === 'accepted' && m.message.state !== 'accepted')) answers.set(key, m);
  }
  for (const m of answers.values()) {
    const [row] = await tx.query<{ name: string; state: CommandState; reason: RefusalReason | null }>(
      `update lift_commands set state = $3, reason = $4, issues = $5::jsonb, updated_at = now()
        where id = $1 and lift_id = $2 and state = any($6::text[]) returning name, state, reason`,
      [m.message.commandId, m.liftId, m.message.state, m.message.reason ?? null, m.message.issues ? JSON.stringify(m.message.issues) : null, NEXT_STATES[m.message.state]],
    );
    if (row) live.push({ type: 'command', liftId: m.liftId, commandId: m.message.commandId, name: row.name, state: row.state, reason: row.reason });
  }
  return live;
}
