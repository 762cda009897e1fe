/**
 * The availability report at fleet scale (issue 17, docs/insight.md "Availability"), measured
 * on the server through HTTP injection (routing, validation, SQL, serialisation; no network):
 * one operator organization with 10,000 lifts in 100 sites, 12 months of month rows per lift
 * (written with generate_series, as ingest would have booked them), every lift's open interval
 * starting 30 minutes ago (counted live). Times the answers of the organizations, sites, lifts
 * and one-lift levels over 12 months (p50/p95 of RUNS requests), and one run of the hourly
 * booking job over all lifts.
 * On PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), in a private database created and
 * dropped here. Prints figures, asserts nothing.
 */
import { bookOpenIntervals } from '../apps/server/src/modules/availability/book.ts';
import { withPrivateServer } from './private-server.ts';

const LIFTS = 10_000;
const SITES = 100;
const MONTHS = 12;
const RUNS = 20;

const month = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

await withPrivateServer('liftlink_bench_avail', async ({ app, sql, adminHeaders, log }) => {
  const t0 = Date.now();
  log(`seeding ${LIFTS} lifts in ${SITES} sites and ${(LIFTS * MONTHS).toLocaleString('en')} month rows...`);
  const [org] = await sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Bench operator', 'operator') returning id`);
  await sql.exec(`
    insert into lifts (device_no, alias, kind, floors, manufacturer_org_id, operator_org_id, online, mode, floor, last_seen_at, location, avail_state, avail_since)
    select 'LL-' || lpad(i::text, 6, '0'), 'Lift ' || i, 'verticalHydraulic', 3,
           (select id from organizations where kind = 'manufacturer' limit 1), '${org!.id}', true, 'normal', 1, now(),
           jsonb_build_object('site', 'Site ' || lpad((i % ${SITES})::text, 3, '0')), 'inService', now() - interval '30 minutes'
      from generate_series(1, ${LIFTS}) i;
    insert into lift_availability_monthly (lift_id, month, in_service_ms, faulted_ms, stopped_ms, locked_ms, disabled_ms, offline_ms, maintenance_ms,
                                           trips, failures, incidents, ack_count, ack_ms_sum, restore_count, restore_ms_sum)
    select l.id, m::date, 2500000000 - (h % 50) * 1000000, (h % 7) * 600000, (h % 3) * 60000, (h % 5) * 120000, 0, (h % 11) * 900000, 7200000,
           1200 + h % 400, h % 4, h % 3, h % 3, (h % 3) * 420000, h % 3, (h % 3) * 5400000
      from lifts l
      cross join generate_series(date_trunc('month', now() at time zone 'utc') - interval '${MONTHS - 1} months', date_trunc('month', now() at time zone 'utc'), interval '1 month') m
      cross join lateral (select abs(hashtext(l.id::text || m::text)) as h) x;
    analyze;
  `);
  log(`seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const headers = await adminHeaders();
  const now = new Date();
  const to = month(now);
  const from = month(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (MONTHS - 1), 1)));
  const [oneLift] = await sql.query<{ id: string }>(`select id from lifts where operator_org_id = $1 limit 1`, [org!.id]);

  async function measure(label: string, query: string) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      const res = await app.inject({ method: 'GET', url: `/auth/access/dashboard/availability?${query}&from=${from}&to=${to}`, headers });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (res.statusCode !== 200) throw new Error(`${query}: ${res.body}`);
      rows = res.json().result.rows.length;
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor(RUNS * 0.5)]!;
    const p95 = times[Math.floor(RUNS * 0.95)]!;
    log(`${label.padEnd(40)} p50 ${p50.toFixed(1).padStart(7)} ms  p95 ${p95.toFixed(1).padStart(7)} ms  (${rows} rows)`);
    return { label, p50, p95, rows };
  }

  const results = [
    await measure(`orgs, ${MONTHS} months (${LIFTS} lifts)`, 'level=orgs'),
    await measure(`sites of the organization, ${MONTHS} months`, `level=sites&orgId=${org!.id}`),
    await measure(`lifts of one site, ${MONTHS} months`, `level=lifts&orgId=${org!.id}&site=Site%20007`),
    await measure(`one lift, ${MONTHS} months`, `level=lift&liftId=${oneLift!.id}`),
  ];
  const jobStart = process.hrtime.bigint();
  const monthRows = await bookOpenIntervals(sql);
  const jobMs = Number(process.hrtime.bigint() - jobStart) / 1e6;
  log(`hourly booking job over ${LIFTS} lifts: ${jobMs.toFixed(0)} ms (${monthRows} month rows)`);
  process.stdout.write(
    JSON.stringify({ bench: 'availability', lifts: LIFTS, sites: SITES, months: MONTHS, runs: RUNS, ms: Object.fromEntries(results.map((r) => [r.label, { p50: Math.round(r.p50 * 10) / 10, p95: Math.round(r.p95 * 10) / 10 }])), jobMs: Math.round(jobMs) }) + '\n',
  );
});
