import type { SqlExecutor } from '../../db/client.ts';
// The server runs the simulator from its sources (demo-fleet.ts): the same small generator.
import { seededRandom } from '../../../../simulator/src/random.ts';

type Executor = Pick<SqlExecutor, 'query'>;

const MIN = 60_000;
const HOUR = 60 * MIN;
/** Months of availability figures a demo lift has before its run-log history starts. */
export const DEMO_AVAILABILITY_MONTHS = 5;

function randomFor(deviceNo: string): () => number {
  let seed = 7;
  for (const ch of deviceNo) seed = (Math.imul(seed, 33) + ch.charCodeAt(0)) >>> 0;
  return seededRandom(seed);
}

/**
 * The months before a new demo lift's run-log history (modules/lifts/demo-history.ts): figures
 * like those ingest books from a lift's messages — a few faults of 10 to 50 minutes each with
 * their incident acknowledged within minutes and resolved within hours, offline spells, a
 * two-hour service visit, the odd lockout — written straight into the month rows (there is no
 * run log behind them; the history's own days are booked by ingest as it stores them). The
 * lift's open interval then starts at the history's start, offline, so the history books from
 * there. Seeded by the device number: the same lift gets the same months.
 */
export async function prepareDemoAvailability(sql: Executor, lift: { id: string; deviceNo: string }, historyFrom: number, months = DEMO_AVAILABILITY_MONTHS): Promise<void> {
  const random = randomFor(lift.deviceNo);
  const between = (a: number, b: number) => a + Math.floor(random() * (b - a));
  const start = new Date(historyFrom);
  const firstMonth = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() - months, 1);
  const busy = 0.6 + random() * 0.8;
  const rows: (string | number)[][] = [];
  for (let m = firstMonth; m < historyFrom; m = Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1)) {
    const end = Math.min(Date.UTC(new Date(m).getUTCFullYear(), new Date(m).getUTCMonth() + 1, 1), historyFrom);
    const span = end - m;
    const share = span / (30 * 24 * HOUR);
    const failures = Math.round(between(1, 5) * share);
    const faulted = Array.from({ length: failures }, () => between(10 * MIN, 50 * MIN)).reduce((a, b) => a + b, 0);
    const offline = Math.round(Array.from({ length: between(1, 4) }, () => between(20 * MIN, 6 * HOUR)).reduce((a, b) => a + b, 0) * share);
    const maintenance = share > 0.5 && random() < 0.8 ? 2 * HOUR : 0;
    const locked = random() < 0.3 ? between(5 * MIN, 30 * MIN) : 0;
    const stopped = random() < 0.15 ? between(2 * MIN, 15 * MIN) : 0;
    const inService = span - faulted - offline - maintenance - locked - stopped;
    const trips = Math.round(55 * busy * 0.85 * (span / (24 * HOUR)));
    const ack = Array.from({ length: failures }, () => between(2 * MIN, 20 * MIN)).reduce((a, b) => a + b, 0);
    const restore = Array.from({ length: failures }, () => between(40 * MIN, 4 * HOUR)).reduce((a, b) => a + b, 0);
    rows.push([new Date(m).toISOString().slice(0, 10), inService, faulted, stopped, locked, offline, maintenance, trips, failures, ack, restore]);
  }
  await sql.query(
    `insert into lift_availability_monthly (lift_id, month, in_service_ms, faulted_ms, stopped_ms, locked_ms, offline_ms, maintenance_ms, trips, failures,
                                            incidents, ack_count, ack_ms_sum, restore_count, restore_ms_sum)
     select $1, r.month, r.ins, r.flt, r.stp, r.lck, r.off, r.mnt, r.trips, r.failures, r.failures, r.failures, r.ack, r.failures, r.restore
       from unnest($2::date[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::integer[], $10::integer[], $11::bigint[], $12::bigint[])
            as r(month, ins, flt, stp, lck, off, mnt, trips, failures, ack, restore)
     on conflict (lift_id, month) do nothing`,
    [lift.id, ...Array.from({ length: 11 }, (_, i) => rows.map((r) => r[i]))],
  );
  await sql.query(`update lifts set avail_state = 'offline', avail_since = $2 where id = $1`, [lift.id, new Date(historyFrom)]);
}
