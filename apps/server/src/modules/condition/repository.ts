import { CONDITION_BASELINE_DAYS, CONDITION_HISTORY_DAYS, CONDITION_MEASURE_DAYS, CONDITION_PROPOSAL, type ConditionFactor, type DeviceKind } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { Figures, LiftInputs } from './score.ts';

/**
 * The condition tables (migration 0028): the daily figures ingest keeps, read per span, and
 * the daily scores the job writes. `today` is a UTC date, 'YYYY-MM-DD'.
 */

interface SpanRow {
  lift_id: string;
  days: string;
  ratio_sum: number;
  ratio_n: string;
  charge_sum: number;
  charge_n: string;
  sag_sum: number;
  sag_n: string;
  trips: string;
  overloads: string;
  flap_pedal: string;
  faults: string;
}

/** The spans: the measuring window (the last CONDITION_MEASURE_DAYS days) and each lift's baseline weeks (from its first status, the `first_day` of `lifts.condition_state`), once they lie before it. */
const SPANS = `
  firsts as (select id as lift_id, (condition_state->>'first_day')::date as first_day from lifts where condition_state->>'first_day' is not null and id = any($2::uuid[])),
  spans as (
    select l.id as lift_id, 'm' as span, $1::date - ${CONDITION_MEASURE_DAYS - 1} as lo, $1::date as hi from lifts l where l.id = any($2::uuid[])
    union all
    select f.lift_id, 'b', f.first_day, f.first_day + ${CONDITION_BASELINE_DAYS - 1} from firsts f
     where f.first_day + ${CONDITION_BASELINE_DAYS - 1} < $1::date - ${CONDITION_MEASURE_DAYS - 1}
  )`;

const emptyFigures = (days: number): Figures => ({ days, chargeRatio: null, chargeSeconds: null, sag: null, trips: 0, overloads: 0, flapPedal: 0, faults: 0, topFault: null, travel: [] });

/** The ids of every lift, in one order: the condition job scores them a chunk at a time. */
export async function allLiftIds(sql: SqlExecutor): Promise<string[]> {
  return (await sql.query<{ id: string }>(`select id from lifts order by id`)).map((r) => r.id);
}

/** The inputs of lifts `ids` for the score of `today`. */
export async function conditionInputs(sql: SqlExecutor, today: string, ids: string[]): Promise<Map<string, LiftInputs>> {
  const lifts = await sql.query<{ id: string; charge_ratio: number | null; alarm_hours: number; alarm_failed: string[] | null }>(
    `select l.id, (l.config->>'chargeRatio')::real as charge_ratio,
            extract(epoch from (now() - coalesce(l.alarm_last_passed_at, l.alarm_watch_from))) / 3600 as alarm_hours,
            case when l.alarm_test_result = 'failed' then l.alarm_test_failed end as alarm_failed
       from lifts l where l.id = any($1::uuid[])`,
    [ids],
  );
  const spans = await sql.query<SpanRow & { span: 'm' | 'b' }>(
    `with ${SPANS}
     select s.lift_id, s.span, count(d.day) as days,
            coalesce(sum(d.charge_ratio_sum), 0) as ratio_sum, coalesce(sum(d.charge_ratio_n), 0) as ratio_n,
            coalesce(sum(d.charge_seconds_sum), 0) as charge_sum, coalesce(sum(d.charge_n), 0) as charge_n,
            coalesce(sum(d.sag_sum), 0) as sag_sum, coalesce(sum(d.sag_n), 0) as sag_n,
            coalesce(sum(d.trips), 0) as trips, coalesce(sum(d.overloads), 0) as overloads,
            coalesce(sum(d.flap_anomalies + d.pedal_anomalies), 0) as flap_pedal, coalesce(sum(d.faults), 0) as faults
       from spans s left join lift_condition_daily d on d.lift_id = s.lift_id and d.day between s.lo and s.hi
      group by s.lift_id, s.span`,
    [today, ids],
  );
  const travel = await sql.query<{ lift_id: string; span: 'm' | 'b'; from_floor: number; to_floor: number; trips: string; seconds: number }>(
    `with ${SPANS}
     select s.lift_id, s.span, t.from_floor, t.to_floor, sum(t.trips) as trips, sum(t.seconds_sum) / sum(t.trips) as seconds
       from spans s join lift_condition_travel t on t.lift_id = s.lift_id and t.day between s.lo and s.hi
      group by s.lift_id, s.span, t.from_floor, t.to_floor`,
    [today, ids],
  );
  const topFaults = await sql.query<{ lift_id: string; code: string }>(
    `select distinct on (lift_id) lift_id, code from lift_condition_faults
      where day between $1::date - ${CONDITION_MEASURE_DAYS - 1} and $1::date and lift_id = any($2::uuid[]) group by lift_id, code order by lift_id, sum(n) desc, code`,
    [today, ids],
  );

  const figures = new Map<string, Figures>();
  for (const r of spans) {
    const n = (x: string) => Number(x);
    figures.set(`${r.lift_id}|${r.span}`, {
      days: n(r.days),
      chargeRatio: n(r.ratio_n) > 0 ? r.ratio_sum / n(r.ratio_n) : null,
      chargeSeconds: n(r.charge_n) > 0 ? r.charge_sum / n(r.charge_n) : null,
      sag: n(r.sag_n) > 0 ? r.sag_sum / n(r.sag_n) : null,
      trips: n(r.trips),
      overloads: n(r.overloads),
      flapPedal: n(r.flap_pedal),
      faults: n(r.faults),
      topFault: null,
      travel: [],
    });
  }
  for (const t of travel) figures.get(`${t.lift_id}|${t.span}`)?.travel.push({ from: t.from_floor, to: t.to_floor, trips: Number(t.trips), seconds: Number(t.seconds) });
  for (const f of topFaults) {
    const m = figures.get(`${f.lift_id}|m`);
    if (m) m.topFault = f.code;
  }
  const out = new Map<string, LiftInputs>();
  for (const l of lifts) {
    out.set(l.id, {
      measured: figures.get(`${l.id}|m`) ?? emptyFigures(0),
      baseline: figures.get(`${l.id}|b`) ?? null,
      chargeRatioPercent: l.charge_ratio ?? 100,
      alarmHours: Number(l.alarm_hours),
      alarmFailed: l.alarm_failed?.length ? l.alarm_failed : null,
    });
  }
  return out;
}

/** The best score of each of lifts `ids` in the fall window, before `today`. */
export async function bestRecentScores(sql: SqlExecutor, today: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await sql.query<{ lift_id: string; best: number }>(
    `select lift_id, max(score) as best from lift_condition_scores
      where day >= $1::date - ${CONDITION_PROPOSAL.fallDays} and day < $1::date and lift_id = any($2::uuid[]) group by lift_id`,
    [today, ids],
  );
  return new Map(rows.map((r) => [r.lift_id, Number(r.best)]));
}

export interface ScoreRow {
  liftId: string;
  score: number;
  factors: ConditionFactor[];
  mainFactor: string | null;
  listed: boolean;
  fellBy: number | null;
  visitInDays: number | null;
}

/**
 * Writes (or rewrites) the lifts' scores of `today`. The rows go as one JSON document: each
 * lift's factors are about 1.8 KB of JSON, and as a jsonb[] array every one of them was
 * escaped into the array's text and unescaped again, which nearly doubled the time of the
 * write (a chunk of 200 lifts: 26 ms against 14 ms this way on PostgreSQL, 25 against 15
 * on PGlite; docs/operations.md 7.1).
 */
export async function saveScores(sql: SqlExecutor, today: string, rows: ScoreRow[]): Promise<void> {
  if (!rows.length) return;
  const document = rows.map((r) => ({ lift_id: r.liftId, score: r.score, factors: r.factors, main_factor: r.mainFactor, listed: r.listed, fell_by: r.fellBy, visit_in: r.visitInDays }));
  await sql.query(
    `insert into lift_condition_scores (lift_id, day, score, factors, main_factor, listed, fell_by, visit_on, computed_at)
     select r.lift_id, $1::date, r.score, r.factors, r.main_factor, r.listed, r.fell_by, $1::date + r.visit_in, now()
       from jsonb_to_recordset($2::jsonb) as r(lift_id uuid, score smallint, factors jsonb, main_factor text, listed boolean, fell_by smallint, visit_in int)
     on conflict (lift_id, day) do update set score = excluded.score, factors = excluded.factors, main_factor = excluded.main_factor,
       listed = excluded.listed, fell_by = excluded.fell_by, visit_on = excluded.visit_on, computed_at = excluded.computed_at`,
    [today, JSON.stringify(document)],
  );
}

export interface StoredScore {
  lift_id: string;
  day: string;
  score: number;
  factors: ConditionFactor[];
  main_factor: string | null;
  listed: boolean;
  fell_by: number | null;
  visit_on: string | null;
  computed_at: Date;
}

const DAY = `to_char(s.day, 'YYYY-MM-DD') as day`;
const VISIT = `to_char(s.visit_on, 'YYYY-MM-DD') as visit_on`;

/** The listed lifts (their newest score, of today or yesterday) that `where` lets through, worst first. */
export async function listedLifts(sql: SqlExecutor, where: string, params: unknown[], page: { page: number; pageSize: number }): Promise<{ rows: (StoredScore & { device_no: string; alias: string | null; kind: DeviceKind })[]; total: number }> {
  const n = params.length;
  const base = `from (select distinct on (lift_id) * from lift_condition_scores where day >= (now() at time zone 'utc')::date - 1 order by lift_id, day desc) s
                join lifts l on l.id = s.lift_id where s.listed and ${where}`;
  const [count] = await sql.query<{ n: string }>(`select count(*) as n ${base}`, params);
  const rows = await sql.query<StoredScore & { device_no: string; alias: string | null; kind: DeviceKind }>(
    `select s.lift_id, ${DAY}, s.score, s.factors, s.main_factor, s.listed, s.fell_by, ${VISIT}, s.computed_at, l.device_no, l.alias, l.kind
     ${base} order by s.score, s.visit_on, l.device_no limit $${n + 1} offset $${n + 2}`,
    [...params, page.pageSize, (page.page - 1) * page.pageSize],
  );
  return { rows, total: Number(count!.n) };
}

/** A lift's scores of the last CONDITION_HISTORY_DAYS days, oldest first. */
export async function liftScores(sql: SqlExecutor, liftId: string): Promise<StoredScore[]> {
  return sql.query<StoredScore>(
    `select s.lift_id, ${DAY}, s.score, s.factors, s.main_factor, s.listed, s.fell_by, ${VISIT}, s.computed_at from lift_condition_scores s
      where s.lift_id = $1 and s.day > (now() at time zone 'utc')::date - ${CONDITION_HISTORY_DAYS} order by s.day`,
    [liftId],
  );
}
