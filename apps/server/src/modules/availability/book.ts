import type { SqlExecutor } from '../../db/client.ts';

/** Any query runner: the pool, or a transaction (ingest's batch, an incident's change). */
type Executor = Pick<SqlExecutor, 'query'>;

/** A lift whose availability inputs (online, mode, active fault) may have changed at `at`. */
export interface AvailabilityChange {
  liftId: string;
  /** When it happened (the message's time); null: now. Clamped to [the open interval's start, now()]. */
  at: Date | string | null;
  /** Its active fault appeared (none before, one now): one failure. */
  failed?: boolean;
}

/**
 * SQL: the ms of [a, b) that the maintenance windows of lift `lift` cover (overlapping windows
 * count once).
 */
export function maintenanceMsSql(lift: string, a: string, b: string): string {
  return `coalesce((select round(sum(extract(epoch from upper(r) - lower(r)) * 1000))::bigint
            from unnest((select range_agg(tstzrange(w.starts_at, w.ends_at))
                           from maintenance_window_lifts wl join maintenance_windows w on w.id = wl.window_id
                          where wl.lift_id = ${lift} and w.starts_at < ${b} and w.ends_at > ${a}) * tstzmultirange(tstzrange(${a}, ${b}))) as r), 0)`;
}

/**
 * The booking statement over the lifts of CTE `v(id, at, failed)`. For each lift it closes
 * the open interval [avail_since, at) in the state it was in when the state the row derives
 * now differs (or always, with `always`: the hourly job), splits it at UTC month boundaries,
 * books the part a maintenance window of the lift covers as maintenance and the rest in the
 * state, and counts a failure in the month of `at`. `at` never goes before the interval's
 * start nor after now(): history fed in order books in order, and a lift's clock ahead of
 * ours cannot book the future. The union of overlapping windows counts once (range_agg).
 */
function bookingSql(source: string, always: boolean): string {
  const col = (state: string) => `sum(case when state = '${state}' then ms else 0 end)`;
  return `
  with v as (${source}),
  cur as (
    select l.id, l.avail_state as state, l.avail_since as since, availability_state(l.online, l.mode, l.active_fault) as next,
           greatest(l.avail_since, least(coalesce(v.at, now()), now())) as at, v.failed
      from lifts l join v on v.id = l.id${always ? '\n     for no key update of l skip locked' : ''}
  ),
  moved as (
    update lifts l set avail_state = cur.next, avail_since = cur.at
      from cur where l.id = cur.id and (${always ? 'true' : 'cur.next <> cur.state'})
    returning cur.id, cur.state, cur.since, cur.at
  ),
  pieces as (
    select m.id, m.state, mo::date as month,
           greatest(m.since, mo at time zone 'utc') as a, least(m.at, (mo + interval '1 month') at time zone 'utc') as b
      from moved m
      cross join lateral generate_series(date_trunc('month', m.since at time zone 'utc'), m.at at time zone 'utc', interval '1 month') as mo
     where m.at > m.since
  ),
  booked as (
    select p.id, p.month, p.state, round(extract(epoch from p.b - p.a) * 1000)::bigint as total,
           ${maintenanceMsSql('p.id', 'p.a', 'p.b')} as maint
      from pieces p where p.b > p.a
  ),
  parts as (
    select id, month, state, total - maint as ms, maint, 0 as failures from booked
    union all
    select id, date_trunc('month', at at time zone 'utc')::date, state, 0, 0, 1 from cur where failed
  )
  insert into lift_availability_monthly as t (lift_id, month, in_service_ms, faulted_ms, stopped_ms, locked_ms, disabled_ms, offline_ms, maintenance_ms, failures)
  select id, month, ${col('inService')}, ${col('faulted')}, ${col('stopped')}, ${col('locked')}, ${col('disabled')}, ${col('offline')}, sum(maint), sum(failures)
    from parts group by id, month
  on conflict (lift_id, month) do update set
    in_service_ms = t.in_service_ms + excluded.in_service_ms, faulted_ms = t.faulted_ms + excluded.faulted_ms,
    stopped_ms = t.stopped_ms + excluded.stopped_ms, locked_ms = t.locked_ms + excluded.locked_ms,
    disabled_ms = t.disabled_ms + excluded.disabled_ms, offline_ms = t.offline_ms + excluded.offline_ms,
    maintenance_ms = t.maintenance_ms + excluded.maintenance_ms, failures = t.failures + excluded.failures${always ? '\n  returning 1' : ''}`;
}

const CHANGES_SQL = bookingSql(`select * from unnest($1::uuid[], $2::timestamptz[], $3::boolean[]) as v(id, at, failed)`, false);

/**
 * Ingest's one call where a lift's online state, mode or active fault changed (after the
 * lift row is updated, in the same transaction, the lift row locked): books the time since
 * its last change when its availability state changed, and a failure when its fault appeared.
 */
export async function bookAvailability(tx: Executor, changes: AvailabilityChange[]): Promise<void> {
  const last = new Map<string, AvailabilityChange>();
  for (const c of changes) last.set(c.liftId, { ...c, failed: (last.get(c.liftId)?.failed ?? false) || (c.failed ?? false) });
  if (!last.size) return;
  const list = [...last.values()];
  await tx.query(CHANGES_SQL, [
    list.map((c) => c.liftId),
    list.map((c) => (c.at === null ? null : typeof c.at === 'string' ? c.at : c.at.toISOString())),
    list.map((c) => c.failed ?? false),
  ]);
}

// The job locks the rows where it reads them: a row ingest committed meanwhile is read as committed.
const CHUNK_SQL = bookingSql(`select id, null::timestamptz as at, false as failed from unnest($1::uuid[]) as id`, true);
/** Lifts per statement: each holds its lifts' rows only briefly, so ingest hardly waits. */
const JOB_CHUNK = 500;

/**
 * Books every lift's open interval up to now and starts a new one (the hourly job), one
 * statement per chunk of lifts. Lifts another transaction holds (ingest is booking them) are
 * skipped: their interval is booked there, or at the next run. Two instances running it at
 * once book each interval once: the second skips the rows the first holds, and an interval
 * already booked up to a later now() is not booked again (`at` is clamped to its start).
 * Returns how many month rows were written.
 */
export async function bookOpenIntervals(sql: Executor, signal?: AbortSignal): Promise<number> {
  const ids = (await sql.query<{ id: string }>(`select id from lifts order by id`)).map((r) => r.id);
  let rows = 0;
  for (let i = 0; i < ids.length && !signal?.aborted; i += JOB_CHUNK) rows += (await sql.query(CHUNK_SQL, [ids.slice(i, i + JOB_CHUNK)])).length;
  return rows;
}

/** Time from the incident's opening to now (the step's time), ms, never negative. */
const elapsed = `greatest(0, round(extract(epoch from now() - i.opened_at) * 1000))::bigint`;

/** Counts for the incident steps that the figures read: opened, first acknowledged, resolved. */
export async function bookIncidentStep(tx: Executor, incidentId: number | string, from: string | null, to: string): Promise<void> {
  const column = from === null && to === 'open' ? 'opened' : from === 'open' && to === 'acknowledged' ? 'ack' : to === 'resolved' ? 'restore' : null;
  if (!column) return;
  const set =
    column === 'opened'
      ? { month: 'i.opened_at', cols: 'incidents', vals: '1', update: 'incidents = t.incidents + 1' }
      : column === 'ack'
        ? { month: 'now()', cols: 'ack_count, ack_ms_sum', vals: `1, ${elapsed}`, update: 'ack_count = t.ack_count + 1, ack_ms_sum = t.ack_ms_sum + excluded.ack_ms_sum' }
        : { month: 'now()', cols: 'restore_count, restore_ms_sum', vals: `1, ${elapsed}`, update: 'restore_count = t.restore_count + 1, restore_ms_sum = t.restore_ms_sum + excluded.restore_ms_sum' };
  await tx.query(
    `insert into lift_availability_monthly as t (lift_id, month, ${set.cols})
     select i.lift_id, date_trunc('month', ${set.month} at time zone 'utc')::date, ${set.vals} from incidents i where i.id = $1
     on conflict (lift_id, month) do update set ${set.update}`,
    [incidentId],
  );
}

/**
 * A backfilled incident (demo history) is opened now and then given its past opening time:
 * its count moves from this month to that one.
 */
export async function moveIncidentOpening(tx: Executor, liftId: string, openedAt: Date): Promise<void> {
  await tx.query(
    `with m as (select date_trunc('month', now() at time zone 'utc')::date as was, date_trunc('month', $2::timestamptz at time zone 'utc')::date as now_at)
     , dec as (update lift_availability_monthly t set incidents = t.incidents - 1 from m where t.lift_id = $1 and t.month = m.was and m.was <> m.now_at and t.incidents > 0 returning 1)
     insert into lift_availability_monthly as t (lift_id, month, incidents)
     select $1, m.now_at, 1 from m where m.was <> m.now_at and exists (select 1 from dec)
     on conflict (lift_id, month) do update set incidents = t.incidents + 1`,
    [liftId, openedAt],
  );
}
