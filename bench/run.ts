/**
 * `npm run bench`: the device path under load (issue 4), on the embedded mode (PGlite +
 * aedes in one process), on PostgreSQL + Mosquitto (dynamic security) and on PostgreSQL +
 * a three-node RabbitMQ cluster (BROKER=rabbitmq: lift accounts in the cluster, ingest from
 * a quorum queue). The server runs as its own process, as in production; the lifts are bare
 * MQTT connections in other processes (bench/lift-fleet.ts), provisioned straight into the
 * database and the broker; on the cluster each lift connects to its own node (lift i to
 * node i mod 3), so the fleet is spread as a load balancer would spread it.
 *
 *   (0) connect: time until every lift has its CONNACK and its first messages acknowledged,
 *       and until the server lists them all online
 *   (1) ingest: 1,000 lifts publish run-log events as fast as they are taken (each keeps a
 *       window in flight); messages persisted per second, lost and duplicated counts
 *   (2) command round trip through the HTTP API with every lift connected and reporting
 *       its status every BENCH_REPORT_EVERY_MS (5,000; 0 for quiet lifts): p50/p95/p99
 *   (3) lift-to-browser live push over the WebSocket to BENCH_BROWSERS (50) browsers,
 *       each watching the same 20 lifts, the fleet still reporting: p50/p99 over every
 *       delivery; then the status reports acknowledged per second (`reportsPerSec`, the
 *       fleet's offered load: LIFTS / 5 s) and those never acknowledged; on PostgreSQL the
 *       WAL written a second meanwhile (`walKiBPerSec`)
 *   (4) server memory (RSS) with every lift connected; the broker's (Mosquitto, the three
 *       RabbitMQ nodes together) too
 *
 * Figures, not assertions. BENCH_LIFTS (5,000) lifts; BENCH_QUICK=1 runs a shorter version
 * (about a minute per mode at 5,000 lifts). BENCH_MODES=embedded,postgres,rabbitmq picks
 * modes; BENCH_DATABASE_URL (or TEST_DATABASE_URL) the PostgreSQL server that gets a scratch
 * database. Each mode prints one JSON line; the last line is JSON.
 *
 * Every lift is a socket: the broker process (the embedded server, Mosquitto, each RabbitMQ
 * node) needs that many open files. The soft limit is raised to what the run needs (every
 * process started here inherits it); above the hard limit a mode is skipped with the reason.
 */
import { walBytesBetween, walPosition } from './wal.ts';
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { percentile } from './stats.ts';
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
import { rabbitmqMissing, rabbitmqServerEnv, startBrokerCluster, type BrokerCluster } from '../apps/server/test/support/broker-cluster.ts';
import { rabbitmqBrokerAdmin } from '../apps/server/src/modules/broker/rabbitmq-admin.ts';
import { RabbitApi } from '../apps/server/src/modules/broker/rabbitmq-api.ts';
import { benchMemoryWatermarkBytes, importLiftAccounts, nodePids, nodesInfo, recordLiftRightsCurrent, watchAlarms } from './rabbitmq-setup.ts';
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
const BROWSERS = Number(process.env.BENCH_BROWSERS ?? 50);
/** Lifts per process that only stays connected: each is a socket, and a process has a limit of open files. */
const IDLE_PER_FLEET = 10_000;
const PUSH_EVERY_MS = 50;
const PUSH_MS = quick ? 3_000 : 20_000;
/** While commands and pushes are measured, every lift reports its status this often (a fleet in service); 0: quiet lifts. */
const REPORT_EVERY_MS = Number(process.env.BENCH_REPORT_EVERY_MS ?? 5_000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
type Mode = 'embedded' | 'postgres' | 'rabbitmq';
const MODES = (process.env.BENCH_MODES ?? 'embedded,postgres,rabbitmq').split(',').map((m) => m.trim()) as Mode[];
const MODE_NAMES: Record<Mode, string> = { embedded: 'embedded', postgres: 'postgres+mosquitto', rabbitmq: 'postgres+rabbitmq-cluster' };

interface Result {
  mode: string;
  lifts: number;
  ingestPerSec: number;
  lost: number;
  duplicates: number;
  cmdP50Ms: number;
  cmdP95Ms: number;
  cmdP99Ms: number;
  pushP99Ms: number;
  /** Server RSS with every lift connected. */
  serverRssMiB: number;
  [extra: string]: unknown;
}

const T0 = Date.now();
const log = (line: string) => process.stderr.write(`bench: [${((Date.now() - T0) / 1000).toFixed(1)} s] ${line}\n`);

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

function openFiles(pid: number | undefined): number | null {
  try {
    return pid === undefined ? null : readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return null;
  }
}

function openFilesLimit(): { soft: number; hard: number } {
  const m = /Max open files\s+(\S+)\s+(\S+)/.exec(readFileSync('/proc/self/limits', 'utf8'))!;
  const n = (v: string) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: n(m[1]!), hard: n(m[2]!) };
}

/**
 * Open files the busiest process of the mode needs: the broker's lift connections (the
 * cluster's spread over three nodes) plus its own. The embedded server holds 160 to 200
 * besides its lifts (PGlite, its worker, the runtime; more with more lifts), then the
 * browsers' sockets and the HTTP connections (19,750 lifts and 50 browsers did not fit in 20,000); Mosquitto a dozen; a RabbitMQ node its queues' and logs' files.
 */
function filesNeeded(mode: Mode): number {
  const [brokerSockets, own] = mode === 'embedded' ? [LIFTS, 400 + BROWSERS] : mode === 'postgres' ? [LIFTS, 100] : [Math.ceil(LIFTS / 3), 1_000];
  return Math.max(brokerSockets + own, IDLE_PER_FLEET + 100);
}

/** Raises the soft limit of this process (and so of all it starts) to `need`; null, or why that is not allowed. */
function ensureOpenFiles(need: number): string | null {
  const { soft, hard } = openFilesLimit();
  if (soft >= need) return null;
  if (hard < need) {
    return `needs about ${need} open files in one process, the hard limit is ${hard} (ulimit -Hn; raise it as root, e.g. LimitNOFILE= of the service or /etc/security/limits.conf)`;
  }
  execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${need}:${hard}`]);
  log(`open files: soft limit ${soft} -> ${need}`);
  return null;
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

/**
 * Command round trips, COMMAND_CONCURRENCY in flight. A command the lift's answer did not
 * reach in time (504 lift.timeout: the server could not store the answers as fast as they
 * came) counts with the time it took and in `timedOut`; any other failure stops the run.
 */
async function commandRoundTrips(server: ServerProcess, token: string, lifts: ProvisionedLift[], count = COMMANDS): Promise<{ times: number[]; timedOut: number }> {
  const times: number[] = [];
  let timedOut = 0;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const lift = lifts[i % INGEST_LIFTS]!;
      const started = performance.now();
      const res = await server.api('POST', '/auth/access/lift/control', { liftId: lift.id, command: 'lock', args: { on: i % 2 === 0 } }, token);
      const ms = performance.now() - started;
      if (res.status === 504 && res.body.code === 'lift.timeout') timedOut++;
      else if (res.status !== 200) throw new Error(`command failed: ${res.status} ${JSON.stringify(res.body)}`);
      times.push(ms);
    }
  };
  await Promise.all(Array.from({ length: COMMAND_CONCURRENCY }, worker));
  return { times: times.sort((a, b) => a - b), timedOut };
}

/**
 * BROWSERS live sockets, each subscribed to the same PUSH_LIFTS lifts (a control room of
 * browsers watching the busy lifts), while those lifts report an event every PUSH_EVERY_MS.
 * Latency: from the lift's `ts` to the browser's receipt, over every delivery.
 */
async function pushLatencies(
  server: ServerProcess,
  token: string,
  lifts: ProvisionedLift[],
  ask: <T>(req: FleetRequest) => Promise<T>,
): Promise<{ latencies: number[]; sent: number; delivered: number; byLift: Map<string, number>; acked?: number; unacked?: unknown[] }> {
  const latencies: number[] = [];
  const byLift = new Map<string, number>();
  const liftIds = lifts.slice(0, PUSH_LIFTS).map((l) => l.id);
  const sockets = await Promise.all(
    Array.from({ length: BROWSERS }, async () => {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/ws/live`, { headers: { cookie: `Access-Token=${token}` } });
      let subscribed = false;
      socket.on('message', (raw: Buffer) => {
        const m = JSON.parse(raw.toString()) as { type: string; ts?: string; code?: string; liftId?: string };
        if (m.type === 'subscribed') subscribed = true;
        if (m.type === 'event' && m.code === 'RZD1' && m.ts) {
          latencies.push(Date.now() - Date.parse(m.ts));
          byLift.set(m.liftId!, (byLift.get(m.liftId!) ?? 0) + 1);
        }
      });
      // A refused socket (the server out of open files, say) fails the run with its reason.
      const failed = new Promise<never>((_, reject) => socket.on('error', (err) => reject(new Error(`browser socket: ${err.message}`))));
      failed.catch(() => undefined);
      await Promise.race([once(socket, 'open'), failed]);
      socket.send(JSON.stringify({ type: 'subscribe', liftIds }));
      await until('subscribed', () => subscribed, 30_000, 20);
      return socket;
    }),
  );
  const { sent, acked, unacked, deviceNos } = await ask<{ sent: number; acked?: number; unacked?: unknown[]; deviceNos: string[] }>({ op: 'push', lifts: PUSH_LIFTS, everyMs: PUSH_EVERY_MS, durationMs: PUSH_MS, firstSeq: 9_000_000_000 });
  // The browsers watch (and pushStored counts) these lifts: any other pushing lift would read as lost events.
  const watched = lifts.slice(0, PUSH_LIFTS).map((l) => l.deviceNo);
  if (deviceNos.join() !== watched.join()) throw new Error(`the pushing lifts ${deviceNos.join(',')} are not the watched ones ${watched.join(',')}`);
  // Every delivery, or 10 s after the last event: what is missing then is reported as missing.
  await until('pushes delivered', () => latencies.length >= sent * BROWSERS, 10_000, 50).catch(() => undefined);
  for (const socket of sockets) socket.close();
  return { latencies: latencies.sort((a, b) => a - b), sent, delivered: latencies.length, byLift, acked, unacked };
}

/** Every line the server logs from here on (LOG_LEVEL=warn: warnings and errors), for the report. */
function watchServerLog(server: ServerProcess): string[] {
  const lines: string[] = [];
  let rest = '';
  const take = (d: Buffer) => {
    const parts = (rest + d.toString()).split('\n');
    rest = parts.pop()!;
    for (const line of parts) if (line.trim()) lines.push(line.slice(0, 600));
  };
  server.child.stdout!.on('data', take);
  server.child.stderr!.on('data', take);
  return lines;
}

async function runMode(mode: Mode): Promise<Result> {
  const cleanup: (() => Promise<void>)[] = [];
  try {
    const env: Record<string, string> = { RATE_LIMIT_MAX: '1000000', HEARTBEAT_SECONDS: '600', COMMAND_WAIT_MS: '10000', LOG_LEVEL: 'warn' };
    let lifts: ProvisionedLift[];
    let brokerUrl: string;
    /** The cluster's nodes: lift i connects to node i mod 3. */
    let nodeUrls: string[] = [];
    let countDb: () => Promise<Database>;
    let broker: PrivateMosquitto | undefined;
    let cluster: BrokerCluster | undefined;
    let accountsMs: number | undefined;
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
    } else if (mode === 'rabbitmq') {
      const scratch = await createDatabase(ADMIN_URL);
      cleanup.push(scratch.drop);
      const db = await openPostgres(scratch.url);
      cleanup.push(() => db.close());
      lifts = await prepare(db, LIFTS);
      const watermark = benchMemoryWatermarkBytes();
      cluster = await startBrokerCluster('rabbitmq', { memoryWatermarkBytes: watermark });
      cleanup.push(() => cluster!.destroy());
      log(`${mode}: cluster formed, memory watermark ${Math.round(watermark / 2 ** 20)} MiB per node`);
      // The accounts in bulk (a definitions import), one lift through the server's own
      // broker admin (management API) as a check of that path.
      const accountsStarted = Date.now();
      await importLiftAccounts(cluster.apiUrls[0]!, cluster.server, lifts.slice(1));
      await rabbitmqBrokerAdmin(new RabbitApi(cluster.apiUrls, cluster.server.username, cluster.server.password)).setDeviceCredential(lifts[0]!.deviceNo, lifts[0]!.secret);
      accountsMs = Date.now() - accountsStarted;
      await recordLiftRightsCurrent(db.sql);
      Object.assign(env, {
        DATABASE_URL: scratch.url,
        ...rabbitmqServerEnv(cluster),
      });
      nodeUrls = cluster.mqttUrls;
      brokerUrl = nodeUrls[0]!;
      countDb = async () => db;
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
    log(`${mode}: ${lifts.length} lifts provisioned${accountsMs === undefined ? '' : `, their broker accounts in ${accountsMs} ms`}`);
    // A CPU profile of the server (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR",
    // read with bench/cpu-profile.ts) and its metrics on a fixed port, for when a figure drops.
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    if (process.env.BENCH_METRICS_PORT) env.METRICS_PORT = process.env.BENCH_METRICS_PORT;
    const server = await startServerProcess(env, { timeoutMs: 120_000, nodeArgs });
    const serverLog = watchServerLog(server);
    log(`${mode}: server up`);
    cleanup.unshift(() => server.stop());
    const brokerRssMiB = () => (cluster ? Math.round(cluster.rssBytes() / 2 ** 20) : broker?.pid ? rssMiB(broker.pid) : null);
    // The lifts under test in one process, the merely connected rest in others: a process
    // holding 5,000 clients answers more slowly (GC), which would be measured as the server's.
    const fleet = await startFleet();
    const idleLifts = lifts.slice(INGEST_LIFTS);
    const idleFleets = await Promise.all(Array.from({ length: Math.ceil(idleLifts.length / IDLE_PER_FLEET) }, () => startFleet()));
    const killFleets = () => {
      for (const f of [fleet, ...idleFleets]) f.child.kill('SIGKILL');
    };
    cleanup.unshift(async () => killFleets());
    const status = sampleStatus('BENCH-00001');

    // (0) connect, (4) memory with every lift connected (each said presence and status).
    const rssBefore = rssMiB(server.child.pid!);
    const brokerRssBefore = brokerRssMiB();
    const asFleet = (part: ProvisionedLift[], offset: number) =>
      part.map((l, i) => ({ deviceNo: l.deviceNo, secret: l.secret, ...(nodeUrls.length ? { url: nodeUrls[(offset + i) % nodeUrls.length] } : {}) }));
    const token = await signIn(server);
    const onlineCount = async () => (await server.api<{ total: number }>('GET', '/auth/access/lift/get?online=true&pageSize=1', undefined, token)).body.result.total;
    const connectStarted = Date.now();
    const alarms = cluster ? watchAlarms(cluster.apiUrls[0]!, cluster.server) : null;
    // A cluster in memory alarm blocks the connects: the run stops with what to change.
    const unlessStuck = <T>(work: Promise<T>): Promise<T> => (alarms ? Promise.race([work, alarms.stuck]) : work);
    const parts = await unlessStuck(Promise.all([
      fleet.ask<{ connected: number }>({ op: 'connect', url: brokerUrl, lifts: asFleet(lifts.slice(0, INGEST_LIFTS), 0), status }),
      ...idleFleets.map((f, k) => {
        const offset = INGEST_LIFTS + k * IDLE_PER_FLEET;
        return f.ask<{ connected: number }>({ op: 'connect', url: brokerUrl, lifts: asFleet(idleLifts.slice(k * IDLE_PER_FLEET, (k + 1) * IDLE_PER_FLEET), offset), status });
      }),
    ]));
    const connected = { ms: Date.now() - connectStarted, connected: parts.reduce((n, p) => n + p.connected, 0) };
    log(`${mode}: ${connected.connected} lifts connected in ${connected.ms} ms, waiting until all are online`);
    await unlessStuck(until('lifts online', async () => (await onlineCount()) >= LIFTS, Math.max(60_000, LIFTS * 10), 250));
    const onlineMs = Date.now() - connectStarted;
    await new Promise((r) => setTimeout(r, 1_000));
    const serverRssMiB = rssMiB(server.child.pid!);
    const brokerRss = brokerRssMiB();
    // The process holding the lift connections: the embedded server, or Mosquitto.
    const brokerProcessFiles = openFiles(mode === 'embedded' ? server.child.pid : broker?.pid);
    const serverFiles = openFiles(server.child.pid);
    // RabbitMQ's own view: memory per node and whether it blocks publishers (its alarm).
    const clusterMemory = async () => (cluster ? (await nodesInfo(cluster.apiUrls[0]!, cluster.server)).map((n) => ({ usedMiB: Math.round(n.mem_used / 2 ** 20), alarm: n.mem_alarm })) : undefined);
    const nodeMemory = await clusterMemory();
    if (nodeMemory) log(`${mode}: nodes' memory ${JSON.stringify(nodeMemory)}`);
    log(
      `${mode}: all ${LIFTS} online after ${onlineMs} ms; server RSS ${rssBefore} -> ${serverRssMiB} MiB` +
        (brokerRss === null ? '' : `; broker RSS ${brokerRssBefore} -> ${brokerRss} MiB`) +
        `; open files: server ${serverFiles}${mode === 'postgres' ? `, Mosquitto ${brokerProcessFiles}` : ''}`,
    );

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
    const brokerPids = cluster ? await nodePids(cluster.apiUrls[0]!, cluster.server) : [broker?.pid];
    const cpuParts = {
      server: () => cpuMs(server.child.pid),
      broker: () => brokerPids.reduce((sum: number, pid) => sum + cpuMs(pid), 0),
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

    // (2) and (3) with the whole fleet in service: every lift reports its status every
    // REPORT_EVERY_MS (one period first, so the load is steady when measuring starts).
    const fleets = [fleet, ...idleFleets];
    if (REPORT_EVERY_MS > 0) {
      await Promise.all(fleets.map((f) => f.ask({ op: 'report', everyMs: REPORT_EVERY_MS })));
      await new Promise((r) => setTimeout(r, REPORT_EVERY_MS));
      log(`${mode}: every lift reports its status every ${REPORT_EVERY_MS} ms`);
    }
    // PostgreSQL's WAL over the commands and pushes: what a replica, the backups and the disk carry.
    const walDb = mode === 'embedded' ? null : await countDb();
    const walFrom = walDb ? { lsn: await walPosition(walDb.sql), at: Date.now() } : null;
    // (2) command round trips.
    log(`${mode}: commands`);
    const { times: cmd, timedOut: cmdTimedOut } = await commandRoundTrips(server, token, lifts);
    // (3) live push.
    const push = await pushLatencies(server, token, lifts, fleet.ask);
    const pushes = push.latencies;
    log(`${mode}: ${cmd.length} commands (${cmdTimedOut} timed out); ${push.sent} events pushed to ${BROWSERS} browsers, ${push.delivered} of ${push.sent * BROWSERS} deliveries`);
    const reports = (await Promise.all(fleets.map((f) => f.ask<{ ms: number; sent: number; acked: number; failed: number }>({ op: 'reportStop' })))).reduce(
      (sum, r) => ({ ms: Math.max(sum.ms, r.ms), sent: sum.sent + r.sent, acked: sum.acked + r.acked, failed: sum.failed + r.failed }),
      { ms: 0, sent: 0, acked: 0, failed: 0 },
    );
    const reportsPerSec = reports.ms ? Math.round((reports.acked / reports.ms) * 1000) : 0;
    const walKiBPerSec =
      walDb && walFrom ? Math.round((await walBytesBetween(walDb.sql, walFrom.lsn, await walPosition(walDb.sql))) / 1024 / ((Date.now() - walFrom.at) / 1000)) : null;
    if (REPORT_EVERY_MS > 0) log(`${mode}: status reports ${reports.acked} of ${reports.sent} acknowledged (${reports.failed} failed) over ${reports.ms} ms: ${reportsPerSec} a second`);
    const stillOnline = await onlineCount();
    const alarmed = alarms?.stop();
    // Lifts whose connection ended during the run (none should: nothing here closes them).
    const closed = (await Promise.all([fleet, ...idleFleets].map((f) => f.ask<{ closed?: { deviceNo: string; at: number }[] }>({ op: 'closed' }).catch(() => ({ closed: undefined }))))).flatMap((r) => r.closed ?? []);
    if (closed.length) log(`${mode}: ${closed.length} lift connections ended during the run, first ${JSON.stringify(closed.slice(0, 5).map((c) => ({ ...c, at: new Date(c.at).toISOString() })))}`);
    // Deliveries per pushing lift, summed over the browsers (each lift sent sent/PUSH_LIFTS events).
    const pushPerLift = lifts.slice(0, PUSH_LIFTS).map((l) => push.byLift.get(l.id) ?? 0);
    const nodeMemoryEnd = await clusterMemory();
    const serverRssEnd = rssMiB(server.child.pid!);

    // The server first: thousands of lifts saying goodbye would only measure the shutdown.
    const logLines = [...serverLog];
    await server.stop();
    killFleets();
    const db = await countDb();
    const counts = await storedCounts(db, ingestLifts.map((l) => l.id), firstSeq);
    // The pushed events as stored: fewer than sent means ingest lost them, not only the live path.
    const pushStored = Number((await db.sql.query<{ n: string }>(`select count(distinct (lift_id, seq)) as n from lift_events where lift_id = any($1::uuid[]) and seq >= 9000000000 and code = 'RZD1'`, [lifts.slice(0, PUSH_LIFTS).map((l) => l.id)]))[0]!.n);
    if (mode === 'embedded') await db.close();
    return {
      mode: MODE_NAMES[mode],
      lifts: LIFTS,
      ingestPerSec,
      lost: total - counts.distinct,
      duplicates: counts.stored - counts.distinct + (counts.trips - counts.distinct),
      reportEveryMs: REPORT_EVERY_MS,
      reportsPerSec,
      reportsUnacked: reports.sent - reports.acked,
      walKiBPerSec,
      cmdP50Ms: percentile(cmd, 50),
      cmdP95Ms: percentile(cmd, 95),
      cmdP99Ms: percentile(cmd, 99),
      cmdTimedOut,
      pushP99Ms: percentile(pushes, 99),
      serverRssMiB,
      brokerRssMiB: brokerRss,
      connectMs: connected.ms,
      onlineMs,
      pushP50Ms: percentile(pushes, 50),
      browsers: BROWSERS,
      pushDeliveries: push.delivered,
      pushMissing: push.sent * BROWSERS - push.delivered,
      pushSent: push.sent,
      pushAcked: push.acked,
      ...(push.unacked?.length ? { pushUnacked: push.unacked } : {}),
      liftsDisconnected: closed.length,
      ...(closed.length ? { disconnectedFirst: closed.slice(0, 10).map((c) => ({ deviceNo: c.deviceNo, at: new Date(c.at).toISOString() })) } : {}),
      pushStored,
      ...(push.delivered < push.sent * BROWSERS ? { pushPerLift } : {}),
      ...(alarmed ? { alarmFirstMs: alarmed.firstMs, alarmedMs: alarmed.alarmedMs } : {}),
      // Lifts the server still listed online after the run (all of them stayed connected).
      onlineAtEnd: stillOnline,
      serverRssEndMiB: serverRssEnd,
      serverFiles,
      ...(mode === 'postgres' ? { mosquittoFiles: brokerProcessFiles } : {}),
      ...(accountsMs === undefined ? {} : { accountsMs, nodeMemory, nodeMemoryEnd }),
      cpuUsPerMsg,
      serverLogLines: logLines.length,
      serverLog: logLines.slice(0, 5),
    };
  } finally {
    for (const step of cleanup) await step().catch((err: unknown) => log(`cleanup: ${String(err)}`));
  }
}

const results: Result[] = [];
for (const mode of MODES) {
  if (!(mode in MODE_NAMES)) throw new Error(`BENCH_MODES: unknown mode ${mode} (embedded, postgres, rabbitmq)`);
  const missing = (mode === 'postgres' && mosquittoMissing) || (mode === 'rabbitmq' && rabbitmqMissing) || ensureOpenFiles(filesNeeded(mode));
  if (missing) {
    log(`${MODE_NAMES[mode]} with ${LIFTS} lifts skipped: ${missing}`);
    continue;
  }
  const result = await runMode(mode);
  results.push(result);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
process.exit(results.length ? 0 : 1);
