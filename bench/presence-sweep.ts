/**
 * The silence sweep after an outage: LIFTS (20,000) lifts online, all silent past the
 * heartbeat window at once (the broker went away without passing on their wills). With
 * WILLS=1 the broker does pass them on instead: every lift's will reaches ingest at once
 * (a region's lifts lost their network). Times
 * from the first lift marked offline to the last, and the longest the server's event loop
 * was held meanwhile (the loop also takes the lifts' messages). Checks that each lift got
 * one OFFLINE entry, its availability booked and its online time counted.
 * On PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), in a private database created
 * and dropped here. Prints figures, asserts nothing:
 *   node --import tsx bench/presence-sweep.ts
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { withPrivateServer } from './private-server.ts';

const LIFTS = Number(process.env.LIFTS ?? 20_000);
const WILLS = process.env.WILLS === '1';
/** Wills: a heartbeat longer than the run, so that only the wills take the lifts offline. */
const HEARTBEAT_SECONDS = WILLS ? 600 : 10;

await withPrivateServer(
  'liftlink_bench_sweep',
  async ({ app, sql, log }) => {
    log(`seeding ${LIFTS} lifts online, last heard 30 s ago...`);
    await sql.exec(`
      insert into lifts (device_no, alias, kind, floors, manufacturer_org_id, online, online_since, mode, floor, last_seen_at, avail_state, avail_since)
      select 'SW-' || lpad(i::text, 6, '0'), 'Lift ' || i, 'verticalHydraulic', 3, (select id from organizations where kind = 'manufacturer' limit 1),
             true, now() - interval '1 hour', 'normal', 1, now() - interval '30 seconds', 'inService', now() - interval '1 hour'
        from generate_series(1, ${LIFTS}) i;
      analyze lifts;
    `);
    if (WILLS) {
      const deviceNos = (await sql.query<{ device_no: string }>(`select device_no from lifts where device_no like 'SW-%'`)).map((r) => r.device_no);
      const ts = new Date().toISOString();
      // A will's seq is its connection's session (docs/protocol.md 4.3).
      void Promise.all(deviceNos.map((no) => app.ingest.handle(`lifts/${no}/presence`, JSON.stringify({ seq: 1, ts, online: false, session: 1 }))));
    }
    const online = async () => Number((await sql.query<{ n: string }>(`select count(*) as n from lifts where online`))[0]!.n);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    let first = 0;
    for (;;) {
      const n = await online();
      if (!first && n < LIFTS) {
        first = performance.now();
        lag.enable();
      }
      if (n === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - first;
    lag.disable();
    const [check] = await sql.query<{ offline_entries: string; booked: string; counted: string }>(
      `select (select count(*) from lift_events where code = 'OFFLINE' and reason = $1) as offline_entries,
              (select count(*) from lifts where avail_state = 'offline') as booked,
              (select count(*) from lifts where online_ms_total > 0) as counted`,
      [WILLS ? 'connectionLost' : 'heartbeatSilence'],
    );
    console.log(
      JSON.stringify({
        lifts: LIFTS,
        cause: WILLS ? 'wills' : 'silence',
        sweepMs: Math.round(ms),
        liftsPerSec: Math.round((LIFTS / ms) * 1000),
        eventLoopMaxMs: Math.round(lag.max / 1e6),
        eventLoopP99Ms: Math.round(lag.percentile(99) / 1e6),
        offlineEntries: Number(check!.offline_entries),
        availabilityBooked: Number(check!.booked),
        onlineTimeCounted: Number(check!.counted),
      }),
    );
  },
  { HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS) },
);
