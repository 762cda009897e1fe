/**
 * Query budgets of the fleet screens (issue 6), measured on the server through HTTP
 * injection (routing, validation, SQL, serialisation; no network):
 *   - first page of a 10,000-lift list (budget 200 ms)
 *   - pages of the run log of one lift holding 1,000,000 entries (budget 50 ms)
 *   - dashboard queries with 10,000 lifts and 10,000,000 log entries (budget 200 ms)
 *   - the run-log retention job on 10,000,000 entries over 16 months (no budget: a figure)
 * On PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL); BENCH_QUICK=1 seeds a tenth;
 * BENCH_PARTS=retention runs only the retention figure.
 * Prints figures, asserts nothing.
 */
import { runLogPartitions, runLogRetention } from '../apps/server/src/modules/jobs/retention.ts';
import { withPrivateServer } from './private-server.ts';

const quick = process.env.BENCH_QUICK === '1';
const LIFTS = 10_000;
const EVENTS_TOTAL = quick ? 1_000_000 : 10_000_000;
const EVENTS_ONE_LIFT = quick ? 100_000 : 1_000_000;
const RUNS = 30;
/** What to run: `queries`, `retention` or both (BENCH_PARTS=retention skips the query budgets). */
const PARTS = (process.env.BENCH_PARTS ?? 'queries,retention').split(',');

await withPrivateServer('liftlink_bench', async ({ app, sql, adminHeaders, log }) => {
  let t0 = Date.now();
  log(`seeding ${LIFTS} lifts and ${EVENTS_TOTAL.toLocaleString('en')} events...`);
  // Lifts were seen within the last 5 minutes and the heartbeat is 10 minutes (private-server.ts):
  // the silence sweep takes no lift offline (and writes nothing) while the queries are measured.
  await sql.exec(`
    insert into lifts (device_no, alias, kind, floors, manufacturer_org_id, online, mode, floor, last_seen_at, voltage, active_fault, location)
    select 'LL-' || lpad(i::text, 6, '0'), 'Lift ' || i,
           (array['inclinedStraightRack','inclined2dRack','inclined2dSprocket','inclined3dSprocket','verticalHydraulic'])[1 + i % 5],
           2 + i % 3, (select id from organizations limit 1), i % 10 <> 0, 'standby', 1,
           now() - (i % 300) * interval '1 second', 24 - (i % 40) * 0.05, case when i % 97 = 0 then 'EC' end,
           jsonb_build_object('address', 'Street ' || i)
      from generate_series(1, ${LIFTS}) i;
  `);
  if (PARTS.includes('queries')) {
    const [big] = await sql.query<{ id: string }>(`select id from lifts where device_no = 'LL-000001'`);
    await sql.exec(`
      -- One fault in 200 entries: lifts report far more state changes than faults.
      insert into lift_events (lift_id, seq, n, ts, code, fault, floor)
      select '${big!.id}', g, g, now() - (${EVENTS_ONE_LIFT} - g) * interval '1 second',
             case when g % 200 = 0 then 'EC' else (array['RZGU','RZD2','RZGD','RZD1','RZB1','RZF1'])[1 + g % 6] end, g % 200 = 0, 1 + g % 2
        from generate_series(1, ${EVENTS_ONE_LIFT}) g;
      insert into lift_events (lift_id, seq, n, ts, code, fault, floor)
      select l.id, g, g, now() - ((${EVENTS_TOTAL - EVENTS_ONE_LIFT} / ${LIFTS - 1}) - g) * interval '17 seconds',
             case when (g + l.n) % 200 = 0 then 'EA' else (array['RZGU','RZD2','RZGD','RZD1','RZY2'])[1 + (g + l.n) % 5] end, (g + l.n) % 200 = 0, null
        from (select id, row_number() over () as n from lifts where device_no <> 'LL-000001') l,
             generate_series(1, ${Math.floor((EVENTS_TOTAL - EVENTS_ONE_LIFT) / (LIFTS - 1))}) g;
      insert into lift_daily_stats (lift_id, day, trips, online_ms)
      select l.id, (now() at time zone 'utc')::date - d, (l.n + d) % 40, 3600000 from (select id, row_number() over () as n from lifts) l, generate_series(0, 29) d;
      update lifts l set events_total = (select count(*) from lift_events e where e.lift_id = l.id),
                         faults_total = (select count(*) from lift_events e where e.lift_id = l.id and e.fault);
      insert into fault_hourly_stats (scope, hour, code, faults)
      select s.scope, date_trunc('hour', e.ts), e.code, count(*) from lift_events e join lifts l on l.id = e.lift_id
        cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text)) as s(scope)
       where e.fault group by s.scope, date_trunc('hour', e.ts), e.code;
      insert into fleet_daily_stats (scope, day, trips)
      select s.scope, d.day, sum(d.trips) from lift_daily_stats d join lifts l on l.id = d.lift_id
        cross join lateral (values ('all'), ('m:' || l.manufacturer_org_id::text)) as s(scope) group by s.scope, d.day;
      update lifts l set trips_30d = (select sum(trips) from lift_daily_stats d where d.lift_id = l.id);
      analyze;
    `);
    log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

    const headers = await adminHeaders();
    async function measure(label: string, url: string, budget: number) {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const start = process.hrtime.bigint();
        const res = await app.inject({ method: 'GET', url, headers });
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.body}`);
      }
      times.sort((a, b) => a - b);
      const p50 = times[Math.floor(RUNS * 0.5)]!;
      const p95 = times[Math.floor(RUNS * 0.95)]!;
      log(`${label.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  (budget ${budget} ms)`);
      return { label, p50, p95, budget };
    }
    const liftId = big!.id;
    const lastPage = Math.ceil(EVENTS_ONE_LIFT / 20);
    const results = [
      await measure('lift list, first page of 10,000', '/auth/access/lift/get?page=1&pageSize=20', 200),
      await measure('lift list, keyword search', '/auth/access/lift/get?keyword=Street%2099&pageSize=20', 200),
      await measure('lift list, offline filter sorted by last seen', '/auth/access/lift/get?online=false&sort=lastSeen&order=desc', 200),
      await measure(`run log page 1 of ${EVENTS_ONE_LIFT.toLocaleString('en')}`, `/auth/access/lift/run/logs/get?liftId=${liftId}&page=1&pageSize=20`, 50),
      await measure('run log page 500', `/auth/access/lift/run/logs/get?liftId=${liftId}&page=500&pageSize=20`, 50),
      await measure(`run log last page (${lastPage})`, `/auth/access/lift/run/logs/get?liftId=${liftId}&page=${lastPage}&pageSize=20`, 50),
      await measure('run log faults only, page 1', `/auth/access/lift/run/logs/get?liftId=${liftId}&class=fault&pageSize=20`, 50),
      await measure('dashboard workplace', '/auth/access/dashboard/workplace', 200),
      await measure('dashboard analysis', '/auth/access/dashboard/analysis', 200),
    ];
    const summary = Object.fromEntries(results.map((r) => [r.label, Math.round(r.p95 * 10) / 10]));
    process.stdout.write(JSON.stringify({ bench: 'queries', lifts: LIFTS, events: EVENTS_TOTAL, oneLift: EVENTS_ONE_LIFT, p95Ms: summary }) + '\n');
  }

  if (PARTS.includes('retention')) {
    // Retention: the same number of entries spread evenly over the last 16 months (every
    // month with its partition, as a server running that long has), then one run of the job
    // with the default 400 days. Old months go as whole partitions.
    log(`retention: seeding ${EVENTS_TOTAL.toLocaleString('en')} entries over 16 months...`);
    t0 = Date.now();
    const months = 16;
    const perLift = Math.floor(EVENTS_TOTAL / LIFTS);
    await sql.exec(`
      -- Offline lifts: the server's silence sweep leaves them alone while the log is rewritten.
      update lifts set online = false;
      truncate lift_events;
      select lift_events_add_partition(now() - make_interval(months => k)) from generate_series(0, ${months}) k;
      insert into lift_events (lift_id, seq, n, ts, code, fault, floor)
      select l.id, g, g, now() - (${perLift} - g) * (interval '${months * 30} days' / ${perLift}) - l.n * interval '1 second', 'RZGU', false, 1
        from (select id, row_number() over () as n from lifts) l, generate_series(1, ${perLift}) g;
      analyze lift_events;
    `);
    log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const cutoff = new Date(Date.now() - 400 * 86_400_000);
    const [old] = await sql.query<{ n: string }>('select count(*) as n from lift_events where ts < $1', [new Date(Date.UTC(cutoff.getUTCFullYear(), cutoff.getUTCMonth(), 1)).toISOString()]);
    const partitionsBefore = (await runLogPartitions(sql)).length;
    t0 = Date.now();
    const retention = await runLogRetention(sql, 400);
    const retentionMs = Date.now() - t0;
    const [left] = await sql.query<{ n: string }>('select count(*) as n from lift_events');
    log(
      `retention job on ${EVENTS_TOTAL.toLocaleString('en')} entries: ${retentionMs} ms, ${retention.partitionsDropped} of ${partitionsBefore} monthly partitions dropped ` +
        `(${Number(old!.n).toLocaleString('en')} entries), ${Number(left!.n).toLocaleString('en')} kept`,
    );
    process.stdout.write(JSON.stringify({ bench: 'retention', events: EVENTS_TOTAL, ms: retentionMs, partitionsDropped: retention.partitionsDropped, entriesDropped: Number(old!.n), kept: Number(left!.n) }) + '\n');
  }
});
