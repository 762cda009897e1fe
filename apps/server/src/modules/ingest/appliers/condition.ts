import type { StatusMessage } from '@liftlink/protocol';
import type { BatchLifts } from './lift-rows.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * The condition score's inputs (docs/condition.md), kept per lift and UTC day as statuses and
 * run-log entries arrive, so the score job never reads the run log. From the statuses, in
 * sequence order: trips (movement leaving `stop` at a floor until it stands at a floor again:
 * duration per floor pair, and the voltage sag from the last voltage at rest to the lowest
 * during the trip), the check value against the charge value at a charging node, completed
 * charges (charging on until the battery is full, the lift standing), and overloaded,
 * flap-not-in-place and pedal anti-collision switching on. From the new run-log entries: faults
 * by code. What a lift was doing between batches is kept in its row (`ConditionState`); a status
 * not newer than the lift's stored status changes nothing (a redelivery).
 */

/** A trip longer than this (a lift paused, offline or held) says nothing about its drive. */
const MAX_TRIP_MS = 10 * 60_000;
/** Likewise a charge longer than this (a status missed while charging). */
const MAX_CHARGE_MS = 24 * 3_600_000;

/**
 * What a lift was doing after its last status applied, kept in its row (`lifts.condition_state`,
 * written by the batch's one update of the row, lift-rows.ts). Times are ISO strings, as JSON
 * keeps them. The last status applied is the row's `status_seq`, which the same update moves.
 */
export interface ConditionState {
  /** The first day with a status (UTC): the lift's baseline weeks start here. */
  first_day: string | null;
  rest_voltage: number | null;
  rest_floor: number | null;
  trip_from: number | null;
  trip_started_at: string | null;
  trip_rest_voltage: number | null;
  trip_min_voltage: number | null;
  charging_since: string | null;
  /** The minute (since the epoch) of the last charge-ratio sample. */
  charge_sampled_minute: number | null;
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

/** A lift without a state yet, or one stored before a key was added: every key present. */
const withDefaults = (stored: Partial<ConditionState> | null): ConditionState => ({
  first_day: null,
  rest_voltage: null,
  rest_floor: null,
  trip_from: null,
  trip_started_at: null,
  trip_rest_voltage: null,
  trip_min_voltage: null,
  charging_since: null,
  charge_sampled_minute: null,
  position: null,
  overloaded: false,
  flap: false,
  pedal: false,
  ...stored,
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

/**
 * One status of a lift, in sequence order, against what the lift was doing. The charge ratio
 * is sampled once a minute, from the minute's first status at a charging node: a lift
 * reporting every 5 s would otherwise weigh twelve times as much as one reporting every
 * minute, and write its figures of the day with every report.
 */
function follow(liftId: string, state: ConditionState, message: StatusMessage, figures: Figures): void {
  const { status, ts } = message;
  const p = status.platform;
  const at = Date.parse(ts);
  const stands = p.movement === 'stop';
  const d = () => figures.day(liftId, ts);

  if (!stands) {
    if (state.trip_started_at === null) {
      // a trip starts: from the floor it stood at (unknown after a pause between floors)
      state.trip_started_at = ts;
      state.trip_from = status.floor ?? state.rest_floor;
      state.trip_rest_voltage = state.rest_voltage;
      state.trip_min_voltage = p.voltage;
    } else state.trip_min_voltage = Math.min(state.trip_min_voltage ?? p.voltage, p.voltage);
  } else if (state.trip_started_at !== null) {
    const ms = at - Date.parse(state.trip_started_at);
    if (status.floor !== null && state.trip_from !== null && status.floor !== state.trip_from && ms > 0 && ms <= MAX_TRIP_MS) {
      figures.trip(liftId, ts, state.trip_from, status.floor, ms / 1000);
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

  const minute = Math.floor(at / 60_000);
  if (p.chargeValue.real > 0 && minute !== state.charge_sampled_minute) {
    d().chargeRatioSum += p.chargeValue.check / p.chargeValue.real;
    d().chargeRatioN++;
    state.charge_sampled_minute = minute;
  }
  if (p.charging && state.charging_since === null) state.charging_since = ts;
  else if (!p.charging && state.charging_since !== null) {
    // a charge that ended with the lift standing where it charged: the battery is full
    const ms = at - Date.parse(state.charging_since);
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
  if (state.first_day === null || ts.slice(0, 10) < state.first_day) state.first_day = ts.slice(0, 10);
}

/** What a batch adds to the condition figures, to be written once the lift rows are. */
export type ConditionFigures = Figures;

/**
 * Follows the batch's statuses newer than each lift's stored status, in sequence order, from
 * the state read with the locked row. A state the statuses changed goes into
 * `lifts.conditions`, for the row's one update; one they left as it was (a lift standing still
 * and repeating itself, as most do) is not written again. Run before `updateLiftRows`, which
 * moves the stored status past them.
 */
export function followCondition(lifts: BatchLifts, statuses: UplinkOf<'status'>[], stored: readonly FaultEntry[]): ConditionFigures {
  const figures = new Figures();
  for (const e of stored) if (e.fault) figures.fault(e);
  const byLift = new Map<string, StatusMessage[]>();
  for (const m of statuses) {
    const list = byLift.get(m.liftId) ?? [];
    list.push(m.message);
    byLift.set(m.liftId, list);
  }
  for (const row of lifts.locked) {
    const messages = byLift.get(row.id);
    if (!messages) continue;
    const state = withDefaults(row.condition_state);
    const before = JSON.stringify(state);
    const storedSeq = row.status_seq;
    for (const m of messages.sort((a, b) => a.seq - b.seq)) if (m.seq > storedSeq) follow(row.id, state, m, figures);
    const after = JSON.stringify(state);
    if (after !== before) lifts.conditions.set(row.id, after);
  }
  return figures;
}

/** The batch's figures of the day, of the floor pairs travelled and of the faults, added to the stored ones. */
export async function writeConditionFigures(tx: Tx, f: ConditionFigures): Promise<void> {
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
