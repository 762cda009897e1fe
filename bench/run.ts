/**
 * `npm run bench`: the device path under load (issue 4), on the embedded mode (PGlite +
 * aedes in one process) and on PostgreSQL + Mosquitto (dynamic security). The server runs
 * as its own process, as in production; the lifts are bare MQTT.js connections in another
 * (bench/lift-fleet.ts), provisioned straight into the database.
 *
 *   (1) ingest: 1,000 lifts publish run-log events as fast as they are taken (each keeps a
 *       window in flight); messages persisted per second, lost and duplicated counts
 *   (2) command round trip through the HTTP API with 5,000 lifts connected: p50/p95/p99
 *   (3) lift-to-browser live push over the WebSocket: p99
 *   (4) server memory (RSS) with 5,000 lifts connected
 *
 * Figures, not assertions. BENCH_QUICK=1 runs a shorter version (under two minutes).
 * BENCH_MODES=embedded,postgres picks modes; BENCH_DATABASE_URL (or TEST_DATABASE_URL)
 * the PostgreSQL server that gets a scratch database. Each mode prints one JSON line; the
 * last line is JSON.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { openPglite, openPostgres, type Database } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seed } from '../apps/server/src/db/seed.ts';
import { startMosquitto, mosquittoMissing, type PrivateMosquitto } from '../apps/server/test/support/mosquitto.ts';
import { createDatabase } from '../apps/server/test/support/postgres.ts';
import { startServerProcess, signIn, type ServerProcess } from '../apps/server/test/support/server-process.ts';
import { provisionLifts, type ProvisionedLift } from '../apps/server/test/support/fleet.ts';
import { brokerAdminFor } from '../apps/server/test/support/broker-admin.ts';
import { freePort, until } from '../apps/server/test/support/ports.ts';
import { ADMIN_PASSWORD } from '../apps/server/test/helpers.ts';
import type { FleetRequest } from './lift-fleet.ts';
import { sampleStatus, startFleet } from './fleet-process.ts';
import { cpuMs, cpuMsByName } from './cpu.ts';

const quick = process.env.BENCH_QUICK === '1';
const LIFTS = Number(process.env.BENCH_LIFTS ?? 5_000);
const INGEST_LIFTS = Math.min(1_000, LIFTS);
const INGEST_PER_LIFT = quick ? 40 : 200;
const INGEST_WINDOW = 10;
const COMMANDS = quick ? 200 : 2_000;
const WARMUP_PER_LIFT = 10;
const WARMUP_COMMANDS = 100;
const COMMAND_CONCURRENCY = Number(process.env.BENCH_CMD_CONCURRENCY ?? 4);
const PUSH_LIFTS = 20;
const PUSH_EVERY_MS = 50;
const PUSH_MS = quick ? 3_000 : 20_000;
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MODES = (process.env.BENCH_MODES ?? 'embedded,postgres').split(',').map((m) => m.trim()) as ('embedded' | 'postgres')[];

interface Result {
  mode: string;
  ingestPerSec: number;
  lost: number;
  duplicates: number;
  cmdP50Ms: number;
  cmdP95Ms: number;
  cmdP99Ms: number;
  pushP99Ms: number;
  rssMiB5000: number;
  [extra: string]: unknown;
}

const T0 = Date.now();
const log = (line: string) => process.stderr.write(`bench: [${((Date.now() - T0) / 1000).toFixed(1)} s] ${line}\n`);

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** Migrations, the seed and the lifts, before the server starts. */
async function prepare(database: Database, count: number): Promise<ProvisionedLift[]> {
  await migrate(database.sql);
  await seed(database, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'LiftLink Lifts' });
  return provisionLifts(database.sql, 'BENCH', count);
}

async function storedCounts(database: Database, ids: string[], fromSeq: number): Promise<{ stored: number; distinct: number; trips: number }> {
  const [row] = await database.sql.query<{ stored: string; distinct: string; trips: string }>(
    `select (select count(*) from lift_events where lift_id = any($1::uuid[]) and seq >= $2 and code = 'RZGU') as stored,
            (select count(distinct (lift_id, seq)) from lift_events where lift_id = any($1::uuid[]) and seq >= $2 and code = 'RZGU') as distinct,
            (select coalesce(sum(trips_total), 0) from lifts where id = any($1::uuid[])) as trips`,
    [ids, fromSeq],
  );
  return { stored: Number(row!.stored), distinct: Number(row!.distinct), trips: Number(row!.trips) };
}

async function commandRoundTrips(server: ServerProcess, token: string, lifts: ProvisionedLift[], count = COMMANDS): Promise<number[]> {
  const times: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const lift = lifts[i % INGEST_LIFTS]!;
      const started = performance.now();
      const res = await server.api('POST', '/auth/access/lift/control', { liftId: lift.id, command: 'lock', args: { on: i % 2 === 0 } }, token);
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`command failed: ${res.status} ${JSON.stringify(res.body)}`);
      times.push(ms);
    }
  };
  await Promise.all(Array.from({ length: COMMAND_CONCURRENCY }, worker));
  return times.sort((a, b) => a - b);
}

async function pushLatencies(server: ServerProcess, token: string, lifts: ProvisionedLift[], ask: (req: FleetRequest) => Promise<unknown>): Promise<number[]> {
  const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws/live`, { headers: { cookie: `Access-Token=${token}` } });
  const latencies: number[] = [];
  let subscribed = false;
  socket.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString()) as { type: string; ts?: string; code?: string };
    if (m.type === 'subscribed') subscribed = true;
    if (m.type === 'event' && m.code === 'RZD1' && m.ts) latencies.push(Date.now() - Date.parse(m.ts));
  });
  await once(socket, 'open');
  socket.send(JSON.stringify({ type: 'subscribe', liftIds: lifts.slice(0, PUSH_LIFTS).map((l) => l.id) }));
  await until('subscribed', () => subscribed, 10_000, 20);
  await ask({ op: 'push', lifts: PUSH_LIFTS, everyMs: PUSH_EVERY_MS, durationMs: PUSH_MS, firstSeq: 9_000_000_000 });
  await new Promise((r) => setTimeout(r, 1_000));
  socket.close();
  return latencies.sort((a, b) => a - b);
}

async function runMode(mode: 'embedded' | 'postgres'): Promise<Result> {
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const env: Record<string, string> = { RATE_LIMIT_MAX: '1000000', HEARTBEAT_SECONDS: '600', COMMAND_WAIT_MS: '10000', LOG_LEVEL: 'warn' };
    let lifts: ProvisionedLift[];
    let brokerUrl: string;
    let countDb: () => Promise<Database>;
    let broker: PrivateMosquitto | undefined;
    if (mode === 'embedded') {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-bench-'));
      cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const db = await openPglite(dataDir);
      lifts = await prepare(db, LIFTS);
      await db.close();
      const mqttPort = await freePort();
      Object.assign(env, { DATA_DIR: dataDir, MQTT_PORT: String(mqttPort) });
      brokerUrl = `mqtt://127.0.0.1:${mqttPort}`;
      // PGlite is the server's own: counted after it stops.
      countDb = () => openPglite(dataDir);
    } else {
      const scratch = await createDatabase(ADMIN_URL);
      cleanup.push(scratch.drop);
      const db = await openPostgres(scratch.url);
      cleanup.push(() => db.close());
      lifts = await prepare(db, LIFTS);
      // Accounts written into the dynamic-security file before the start (Mosquitto 2.0 saves
      // its whole file after each command, which makes 15,000 commands take minutes); one
      // lift goes through the server's own broker admin as a check of that path.
      broker = await startMosquitto({ lifts: lifts.slice(1) });
      cleanup.push(() => broker!.destroy());
      const registrar = await brokerAdminFor(broker);
      await registrar.admin.setDeviceCredential(lifts[0]!.deviceNo, lifts[0]!.secret);
      await registrar.close();
      Object.assign(env, broker.env, { DATABASE_URL: scratch.url });
      brokerUrl = broker.url;
      countDb = async () => db;
    }
    log(`${mode}: ${lifts.length} lifts provisioned`);
    const server = await startServerProcess(env);
    log(`${mode}: server up`);
    cleanup.unshift(() => server.stop());
    // The lifts under test in one process, the merely connected rest in another: a process
    // holding 5,000 clients answers more slowly (GC), which would be measured as the server's.
    const fleet = await startFleet();
    const idleFleet = await startFleet();
    cleanup.unshift(async () => {
      fleet.child.kill('SIGKILL');
      idleFleet.child.kill('SIGKILL');
    });
    const status = sampleStatus('BENCH-00001');

    // (4) memory with every lift connected (each said presence and status).
    const rssBefore = rssMiB(server.child.pid!);
    const asFleet = (part: ProvisionedLift[]) => part.map((l) => ({ deviceNo: l.deviceNo, secret: l.secret }));
    const connectStarted = Date.now();
    const parts = await Promise.all([
      fleet.ask<{ connected: number }>({ op: 'connect', url: brokerUrl, lifts: asFleet(lifts.slice(0, INGEST_LIFTS)), status }),
      idleFleet.ask<{ connected: number }>({ op: 'connect', url: brokerUrl, lifts: asFleet(lifts.slice(INGEST_LIFTS)), status }),
    ]);
    const connected = { ms: Date.now() - connectStarted, connected: parts[0].connected + parts[1].connected };
    const token = await signIn(server);
    log(`${mode}: lifts connected, waiting until all are online`);
    await until('lifts online', async () => (await server.api<{ total: number }>('GET', '/auth/access/lift/get?online=true&pageSize=1', undefined, token)).body.result.total >= LIFTS, 60_000, 500);
    await new Promise((r) => setTimeout(r, 1_000));
    const rssMiB5000 = rssMiB(server.child.pid!);
    log(`${mode}: ${connected.connected} lifts connected in ${connected.ms} ms; server RSS ${rssBefore} -> ${rssMiB5000} MiB`);

    // Warm-up, not measured: a fresh process runs its first messages and commands through
    // the interpreter and cold caches; without this the short run measures mostly that.
    // (State events, not trips: the trip totals are the duplicate check of the measured run.)
    await fleet.ask({ op: 'ingest', lifts: INGEST_LIFTS, perLift: WARMUP_PER_LIFT, window: INGEST_WINDOW, firstSeq: 500_000, code: 'RZD1' });
    await commandRoundTrips(server, token, lifts, WARMUP_COMMANDS);
    log(`${mode}: warmed up (${INGEST_LIFTS * WARMUP_PER_LIFT} messages, ${WARMUP_COMMANDS} commands)`);

    // (1) ingest.
    const firstSeq = 1_000_000;
    const total = INGEST_LIFTS * INGEST_PER_LIFT;
    const ingestLifts = lifts.slice(0, INGEST_LIFTS);
    const baseline = mode === 'embedded' ? 0 : Number((await (await countDb()).sql.query<{ n: string }>('select coalesce(sum(events_total), 0) as n from lifts where id = any($1::uuid[])', [ingestLifts.map((l) => l.id)]))[0]!.n);
    const cpuParts = {
      server: () => cpuMs(server.child.pid),
      broker: () => cpuMs(broker?.pid),
      database: () => (mode === 'embedded' ? 0 : cpuMsByName('postgres')),
      lifts: () => cpuMs(fleet.child.pid),
    };
    const cpuBefore = Object.fromEntries(Object.entries(cpuParts).map(([k, read]) => [k, read()]));
    const started = performance.now();
    const sent = await fleet.ask<{ ms: number; acked: number; failed: number }>({ op: 'ingest', lifts: INGEST_LIFTS, perLift: INGEST_PER_LIFT, window: INGEST_WINDOW, firstSeq });
    let ingestMs: number;
    if (mode === 'embedded') {
      // The embedded broker acknowledges a message only after its commit.
      ingestMs = sent.ms;
    } else {
      // Persisted = counted in the lifts' run-log totals (a cheap probe that does not slow ingest down).
      const db = await countDb();
      const ids = ingestLifts.map((l) => l.id);
      const logged = async () => Number((await db.sql.query<{ n: string }>('select coalesce(sum(events_total), 0) as n from lifts where id = any($1::uuid[])', [ids]))[0]!.n);
      await until('events persisted', async () => (await logged()) >= baseline + sent.acked, 120_000, 50);
      ingestMs = performance.now() - started;
    }
    const ingestPerSec = Math.round((sent.acked / ingestMs) * 1000);
    // CPU per message of each part: on two shared cores, their sum bounds the rate.
    const cpuUsPerMsg = Object.fromEntries(Object.entries(cpuParts).map(([k, read]) => [k, Math.max(0, Math.round(((read() - cpuBefore[k]!) * 1000) / sent.acked))]));
    log(`${mode}: ingest ${sent.acked} of ${total} acknowledged (${sent.failed} failed) in ${Math.round(ingestMs)} ms; CPU µs per message ${JSON.stringify(cpuUsPerMsg)}`);

    // (2) command round trips.
    log(`${mode}: commands`);
    const cmd = await commandRoundTrips(server, token, lifts);
    // (3) live push.
    const pushes = await pushLatencies(server, token, lifts, fleet.ask);
    log(`${mode}: ${cmd.length} commands, ${pushes.length} pushes`);

    // The server first: 5,000 lifts saying goodbye would only measure the shutdown.
    await server.stop();
    fleet.child.kill('SIGKILL');
    idleFleet.child.kill('SIGKILL');
    const db = await countDb();
    const counts = await storedCounts(db, ingestLifts.map((l) => l.id), firstSeq);
    if (mode === 'embedded') await db.close();
    return {
      mode: mode === 'embedded' ? 'embedded' : 'postgres+mosquitto',
      ingestPerSec,
      lost: total - counts.distinct,
      duplicates: counts.stored - counts.distinct + (counts.trips - counts.distinct),
      cmdP50Ms: percentile(cmd, 50),
      cmdP95Ms: percentile(cmd, 95),
      cmdP99Ms: percentile(cmd, 99),
      pushP99Ms: percentile(pushes, 99),
      rssMiB5000,
      pushP50Ms: percentile(pushes, 50),
      connectMs: connected.ms,
      cpuUsPerMsg,
    };
  } finally {
    for (const step of cleanup) await step().catch((err: unknown) => log(`cleanup: ${String(err)}`));
  }
}

const results: Result[] = [];
for (const mode of MODES) {
  if (mode === 'postgres' && mosquittoMissing) {
    log(`postgres+mosquitto skipped: ${mosquittoMissing}`);
    continue;
  }
  const result = await runMode(mode);
  results.push(result);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
process.exit(results.length ? 0 : 1);
