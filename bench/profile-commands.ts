/**
 * Where a command's round trip goes in the embedded mode: the server in this process with a
 * timing wrapper around PGlite, 20 lifts answering from a child process, commands one at a
 * time (CONCURRENCY=4 for four in flight). Prints the SQL statements per command and their time. Run it when command figures drop:
 *   node --import tsx bench/profile-commands.ts
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPglite, type Database, type SqlExecutor } from '../apps/server/src/db/client.ts';
import { provisionLifts } from '../apps/server/test/support/fleet.ts';
import { ADMIN_PASSWORD } from '../apps/server/test/helpers.ts';
import { sampleStatus, startFleet } from './fleet-process.ts';

const COMMANDS = 200;
/** Commands in flight at once (bench/run.ts uses 4). */
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 1);
const inner = await openPglite(':memory:');
const stats = new Map<string, { n: number; ms: number }>();
const timed = <T>(text: string, run: () => Promise<T>) => {
  const label = text.replace(/\s+/g, ' ').slice(0, 80);
  const t0 = performance.now();
  return run().finally(() => {
    const e = stats.get(label) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += performance.now() - t0;
    stats.set(label, e);
  });
};
const wrap = (x: Omit<SqlExecutor, 'transaction'>): Omit<SqlExecutor, 'transaction'> => ({ query: (t, p) => timed(t, () => x.query(t, p)), exec: (t) => timed(t, () => x.exec(t)) });
const database: Database = { ...inner, sql: { ...wrap(inner.sql), transaction: (fn) => timed('(transaction)', () => inner.sql.transaction((tx) => fn(wrap(tx)))) } };
const config = loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'profcmd-')), MQTT_PORT: '0', HOST: '127.0.0.1', SIMULATOR: '0', LOG_LEVEL: 'warn', HEARTBEAT_SECONDS: '600', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, RATE_LIMIT_MAX: '100000' });
const app = await buildApp({ config, database, logger: false });
await app.ready();
const lifts = await provisionLifts(database.sql, 'PC', 20);
const { child, ask } = await startFleet();
const status = sampleStatus('PC-00001');
await ask({ op: 'connect', url: `mqtt://127.0.0.1:${app.mqtt.options.port}`, lifts, status });
const login = await app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
const token = login.json<{ result: { token: string } }>().result.token;
await new Promise((r) => setTimeout(r, 1000));
stats.clear();
const times: number[] = [];
let next = 0;
const worker = async () => {
  while (next < COMMANDS) {
    const i = next++;
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/auth/access/lift/control', headers: { 'access-token': token }, payload: { liftId: lifts[i % lifts.length]!.id, command: 'lock', args: { on: i % 2 === 0 } } });
    if (res.statusCode !== 200) throw new Error(res.body);
    times.push(performance.now() - t0);
  }
};
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
times.sort((a, b) => a - b);
console.log(`p50 ${times[COMMANDS / 2]!.toFixed(1)} ms, p99 ${times[Math.floor(COMMANDS * 0.99)]!.toFixed(1)} ms`);
for (const [q, e] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 16)) console.log(`${(e.ms / COMMANDS).toFixed(2).padStart(7)} ms/cmd ${(e.n / COMMANDS).toFixed(1).padStart(5)}x  ${q}`);
await ask({ op: 'stop' });
child.kill();
await app.close();
process.exit(0);
