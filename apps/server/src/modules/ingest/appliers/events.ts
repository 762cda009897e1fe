import { LOCAL_SETTLE_MS, isFault, isLocalControlCode, type LiveChange } from '@liftlink/protocol';
import { raiseAlert } from '../../alerts/repository.ts';
import { endLeasesOnLocalUse } from '../../control/local-use.ts';
import type { BatchLifts } from './lift-rows.ts';
import type { Tx, UplinkOf } from './uplink.ts';

const TRIP_CODES = new Set(['RZGU', 'RZGD']);

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
async function insertEvents(tx: Tx, events: UplinkOf<'event'>[], next: Map<string, number>): Promise<StoredEvent[]> {
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

/** Counts the new trips (arrivals at a floor) per lift and day, and adds them to the lift's and the fleet's daily figures and the lift's month (availability). */
async function addTrips(tx: Tx, inserted: StoredEvent[], tripsByLift: Map<string, number>): Promise<void> {
  const trips = new Map<string, { liftId: string; day: string; n: number }>();
  for (const r of inserted) {
    if (!TRIP_CODES.has(r.code)) continue;
    const key = `${r.liftId}|${r.ts.slice(0, 10)}`;
    const entry = trips.get(key) ?? { liftId: r.liftId, day: r.ts.slice(0, 10), n: 0 };
    entry.n++;
    trips.set(key, entry);
  }
  if (!trips.size) return;
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
  await tx.query(
    `insert into lift_availability_monthly as m (lift_id, month, trips)
     select id, date_trunc('month', day::timestamp)::date, sum(n) from unnest($1::uuid[], $2::date[], $3::integer[]) as t(id, day, n) group by 1, 2
     on conflict (lift_id, month) do update set trips = m.trips + excluded.trips`,
    params,
  );
}

/**
 * Run-log entries: the new ones are stored and numbered, counted as faults and trips (the
 * lift's counts go into `lifts`), and told to browsers. Returns what was stored.
 */
export async function applyEvents(tx: Tx, events: UplinkOf<'event'>[], lifts: BatchLifts, live: LiveChange[]): Promise<StoredEvent[]> {
  if (!events.length) return [];
  const inserted = await insertEvents(tx, events, lifts.eventsTotal);
  await addFaults(tx, inserted, lifts.faults);
  for (const r of inserted) live.push({ type: 'event', liftId: r.liftId, id: r.id, seq: r.seq, ts: r.ts, code: r.code, floor: r.floor, fault: r.fault });
  await addTrips(tx, inserted, lifts.trips);
  await applyLocalUse(tx, inserted, live);
  return inserted;
}

/**
 * Local use of a lift (a call or button on site, the keypad, maintenance mode) ends its remote
 * lease and pauses remote control (docs/remote-control.md, "Local controls win"): all
 * lifts of the batch in one go. Usually there is none.
 */
async function applyLocalUse(tx: Tx, inserted: StoredEvent[], live: LiveChange[]): Promise<void> {
  const uses = inserted.filter((e) => isLocalControlCode(e.code)).map((e) => ({ liftId: e.liftId, ts: e.ts }));
  if (uses.length) live.push(...(await endLeasesOnLocalUse(tx, uses, LOCAL_SETTLE_MS)));
}

/** Each new fault entry raises a fault alert (unless the same one is open), or attaches to the lift's incident for it. */
export async function raiseFaultAlerts(tx: Tx, inserted: StoredEvent[], live: LiveChange[]): Promise<void> {
  for (const e of inserted) {
    if (!e.fault) continue;
    const alert = await raiseAlert(tx, e.liftId, 'fault', e.code, undefined, live);
    if (alert) live.push(alert);
  }
}
