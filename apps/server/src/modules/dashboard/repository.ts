import { eventText, type AnalysisDashboard, type WorkplaceDashboard } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter, rollupKeys } from '../access/policy.ts';

/** Below this battery voltage a lift needs attention (a 24 V pack near its cut-off). */
export const LOW_BATTERY_VOLTS = 22.5;
const ATTENTION_LIMIT = 20;

/** The workplace: the caller's fleet counted, the lifts needing attention, the newest events in the caller's language. */
export async function workplaceDashboard(sql: SqlExecutor, auth: AuthContext): Promise<WorkplaceDashboard> {
  const scope = liftFilter(auth, 1);
  const p = scope.param ? [scope.param] : [];
  const lang = auth.language;
  const [counts] = await sql.query<{ total: string; online: string; offline: string; fault: string }>(
    `select count(*) as total, count(*) filter (where online) as online, count(*) filter (where not online) as offline,
            count(*) filter (where active_fault is not null) as fault from lifts l where ${scope.where}`,
    p,
  );
  const attention = await sql.query<{ liftId: string; deviceNo: string | null; alias: string; reason: 'fault' | 'lowBattery' | 'offline'; since: Date | null; code: string | null }>(
    `select * from (
       select l.id as "liftId", l.device_no as "deviceNo", l.alias, 'fault' as reason, l.status_at as since, l.active_fault as code, 1 as rank
         from lifts l where ${scope.where} and l.active_fault is not null
       union all
       select l.id, l.device_no, l.alias, 'lowBattery', l.status_at, null, 2 from lifts l where ${scope.where} and l.online and l.voltage < ${LOW_BATTERY_VOLTS}
       union all
       select l.id, l.device_no, l.alias, 'offline', l.last_seen_at, null, 3 from lifts l where ${scope.where} and not l.online and l.last_seen_at < now() - interval '1 hour'
     ) x order by rank, since nulls last limit ${ATTENTION_LIMIT}`,
    p,
  );
  // Newest events first, walking the time index and keeping the caller's lifts.
  const recent = await sql.query<{ id: string; liftId: string; deviceNo: string | null; ts: Date; code: string; fault: boolean; reason: string | null }>(
    `select e.id, e.lift_id as "liftId", l.device_no as "deviceNo", e.ts, e.code, e.fault, e.reason
       from lift_events e join lifts l on l.id = e.lift_id where ${scope.where} order by e.ts desc limit 10`,
    p,
  );
  return {
    counts: { total: Number(counts!.total), online: Number(counts!.online), offline: Number(counts!.offline), fault: Number(counts!.fault) },
    attention: attention.map((a) => ({ liftId: a.liftId, deviceNo: a.deviceNo, alias: a.alias, reason: a.reason, since: a.since ? new Date(a.since).toISOString() : null, code: a.code })),
    recentEvents: recent.map(({ reason, ...e }) => ({ ...e, id: Number(e.id), ts: new Date(e.ts).toISOString(), text: eventText(e.code, lang, reason) })),
  };
}

/** The analysis: trips per day for 30 days, the online share, faults of the last day and week, the busiest lifts. */
export async function analysisDashboard(sql: SqlExecutor, auth: AuthContext): Promise<AnalysisDashboard> {
  const scope = liftFilter(auth, 1);
  const p = scope.param ? [scope.param] : [];
  const today = `(now() at time zone 'utc')::date`;
  const trips30d = await sql.query<{ day: string; trips: string }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(f.trips, 0) as trips
       from generate_series(${today} - 29, ${today}, interval '1 day') as d(day)
       left join (select day, sum(trips) as trips from fleet_daily_stats where scope = any($1::text[]) group by day) f on f.day = d.day::date order by d.day`,
    [rollupKeys(auth)],
  );
  const [ratio] = await sql.query<{ total: string; online: string }>(`select count(*) as total, count(*) filter (where online) as online from lifts l where ${scope.where}`, p);
  // From the hourly figures ingest keeps: the last N hours are the buckets from the hour
  // that held now() - N hours on (up to an hour more than N, never less).
  const faults = (hours: number) =>
    sql.query<{ code: string; count: string }>(
      `select code, sum(faults) as count from fault_hourly_stats
        where scope = any($1::text[]) and hour >= date_trunc('hour', now() - make_interval(hours => $2)) group by code order by count desc, code`,
      [rollupKeys(auth), hours],
    );
  const [faults24h, faults7d] = [await faults(24), await faults(24 * 7)];
  const top = await sql.query<{ liftId: string; deviceNo: string | null; alias: string; trips: string }>(
    `select l.id as "liftId", l.device_no as "deviceNo", l.alias, l.trips_30d as trips from lifts l
      where ${scope.where} and l.trips_30d > 0 order by l.trips_30d desc limit 10`,
    p,
  );
  const total = Number(ratio!.total);
  const series = trips30d.map((d) => ({ day: d.day, trips: Number(d.trips) }));
  return {
    tripsToday: series.at(-1)?.trips ?? 0,
    trips30d: series,
    onlineRatio: total ? Number(ratio!.online) / total : 0,
    faults24h: faults24h.map((f) => ({ code: f.code, count: Number(f.count) })),
    faults7d: faults7d.map((f) => ({ code: f.code, count: Number(f.count) })),
    topLifts: top.map((t) => ({ ...t, trips: Number(t.trips) })),
  };
}
