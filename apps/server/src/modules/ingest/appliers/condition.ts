import type { StatusMessage } from '@liftlink/protocol';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * The condition score's inputs (docs/condition.md), kept per lift and UTC day as statuses and
 * run-log entries arrive, so the score job never reads the run log. From the statuses, in
 * sequence order: trips (movement leaving `stop` at a floor until it stands at a floor again:
 * duration per floor pair, and the voltage sag from the last voltage at rest to the lowest
 * during the trip), the check value against the charge value at a charging node, completed
 * charges (charging on until the battery is full, the lift standing), and overloaded,
 * flap-not-in-place and pedal anti-collision switching on. From the new run-log entries: faults
 * by code. What a lift was doing between batches is kept in `lift_condition_state`; a status
 * not newer than the last one applied changes nothing (a redelivery).
 */

/** A trip longer than this (a lift paused, offline or held) says nothing about its drive. */
const MAX_TRIP_MS = 10 * 60_000;
/** Likewise a charge longer than this (a status missed while charging). */
const MAX_CHARGE_MS = 24 * 3_600_000;

interface State {
  lift_id: string;
  status_seq: number;
  first_day: string | null;
  rest_voltage: number | null;
  rest_floor: number | null;
  trip_from: number | null;
  trip_started_at: Date | null;
  trip_rest_voltage: number | null;
  trip_min_voltage: number | null;
  charging_since: Date | null;
  position: number | null;
  overloaded: boolean;
  flap: boolean;
  pedal: boolean;
}

interface Daily {
  liftId: string;
  day: string;
  chargeRatioSum: number;
  chargeRatioN: number;
  chargeSecondsSum: number;
  chargeN: number;
  sagSum: number;
  sagN: number;
  trips: number;
  overloads: number;
  flap: number;
  pedal: number;
  faults: number;
}

interface FaultEntry {
  liftId: string;
  ts: string;
  code: string;
  fault: boolean;
}

const freshState = (liftId: string): State => ({
  lift_id: liftId,
  status_seq: 0,
  first_day: null,
  rest_voltage: null,
  rest_floor: null,
  trip_from: null,
  trip_started_at: null,
  trip_rest_voltage: null,
  trip_min_voltage: null,
  charging_since: null,
  position: null,
  overloaded: false,
  flap: false,
  pedal: false,
});

class Figures {
  readonly daily = new Map<string, Daily>();
  readonly travel = new Map<string, { liftId: string; day: string; from: number; to: number; trips: number; seconds: number }>();
  readonly faults = new Map<string, { liftId: string; day: string; code: string; n: number }>();

  day(liftId: string, ts: string): Daily {
    const day = ts.slice(0, 10);
    const key = `${liftId}|${day}`;
    let d = this.daily.get(key);
    if (!d) {
      d = { liftId, day, chargeRatioSum: 0, chargeRatioN: 0, chargeSecondsSum: 0, chargeN: 0, sagSum: 0, sagN: 0, trips: 0, overloads: 0, flap: 0, pedal: 0, faults: 0 };
      this.daily.set(key, d);
    }
    return d;
  }

  trip(liftId: string, ts: string, from: number, to: number, seconds: number): void {
    const day = ts.slice(0, 10);
    const key = `${liftId}|${day}|${from}|${to}`;
    const t = this.travel.get(key) ?? { liftId, day, from, to, trips: 0, seconds: 0 };
    t.trips++;
    t.seconds += seconds;
    this.travel.set(key, t);
    this.day(liftId, ts).trips++;
  }

  fault(e: FaultEntry): void {
    const day = e.ts.slice(0, 10);
    const key = `${e.liftId}|${day}|${e.code}`;
    const f = this.faults.get(key) ?? { liftId: e.liftId, day, code: e.code, n: 0 };
    f.n++;
    this.faults.set(key, f);
    this.day(e.liftId, e.ts).faults++;
  }
}

/** One status of a lift, in sequence order, against what the lift was doing. */
function follow(state: State, message: StatusMessage, figures: Figures): void {
  const { status, ts } = message;
  const p = status.platform;
  const at = new Date(ts);
  const stands = p.movement === 'stop';
  const d = () => figures.day(state.lift_id, ts);

  if (!stands) {
    if (state.trip_started_at === null) {
      // a trip starts: from the floor it stood at (unknown after a pause between floors)
      state.trip_started_at = at;
      state.trip_from = status.floor ?? state.rest_floor;
      state.trip_rest_voltage = state.rest_voltage;
      state.trip_min_voltage = p.voltage;
    } else state.trip_min_voltage = Math.min(state.trip_min_voltage ?? p.voltage, p.voltage);
  } else if (state.trip_started_at !== null) {
    const ms = at.getTime() - state.trip_started_at.getTime();
    if (status.floor !== null && state.trip_from !== null && status.floor !== state.trip_from && ms > 0 && ms <= MAX_TRIP_MS) {
      figures.trip(state.lift_id, ts, state.trip_from, status.floor, ms / 1000);
      if (state.trip_rest_voltage !== null && state.trip_min_voltage !== null) {
        d().sagSum += state.trip_rest_voltage - state.trip_min_voltage;
        d().sagN++;
      }
    }
    state.trip_started_at = null;
    state.trip_from = null;
    state.trip_rest_voltage = null;
    state.trip_min_voltage = null;
  }
  if (stands) {
    state.rest_voltage = p.voltage;
    state.rest_floor = status.floor;
  }

  if (p.chargeValue.real > 0) {
    d().chargeRatioSum += p.chargeValue.check / p.chargeValue.real;
    d().chargeRatioN++;
  }
  if (p.charging && state.charging_since === null) state.charging_since = at;
  else if (!p.charging && state.charging_since !== null) {
    // a charge that ended with the lift standing where it charged: the battery is full
    const ms = at.getTime() - state.charging_since.getTime();
    if (stands && state.trip_started_at === null && p.position === state.position && ms > 0 && ms <= MAX_CHARGE_MS) {
      d().chargeSecondsSum += ms / 1000;
      d().chargeN++;
    }
    state.charging_since = null;
  }
  state.position = p.position;

  if (p.overloaded && !state.overloaded) d().overloads++;
  if (status.platformIo.flapNotInPlace && !state.flap) d().flap++;
  if (status.platformIo.pedalAntiCollision && !state.pedal) d().pedal++;
  state.overloaded = p.overloaded;
  state.flap = status.platformIo.flapNotInPlace;
  state.pedal = status.platformIo.pedalAntiCollision;
  state.status_seq = message.seq;
  if (state.first_day === null || ts.slice(0, 10) < state.first_day) state.first_day = ts.slice(0, 10);
}

/** Applies the batch's statuses and new run-log entries to the lifts' condition figures. */
export async function applyCondition(tx: Tx, statuses: UplinkOf<'status'>[], stored: readonly FaultEntry[]): Promise<void> {
  const figures = new Figures();
  for (const e of stored) if (e.fault) figures.fault(e);
  const byLift = new Map<string, StatusMessage[]>();
  for (const m of statuses) {
    const list = byLift.get(m.liftId) ?? [];
    list.push(m.message);
    byLift.set(m.liftId, list);
  }
  const states: State[] = [];
  if (byLift.size) {
    const ids = [...byLift.keys()];
    const rows = await tx.query<State>(`select lift_id, status_seq, to_char(first_day, 'YYYY-MM-DD') as first_day, rest_voltage, rest_floor, trip_from, trip_started_at, trip_rest_voltage,
              trip_min_voltage, charging_since, position, overloaded, flap, pedal
         from lift_condition_state where lift_id = any($1::uuid[]) for update`, [ids]);
    const known = new Map(rows.map((r) => [r.lift_id, { ...r, status_seq: Number(r.status_seq) }]));
    for (const [liftId, messages] of byLift) {
      const state = known.get(liftId) ?? freshState(liftId);
      const before = state.status_seq;
      for (const m of messages.sort((a, b) => a.seq - b.seq)) if (m.seq > state.status_seq) follow(state, m, figures);
      if (state.status_seq !== before) states.push(state);
    }
  }
  await writeFigures(tx, figures);
  if (states.length) await saveStates(tx, states);
}

async function writeFigures(tx: Tx, f: Figures): Promise<void> {
  const daily = [...f.daily.values()];
  if (daily.length) {
    const col = <K extends keyof Daily>(k: K) => daily.map((d) => d[k]);
    await tx.query(
      `insert into lift_condition_daily (lift_id, day, charge_ratio_sum, charge_ratio_n, charge_seconds_sum, charge_n, sag_sum, sag_n, trips, overloads, flap_anomalies, pedal_anomalies, faults)
       select * from unnest($1::uuid[], $2::date[], $3::float8[], $4::int[], $5::float8[], $6::int[], $7::float8[], $8::int[], $9::int[], $10::int[], $11::int[], $12::int[], $13::int[])
       on conflict (lift_id, day) do update set
         charge_ratio_sum = lift_condition_daily.charge_ratio_sum + excluded.charge_ratio_sum, charge_ratio_n = lift_condition_daily.charge_ratio_n + excluded.charge_ratio_n,
         charge_seconds_sum = lift_condition_daily.charge_seconds_sum + excluded.charge_seconds_sum, charge_n = lift_condition_daily.charge_n + excluded.charge_n,
         sag_sum = lift_condition_daily.sag_sum + excluded.sag_sum, sag_n = lift_condition_daily.sag_n + excluded.sag_n,
         trips = lift_condition_daily.trips + excluded.trips, overloads = lift_condition_daily.overloads + excluded.overloads,
         flap_anomalies = lift_condition_daily.flap_anomalies + excluded.flap_anomalies, pedal_anomalies = lift_condition_daily.pedal_anomalies + excluded.pedal_anomalies,
         faults = lift_condition_daily.faults + excluded.faults`,
      [col('liftId'), col('day'), col('chargeRatioSum'), col('chargeRatioN'), col('chargeSecondsSum'), col('chargeN'), col('sagSum'), col('sagN'), col('trips'), col('overloads'), col('flap'), col('pedal'), col('faults')],
    );
  }
  const travel = [...f.travel.values()];
  if (travel.length) {
    await tx.query(
      `insert into lift_condition_travel (lift_id, day, from_floor, to_floor, trips, seconds_sum)
       select * from unnest($1::uuid[], $2::date[], $3::smallint[], $4::smallint[], $5::int[], $6::float8[])
       on conflict (lift_id, day, from_floor, to_floor) do update set
         trips = lift_condition_travel.trips + excluded.trips, seconds_sum = lift_condition_travel.seconds_sum + excluded.seconds_sum`,
      [travel.map((t) => t.liftId), travel.map((t) => t.day), travel.map((t) => t.from), travel.map((t) => t.to), travel.map((t) => t.trips), travel.map((t) => t.seconds)],
    );
  }
  const faults = [...f.faults.values()];
  if (faults.length) {
    await tx.query(
      `insert into lift_condition_faults (lift_id, day, code, n) select * from unnest($1::uuid[], $2::date[], $3::text[], $4::int[])
       on conflict (lift_id, day, code) do update set n = lift_condition_faults.n + excluded.n`,
      [faults.map((x) => x.liftId), faults.map((x) => x.day), faults.map((x) => x.code), faults.map((x) => x.n)],
    );
  }
}

async function saveStates(tx: Tx, states: State[]): Promise<void> {
  const col = <K extends keyof State>(k: K) => states.map((s) => s[k]);
  await tx.query(
    `insert into lift_condition_state (lift_id, status_seq, first_day, rest_voltage, rest_floor, trip_from, trip_started_at, trip_rest_voltage, trip_min_voltage, charging_since, position, overloaded, flap, pedal)
     select * from unnest($1::uuid[], $2::bigint[], $3::date[], $4::real[], $5::smallint[], $6::smallint[], $7::timestamptz[], $8::real[], $9::real[], $10::timestamptz[], $11::int[], $12::boolean[], $13::boolean[], $14::boolean[])
     on conflict (lift_id) do update set status_seq = excluded.status_seq, first_day = excluded.first_day, rest_voltage = excluded.rest_voltage, rest_floor = excluded.rest_floor, trip_from = excluded.trip_from,
       trip_started_at = excluded.trip_started_at, trip_rest_voltage = excluded.trip_rest_voltage, trip_min_voltage = excluded.trip_min_voltage,
       charging_since = excluded.charging_since, position = excluded.position, overloaded = excluded.overloaded, flap = excluded.flap, pedal = excluded.pedal`,
    [col('lift_id'), col('status_seq'), col('first_day'), col('rest_voltage'), col('rest_floor'), col('trip_from'), col('trip_started_at'), col('trip_rest_voltage'), col('trip_min_voltage'), col('charging_since'), col('position'), col('overloaded'), col('flap'), col('pedal')],
  );
}
