/**
 * Where ingest time goes on PostgreSQL + Mosquitto: the server in this process with a
 * timing wrapper around its database, lifts publishing from a child process. Prints batch
 * sizes and time per stage. Not part of `npm run bench`; run it when ingest figures drop:
 *   node --import tsx bench/profile-ingest.ts
 * With REPORT_EVERY_MS=1000 the lifts send status reports instead of run-log events.
 */
import path from 'node:path';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seed } from '../apps/server/src/db/seed.ts';
import { startMosquitto } from '../apps/server/test/support/mosquitto.ts';
import { createDatabase } from '../apps/server/test/support/postgres.ts';
import { provisionLifts } from '../apps/server/test/support/fleet.ts';
import { ADMIN_PASSWORD } from '../apps/server/test/helpers.ts';
import { sampleStatus, startFleet } from './fleet-process.ts';

const LIFTS = Number(process.env.LIFTS ?? 1000);
const PER_LIFT = Number(process.env.PER_LIFT ?? 40);
/** Above 0: every lift reports its status every this many ms instead of sending run-log events. */
const REPORT_EVERY_MS = Number(process.env.REPORT_EVERY_MS ?? 0);
const REPORT_SECONDS = Number(process.env.REPORT_SECONDS ?? 20);
const scratch = await createDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const inner = await openPostgres(scratch.url);
await migrate(inner.sql);
await seed(inner, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'LiftLink Lifts' });
const lifts = await provisionLifts(inner.sql, 'PROF', LIFTS);
const broker = await startMosquitto({ lifts });

const stats = { transactions: 0, txMs: 0, queries: new Map<string, { n: number; ms: number }>() };
const timed = <T>(label: string, run: () => Promise<T>) => {
  const t0 = performance.now();
  return run().finally(() => {
    const e = stats.queries.get(label) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += performance.now() - t0;
    stats.queries.set(label, e);
  });
};
const database: Database = {
  ...inner,
  sql: {
    ...inner.sql,
    transaction: async (fn) => {
      const t0 = performance.now();
      try {
        return await inner.sql.transaction((tx) => fn({ query: (text, params) => timed(text.replace(/\s+/g, ' ').slice(0, 70), () => tx.query(text, params)), exec: tx.exec }));
      } finally {
        stats.transactions++;
        stats.txMs += performance.now() - t0;
      }
    },
  },
};
const config = loadConfig({ ...broker.env, DATABASE_URL: scratch.url, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'prof-')), SIMULATOR: '0', LOG_LEVEL: 'warn', HEARTBEAT_SECONDS: '600', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, MQTT_PORT: '0' });
const app = await buildApp({ config, database, logger: false });
await app.ready();

const { child, ask } = await startFleet();
const status = sampleStatus('PROF-00001');
await ask({ op: 'connect', url: broker.url, lifts, status });
await new Promise((r) => setTimeout(r, 2000));
stats.queries.clear();
stats.transactions = 0;
stats.txMs = 0;
const before = app.ingest.stats().stored;
const t0 = performance.now();
let sent: number;
if (REPORT_EVERY_MS > 0) {
  // statuses as a fleet in service sends them: every lift once per period, for REPORT_SECONDS
  await ask({ op: 'report', everyMs: REPORT_EVERY_MS });
  await new Promise((r) => setTimeout(r, REPORT_SECONDS * 1000));
  sent = (await ask<{ sent: number }>({ op: 'reportStop' })).sent;
} else {
  await ask({ op: 'ingest', lifts: LIFTS, perLift: PER_LIFT, window: 10, firstSeq: 1_000_000 });
  sent = LIFTS * PER_LIFT;
}
while (app.ingest.stats().stored - before < sent) await new Promise((r) => setTimeout(r, 20));
const ms = performance.now() - t0;
const what = REPORT_EVERY_MS > 0 ? 'statuses' : 'events';
console.log(`${what} ${sent} in ${Math.round(ms)} ms = ${Math.round(sent / (ms / 1000))}/s; ${stats.transactions} transactions (avg ${Math.round(sent / stats.transactions)} msgs, ${(stats.txMs / stats.transactions).toFixed(1)} ms)`);
for (const [q, e] of [...stats.queries].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) console.log(`${e.ms.toFixed(0).padStart(7)} ms ${String(e.n).padStart(6)}x  ${q}`);
// HOT updates leave the indexes alone; a table whose updates are not HOT has an indexed column changing
for (const t of await inner.sql.query<{ relname: string; n_tup_upd: string; n_tup_hot_upd: string; n_tup_ins: string }>(
  `select relname, n_tup_upd, n_tup_hot_upd, n_tup_ins from pg_stat_user_tables where n_tup_upd + n_tup_ins > 1000 order by n_tup_upd + n_tup_ins desc`,
))
  console.log(`${t.relname.padEnd(28)} inserted ${t.n_tup_ins.padStart(8)}  updated ${t.n_tup_upd.padStart(8)} (HOT ${t.n_tup_hot_upd})`);
await ask({ op: 'stop' });
child.kill();
await app.close();
await inner.close();
await scratch.drop();
await broker.destroy();
process.exit(0);
