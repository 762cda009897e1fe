/**
 * `npm run bench:reconnect-storm`: a whole fleet loses its broker at one instant and comes
 * back (docs/protocol.md 1.1, docs/operations.md 15.9). BENCH_LIFTS (20,000) lifts, each a
 * bare MQTT connection (bench/raw-lift.ts) that reconnects by the lifts' own rule
 * (`ReconnectBackoff` of @liftlink/protocol: first try in [0, 10 s), full-jitter backoff,
 * base 5 s, cap 60 s, refused logins 30–60 s), in child processes of their own (this file,
 * forked with the argument `lifts`; 8,000 lifts each, as each socket is an open file there
 * too) so their event loop is not the measuring one.
 *
 *   embedded:  the server on its defaults (PGlite + the in-process broker); the broker goes
 *              away = the server process is stopped (SIGTERM) and started again on the same
 *              data folder and ports.
 *   mosquitto: PostgreSQL (a scratch database) + a private Mosquitto with dynamic security
 *              and an account per lift + the server (MQTT_URL); the broker is killed
 *              (SIGKILL) and started again.
 *   rabbitmq:  PostgreSQL (a scratch database) + a private three-node RabbitMQ cluster
 *              (BROKER=rabbitmq, docs/operations.md 15) with an account per lift + the
 *              server; each lift's broker address lists the three nodes, starting at node
 *              i mod 3, and it tries them in turn. The cluster stays up; the lifts' network
 *              goes away for BENCH_OUTAGE_S (10) seconds and comes back: every lift leaves
 *              its connection behind as it is (the broker still holds it) and reconnects by
 *              the rule, its tries failing until the network is back; the broker ends each
 *              old connection when its lift logs in again (a session takeover). (The loss
 *              of one node, its lifts coming back through the other two, and a rolling
 *              restart are failure tests: apps/server/test/rabbitmq-cluster.test.ts.)
 *
 * Per mode: the time until all lifts are connected the first time; then, from the moment the
 * broker accepts connections again, the time until 50/90/99/100 % of the lifts are connected
 * again (the lifts' view) and until the server's database has them online with their new
 * session (the server's view: embedded, the PUBACK of the lift's online message, which the
 * embedded broker sends only after the commit; mosquitto, a count in PostgreSQL); tries
 * refused by CONNACK code, timed out and failed at TCP; the peak tries per second; the
 * server's warnings and errors in its log (level ≥ 40); the server's RSS and CPU during the
 * storm. Figures, not assertions: one JSON line per mode on stdout, a table at the end.
 *
 * BENCH_MODES=embedded,mosquitto picks modes; BENCH_DATABASE_URL (or TEST_DATABASE_URL) the
 * PostgreSQL server that gets the scratch database; BENCH_STORM_TIMEOUT_S (300; rabbitmq 900) how long
 * a storm may take. The open-file limit is raised for this process and its children (prlimit:
 * needs CAP_SYS_RESOURCE or a high enough hard limit; else `ulimit -n` before). The process
 * holding the lifts' connections (the server when embedded, else Mosquitto) needs one file
 * per lift plus its own: with a hard limit of 20,000 the last lifts of 20,000 never get in
 * (they go on trying by the rule); the storm's shares are of the lifts that got in.
 */
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECONNECT_RULE, liftTopic } from '@liftlink/protocol';
import {
  ConnectRefusedError,
  ConnectTimeoutError,
  ReconnectingLift,
  type RawLift,
} from './raw-lift.ts';
import { cpuMs, cpuMsByName } from './cpu.ts';

const LIFTS = Number(process.env.BENCH_LIFTS ?? 20_000);
const MODES = (process.env.BENCH_MODES ?? 'embedded,mosquitto,rabbitmq')
  .split(',')
  .map((m) => m.trim()) as Mode[];
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/postgres';
/** How long a storm may take: a RabbitMQ 3.10 cluster takes lifts in at under 100 a second. */
const stormTimeoutMs = (mode: Mode) =>
  Number(process.env.BENCH_STORM_TIMEOUT_S ?? (mode === 'rabbitmq' ? 900 : 300)) * 1000;
/** docs/protocol.md 1.1: a try fails when the CONNACK does not come within the rule's connect timeout (`BENCH_CONNACK_TIMEOUT_S` to try another limit). */
const CONNECT_TIMEOUT_MS = process.env.BENCH_CONNACK_TIMEOUT_S ? Number(process.env.BENCH_CONNACK_TIMEOUT_S) * 1000 : RECONNECT_RULE.connectTimeoutMs;
/** rabbitmq: how long the lifts' network is away. */
const OUTAGE_MS = Number(process.env.BENCH_OUTAGE_S ?? 10) * 1000;
/** How long the first connection of the whole fleet may take (a RabbitMQ 3.10 cluster takes lifts in at under 100 a second, docs/operations.md 7.1). */
const firstConnectTimeoutMs = (mode: Mode) => (mode === 'rabbitmq' ? 900_000 : 180_000);
/** Lifts per process of lifts: each lift is an open file there too. */
const LIFTS_PER_PROCESS = 8_000;
/** Lifts, server, broker, a few files each: every lift is one socket in three processes. */
const FD_LIMIT = Math.max(4_096, LIFTS + 10_000);

type Mode = 'embedded' | 'mosquitto' | 'rabbitmq';
const MODE_NAMES: Record<Mode, string> = {
  embedded: 'embedded',
  mosquitto: 'postgres+mosquitto',
  rabbitmq: 'postgres+rabbitmq-cluster',
};

// ---------------------------------------------------------------- the lifts' process

interface StormLift {
  deviceNo: string;
  secret: string;
  /** The lift's own broker address (a cluster's nodes in its order); else the request's. */
  address?: string;
}

type LiftsRequest =
  | { id: number; op: 'start'; url: string; lifts: StormLift[]; timeoutMs: number }
  | { id: number; op: 'mark'; floor: number }
  | { id: number; op: 'cut'; outageMs: number }
  | { id: number; op: 'progress' }
  | { id: number; op: 'result' }
  | { id: number; op: 'stop' };

interface StormCounts {
  tries: number;
  connected: number;
  timedOut: number;
  tcpFailed: number;
  /** CONNACK return code → tries refused with it. */
  refused: Record<string, number>;
  lost: number;
}

interface LiftsResult extends StormCounts {
  /** Since the mark: each lift's first accepted connection (ms since epoch; null: none). */
  connectedAt: (number | null)[];
  /** Since the mark: the broker's PUBACK of each lift's online message. */
  presenceAckedAt: (number | null)[];
  /** Tries per second since the mark (index 0 = the mark's second). */
  triesPerSecond: number[];
  /** When the refused tries were answered (ms since epoch). */
  refusedAt: number[];
  markedAt: number;
  /** The first session reserved after the mark: the server's rows at or above it are the storm's. */
  sessionFloor: number;
}

function liftsProcess(): void {
  // A lift's sessions and seqs only grow (docs/protocol.md 4.3): this process's start in µs, then one per use.
  let counter = Date.now() * 1000;
  const next = () => ++counter;
  let entries: {
    lift: StormLift;
    client: ReconnectingLift;
    connectedAt: number | null;
    presenceAckedAt: number | null;
  }[] = [];
  let counts: StormCounts = {
    tries: 0,
    connected: 0,
    timedOut: 0,
    tcpFailed: 0,
    refused: {},
    lost: 0,
  };
  let triesPerSecond: number[] = [];
  let refusedAt: number[] = [];
  let markedAt = Date.now();
  let sessionFloor = counter + 1;

  const online = (entry: (typeof entries)[number], client: RawLift, session: number) => {
    const { deviceNo } = entry.lift;
    // Pipelined, as a lift does after CONNACK: subscribe, presence (retained), first status.
    client.subscribe(liftTopic(deviceNo, 'cmd'), 1).catch(() => {});
    const ts = new Date().toISOString();
    client.publish(
      liftTopic(deviceNo, 'presence'),
      JSON.stringify({ seq: next(), ts, online: true, session, firmware: 'BENCH-1' }),
      1,
      (err) => {
        if (!err && entry.presenceAckedAt === null) entry.presenceAckedAt = Date.now();
      },
      true,
    );
    client.publish(
      liftTopic(deviceNo, 'status'),
      JSON.stringify({ seq: next(), ts, status: sampleStatus }),
      1,
    );
  };

  let sampleStatus: unknown = null;
  const start = async (
    url: string,
    lifts: StormLift[],
    timeoutMs: number,
  ): Promise<Record<string, unknown>> => {
    const { LiftMachine } = await import('../apps/simulator/src/lift-machine.ts');
    sampleStatus = new LiftMachine({
      deviceNo: 'BENCH-00001',
      kind: 'inclinedStraightRack',
      floors: 2,
      now: Date.now(),
      random: Math.random,
    }).status();
    const started = Date.now();
    const firstConnections: Promise<void>[] = [];
    for (const lift of lifts) {
      let session = 0;
      let resolveFirst!: () => void;
      firstConnections.push(new Promise<void>((r) => (resolveFirst = r)));
      const entry = {
        lift,
        connectedAt: null as number | null,
        presenceAckedAt: null as number | null,
        client: new ReconnectingLift(lift.address ?? url, {
          options: () => {
            // At every try the lift reserves a new session and puts it in its will (docs/protocol.md 4.3).
            session = next();
            return {
              clientId: lift.deviceNo,
              username: lift.deviceNo,
              password: lift.secret,
              keepaliveSeconds: 120,
              connectTimeoutMs: CONNECT_TIMEOUT_MS,
              will: {
                topic: liftTopic(lift.deviceNo, 'presence'),
                payload: JSON.stringify({
                  seq: session,
                  ts: new Date().toISOString(),
                  online: false,
                  session,
                }),
                qos: 1,
                retain: true,
              },
            };
          },
          onTry: () => {
            counts.tries++;
            const second = Math.floor((Date.now() - markedAt) / 1000);
            if (second >= 0) triesPerSecond[second] = (triesPerSecond[second] ?? 0) + 1;
          },
          onConnected: (client) => {
            counts.connected++;
            if (entry.connectedAt === null) entry.connectedAt = Date.now();
            online(entry, client, session);
            resolveFirst();
          },
          onFailed: (err) => {
            if (err instanceof ConnectRefusedError) {
              counts.refused[err.code] = (counts.refused[err.code] ?? 0) + 1;
              refusedAt.push(Date.now());
            } else if (err instanceof ConnectTimeoutError) counts.timedOut++;
            else counts.tcpFailed++;
          },
          onLost: () => counts.lost++,
        }),
      };
      entries.push(entry);
    }
    // Power-on in steps of 500 (a fleet is not switched on in one instant); a lift whose first
    // try fails goes on by the rule, and this waits until every lift is connected, or gives up
    // after `timeoutMs` (the lifts that are not in by then go on trying).
    const giveUp = new Promise<void>((r) => setTimeout(r, timeoutMs).unref());
    for (let i = 0; i < entries.length; i += 500) {
      entries.slice(i, i + 500).forEach((e) => e.client.start());
      await Promise.race([Promise.all(firstConnections.slice(i, i + 500)), giveUp]);
    }
    const ms = Date.now() - started;
    const connected = entries.filter((e) => e.connectedAt !== null);
    return {
      ms,
      ...counts,
      firstConnected: connected.length,
      lastConnectedMs: Math.max(0, ...connected.map((e) => e.connectedAt! - started)),
    };
  };

  const mark = (floor: number) => {
    markedAt = Date.now();
    // One floor for all the lifts' processes: sessions from here on are at or above it.
    counter = Math.max(counter, floor - 1);
    sessionFloor = counter + 1;
    counts = { tries: 0, connected: 0, timedOut: 0, tcpFailed: 0, refused: {}, lost: 0 };
    triesPerSecond = [];
    refusedAt = [];
    for (const e of entries) {
      e.connectedAt = null;
      e.presenceAckedAt = null;
    }
    return { markedAt, sessionFloor };
  };

  process.on('message', (msg: LiftsRequest) => {
    const run = async (): Promise<Record<string, unknown>> => {
      switch (msg.op) {
        case 'start':
          return start(msg.url, msg.lifts, msg.timeoutMs);
        case 'mark':
          return mark(msg.floor);
        case 'cut':
          for (const e of entries) e.client.cutNetwork(msg.outageMs);
          return {};
        case 'progress':
          return {
            ...counts,
            connectedNow: entries.filter((e) => e.client.lift?.connected).length,
            reconnected: entries.filter((e) => e.connectedAt !== null).length,
            presenceAcked: entries.filter((e) => e.presenceAckedAt !== null).length,
          };
        case 'result': {
          const result: LiftsResult = {
            ...counts,
            connectedAt: entries.map((e) => e.connectedAt),
            presenceAckedAt: entries.map((e) => e.presenceAckedAt),
            triesPerSecond: Array.from(triesPerSecond, (n) => n ?? 0),
            refusedAt,
            markedAt,
            sessionFloor,
          };
          return result as unknown as Record<string, unknown>;
        }
        case 'stop':
          for (const e of entries) e.client.stop();
          entries = [];
          return {};
      }
    };
    run().then(
      (result) => process.send!({ id: msg.id, ok: true, result }),
      (err: unknown) =>
        process.send!({
          id: msg.id,
          ok: false,
          error: err instanceof Error ? err.message : String(err),
        }),
    );
  });
  process.send!({ id: 0, ok: true, result: {} });
}

// ---------------------------------------------------------------- the measuring process

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface LiftsProcess {
  child: ChildProcess;
  ask: <T = Record<string, unknown>>(req: WithoutId<LiftsRequest>) => Promise<T>;
}

async function startLifts(): Promise<LiftsProcess> {
  const child = fork(fileURLToPath(import.meta.url), ['lifts'], {
    execArgv: ['--import', 'tsx', '--max-old-space-size=4096'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  let ids = 0;
  let hello!: () => void;
  const ready = new Promise<void>((r) => (hello = r));
  child.on('message', (reply: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    if (reply.id === 0) return hello();
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.ok) waiting?.resolve(reply.result as never);
    else waiting?.reject(new Error(reply.error));
  });
  child.once('exit', (code) => {
    for (const w of pending.values()) w.reject(new Error(`the lifts' process exited with ${code}`));
    pending.clear();
  });
  await ready;
  const ask = <T>(req: WithoutId<LiftsRequest>) =>
    new Promise<T>((resolve, reject) => {
      const id = ++ids;
      pending.set(id, { resolve, reject });
      child.send({ ...req, id });
    });
  return { child, ask };
}

/** The lifts spread over several processes (each with its own open-file limit), asked as one. */
interface Fleet {
  pids: () => (number | undefined)[];
  start: (
    url: string,
    lifts: StormLift[],
    timeoutMs: number,
  ) => Promise<StormCounts & { ms: number; firstConnected: number; lastConnectedMs: number }>;
  mark: (floor: number) => Promise<{ markedAt: number; sessionFloor: number }>;
  /** Every lift's network goes away for `outageMs`. */
  cut: (outageMs: number) => Promise<void>;
  progress: () => Promise<{
    reconnected: number;
    presenceAcked: number;
    tries: number;
    connectedNow: number;
  }>;
  result: () => Promise<LiftsResult>;
  stop: () => Promise<void>;
  kill: () => void;
}

function sumCounts<T extends StormCounts>(parts: T[]): StormCounts {
  const refused: Record<string, number> = {};
  for (const p of parts)
    for (const [code, n] of Object.entries(p.refused)) refused[code] = (refused[code] ?? 0) + n;
  const sum = (k: 'tries' | 'connected' | 'timedOut' | 'tcpFailed' | 'lost') =>
    parts.reduce((t, p) => t + p[k], 0);
  return {
    tries: sum('tries'),
    connected: sum('connected'),
    timedOut: sum('timedOut'),
    tcpFailed: sum('tcpFailed'),
    lost: sum('lost'),
    refused,
  };
}

async function startFleet(count: number): Promise<Fleet> {
  const procs = await Promise.all(
    Array.from({ length: Math.max(1, Math.ceil(count / LIFTS_PER_PROCESS)) }, () => startLifts()),
  );
  const all = <T>(req: WithoutId<LiftsRequest>) => Promise.all(procs.map((p) => p.ask<T>(req)));
  return {
    pids: () => procs.map((p) => p.child.pid),
    start: async (url, lifts, timeoutMs) => {
      const share = Math.ceil(lifts.length / procs.length);
      const started = Date.now();
      const parts = await Promise.all(
        procs.map((p, i) =>
          p.ask<StormCounts & { ms: number; firstConnected: number; lastConnectedMs: number }>({
            op: 'start',
            url,
            lifts: lifts.slice(i * share, (i + 1) * share),
            timeoutMs,
          }),
        ),
      );
      return {
        ...sumCounts(parts),
        ms: Date.now() - started,
        firstConnected: parts.reduce((t, p) => t + p.firstConnected, 0),
        lastConnectedMs: Math.max(...parts.map((p) => p.lastConnectedMs)),
      };
    },
    mark: async (floor) => {
      const parts = await all<{ markedAt: number; sessionFloor: number }>({ op: 'mark', floor });
      return {
        markedAt: Math.min(...parts.map((p) => p.markedAt)),
        sessionFloor: Math.min(...parts.map((p) => p.sessionFloor)),
      };
    },
    cut: async (outageMs) => {
      await all({ op: 'cut', outageMs });
    },
    progress: async () => {
      const parts = await all<{
        reconnected: number;
        presenceAcked: number;
        tries: number;
        connectedNow: number;
      }>({ op: 'progress' });
      const sum = (k: 'reconnected' | 'presenceAcked' | 'tries' | 'connectedNow') =>
        parts.reduce((t, p) => t + p[k], 0);
      return {
        reconnected: sum('reconnected'),
        presenceAcked: sum('presenceAcked'),
        tries: sum('tries'),
        connectedNow: sum('connectedNow'),
      };
    },
    result: async () => {
      const parts = await all<LiftsResult>({ op: 'result' });
      const markedAt = Math.min(...parts.map((p) => p.markedAt));
      const triesPerSecond: number[] = [];
      for (const p of parts)
        p.triesPerSecond.forEach((n, i) => (triesPerSecond[i] = (triesPerSecond[i] ?? 0) + n));
      return {
        ...sumCounts(parts),
        connectedAt: parts.flatMap((p) => p.connectedAt),
        presenceAckedAt: parts.flatMap((p) => p.presenceAckedAt),
        triesPerSecond: Array.from(triesPerSecond, (n) => n ?? 0),
        refusedAt: parts.flatMap((p) => p.refusedAt),
        markedAt,
        sessionFloor: Math.min(...parts.map((p) => p.sessionFloor)),
      };
    },
    stop: async () => {
      await all({ op: 'stop' });
    },
    kill: () => procs.forEach((p) => p.child.kill('SIGKILL')),
  };
}

/** The server process this one started last (the restarted one, before it answers /health). */
function newServerPid(): number | undefined {
  let found: number | undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('apps/server/src/main.ts'))
        continue;
      found = Math.max(found ?? 0, Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function openFiles(pid: number | undefined): number {
  try {
    return pid === undefined ? 0 : readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return 0;
  }
}

const T0 = Date.now();
const log = (line: string) =>
  process.stderr.write(`reconnect-storm: [${((Date.now() - T0) / 1000).toFixed(1)} s] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return Math.round(
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024,
    );
  } catch {
    return 0;
  }
}

/** The soft and hard limit of open files of this process (children inherit them). */
function fdLimit(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'))!;
  const [soft, hard] = line.replace('Max open files', '').trim().split(/\s+/);
  return {
    soft: soft === 'unlimited' ? Infinity : Number(soft),
    hard: hard === 'unlimited' ? Infinity : Number(hard),
  };
}

function raiseFdLimit(): { soft: number; hard: number } {
  const before = fdLimit();
  if (before.soft >= FD_LIMIT) return before;
  try {
    const hard = Math.max(before.hard, FD_LIMIT);
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${FD_LIMIT}:${hard}`], {
      stdio: 'pipe',
    });
  } catch (err) {
    log(
      `could not raise the open-file limit to ${FD_LIMIT} (${err instanceof Error ? err.message.split('\n')[0] : String(err)}): run with \`ulimit -n ${FD_LIMIT}\``,
    );
  }
  return fdLimit();
}

/** Tries a TCP connection every 20 ms; resolves with the moment one is accepted. */
async function acceptsAgain(port: number, timeoutMs = 120_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const at = await new Promise<number | null>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        const t = Date.now();
        socket.destroy();
        resolve(t);
      });
      socket.once('error', () => resolve(null));
    });
    if (at !== null) return at;
    if (Date.now() > end) throw new Error(`nothing accepts connections on port ${port}`);
    await sleep(20);
  }
}

/** The time from `origin` until `fraction` of `count` moments had passed (null: not reached). */
function timeTo(
  moments: (number | null)[],
  count: number,
  fraction: number,
  origin: number,
): number | null {
  const sorted = moments.filter((m): m is number => m !== null).sort((a, b) => a - b);
  const need = Math.ceil(fraction * count);
  if (need === 0 || sorted.length < need) return null;
  return Math.max(0, sorted[need - 1]! - origin);
}

/** The server's log lines at level ≥ 40 (pino: 40 warn, 50 error, 60 fatal), with when they came. */
function watchLog(
  child: ChildProcess,
  into: { at: number; level: number; msg: string }[],
  before = '',
): void {
  let rest = before;
  const take = (d: Buffer) => {
    const lines = (rest + d.toString()).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('{')) {
        if (line.trim()) into.push({ at: Date.now(), level: 50, msg: line.slice(0, 200) });
        continue;
      }
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: unknown };
        if ((entry.level ?? 0) >= 40)
          into.push({
            at: Date.now(),
            level: entry.level!,
            msg: `${entry.msg ?? ''}${entry.err ? `: ${typeof entry.err === 'string' ? entry.err : JSON.stringify(entry.err).slice(0, 160)}` : ''}`,
          });
      } catch {
        into.push({ at: Date.now(), level: 50, msg: line.slice(0, 200) });
      }
    }
  };
  if (before) take(Buffer.from(''));
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
}

interface Result {
  mode: string;
  lifts: number;
  firstConnectMs: number;
  /** Lifts connected the first time (fewer than `lifts`: see `brokerOpenFilesPeak`); the storm's shares are of these. */
  firstConnected: number;
  /** The open-file limit of every process here (the hard limit could not be raised: the machine's). */
  openFileLimit: number;
  /** Open files of the process holding the lifts' connections (the server when embedded, else Mosquitto). */
  brokerOpenFilesPeak: number;
  brokerDownMs: number;
  /** Embedded: from the broker's listen until the restarted server answers /health. */
  serverHealthyMs: number | null;
  liftsConnectedMs: {
    p50: number | null;
    p90: number | null;
    p99: number | null;
    p100: number | null;
  };
  serverOnlineMs: {
    p50: number | null;
    p90: number | null;
    p99: number | null;
    p100: number | null;
  };
  serverOnlineAfter: number;
  tries: number;
  refused: Record<string, number>;
  /** When the refused tries came, in ms after the broker accepted again (negative: before). */
  refusedFromMs: number | null;
  refusedToMs: number | null;
  timedOut: number;
  tcpFailed: number;
  peakTriesPerSec: number;
  peakTriesSecond: number;
  serverLogWarnings: number;
  serverLogErrors: number;
  serverLogSamples: string[];
  serverRssMiB: { before: number; peak: number };
  serverCpuPct: number;
  brokerCpuPct: number | null;
  postgresCpuPct: number | null;
  liftsCpuPct: number;
  stormMs: number;
  /** The machine's 1-minute load average when the broker went away and when the storm was over (others share it). */
  loadAvg: [number, number];
}

async function runMode(mode: Mode): Promise<Result> {
  const [
    { openPglite, openPostgres },
    { migrate },
    { seed },
    { provisionLifts },
    { startServerProcess, ADMIN_PASSWORD },
    { freePort },
    { startMosquitto },
    { createDatabase },
    { startBrokerCluster, rabbitmqServerEnv },
    { benchMemoryWatermarkBytes, importLiftAccounts, nodePids, recordLiftRightsCurrent },
  ] = await Promise.all([
    import('../apps/server/src/db/client.ts'),
    import('../apps/server/src/db/migrate.ts'),
    import('../apps/server/src/db/seed.ts'),
    import('../apps/server/test/support/fleet.ts'),
    import('../apps/server/test/support/server-process.ts'),
    import('../apps/server/test/support/ports.ts'),
    import('../apps/server/test/support/mosquitto.ts'),
    import('../apps/server/test/support/postgres.ts'),
    import('../apps/server/test/support/broker-cluster.ts'),
    import('./rabbitmq-setup.ts'),
  ]);
  type Database = Awaited<ReturnType<typeof openPglite>>;
  const cleanup: (() => Promise<void>)[] = [];
  const prepare = async (database: Database) => {
    await migrate(database.sql);
    await seed(database, {
      adminUser: 'admin',
      adminPassword: ADMIN_PASSWORD,
      makerName: 'LiftLink Lifts',
    });
    return provisionLifts(database.sql, 'STORM', LIFTS);
  };
  /** A scratch database on the PostgreSQL server, dropped at the end. */
  const scratchPostgres = async () => {
    const scratch = await createDatabase(ADMIN_URL);
    cleanup.push(scratch.drop);
    const db = await openPostgres(scratch.url);
    cleanup.unshift(() => db.close());
    return { url: scratch.url, db };
  };
  try {
    // No silence sweep during the run: these lifts send no periodic status (20,000 would be 2,000 messages a second).
    const env: Record<string, string> = {
      RATE_LIMIT_MAX: '1000000',
      HEARTBEAT_SECONDS: '600',
      LOG_LEVEL: 'warn',
    };
    let lifts: Awaited<ReturnType<typeof provisionLifts>>;
    let brokerUrl: string;
    let brokerPort: number;
    let pgDb: Database | null = null;
    let broker: Awaited<ReturnType<typeof startMosquitto>> | null = null;
    let cluster: Awaited<ReturnType<typeof startBrokerCluster>> | null = null;
    /** The cluster's Erlang VMs (new ones after a restart), for their CPU and open files. */
    let clusterPids: number[] = [];
    let liftAddress: ((i: number) => string) | null = null;
    let dataDir = '';
    if (mode === 'embedded') {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-storm-'));
      cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      const db = await openPglite(dataDir);
      lifts = await prepare(db);
      await db.close();
      brokerPort = await freePort();
      Object.assign(env, { DATA_DIR: dataDir, MQTT_PORT: String(brokerPort) });
      brokerUrl = `mqtt://127.0.0.1:${brokerPort}`;
    } else if (mode === 'rabbitmq') {
      const scratch = await scratchPostgres();
      pgDb = scratch.db;
      lifts = await prepare(scratch.db);
      // The watermark in the nodes' configuration: the restarted nodes keep it.
      const c = await startBrokerCluster('rabbitmq', { memoryWatermarkBytes: benchMemoryWatermarkBytes() });
      cluster = c;
      cleanup.unshift(() => c.destroy());
      await importLiftAccounts(c.apiUrls[0]!, c.server, lifts);
      await recordLiftRightsCurrent(scratch.db.sql);
      Object.assign(env, rabbitmqServerEnv(c), { DATABASE_URL: scratch.url });
      // Lift i starts at node i mod 3 and goes on to the next ones (docs/protocol.md 1.1).
      liftAddress = (i) => [0, 1, 2].map((k) => c.mqttUrls[(i + k) % 3]!).join(',');
      brokerUrl = c.mqttUrls[0]!;
      brokerPort = Number(new URL(brokerUrl).port);
      clusterPids = await nodePids(c.apiUrls[0]!, c.server);
    } else {
      const scratch = await scratchPostgres();
      pgDb = scratch.db;
      lifts = await prepare(scratch.db);
      // Accounts written into the dynamic-security file before the start (one by one through
      // the broker admin, Mosquitto 2.0 would rewrite its whole file 20,000 times).
      broker = await startMosquitto({ lifts });
      const b = broker;
      cleanup.unshift(() => b.destroy());
      Object.assign(env, broker.env, { DATABASE_URL: scratch.url });
      brokerUrl = broker.url;
      brokerPort = broker.port;
    }
    log(`${mode}: ${lifts.length} lifts provisioned`);
    const serverLog: { at: number; level: number; msg: string }[] = [];
    // A server on a cluster holding 20,000 lifts takes longer than the default to start.
    let server = await startServerProcess(env, { timeoutMs: 180_000 });
    watchLog(server.child, serverLog);
    // The restarted server keeps the HTTP port too (PORT overrides the free port it picks).
    const httpPort = server.port;
    const httpUrl = server.url;
    cleanup.unshift(() => server.stop());
    log(`${mode}: server up (pid ${server.child.pid})`);

    const fleet = await startFleet(LIFTS);
    cleanup.unshift(async () => {
      await fleet.stop().catch(() => {});
      fleet.kill();
    });
    const first = await fleet.start(
      brokerUrl,
      lifts.map((l, i) => ({
        deviceNo: l.deviceNo,
        secret: l.secret,
        ...(liftAddress ? { address: liftAddress(i) } : {}),
      })),
      firstConnectTimeoutMs(mode),
    );
    const serverPid0 = server.child.pid;
    let serverPidNow = serverPid0;
    const brokerFiles = () =>
      cluster
        ? Math.max(0, ...clusterPids.map(openFiles))
        : openFiles(broker ? broker.pid : serverPidNow);
    log(
      `${mode}: ${first.firstConnected} of ${LIFTS} lifts connected in ${first.lastConnectedMs} ms (${first.tries} tries, refused ${JSON.stringify(first.refused)}, timed out ${first.timedOut}, failed at TCP ${first.tcpFailed}); the broker holds ${brokerFiles()} open files`,
    );
    // The lifts that could not connect (open-file limit): the storm waits for the others.
    const target = first.firstConnected;

    // Until the first online messages are in (the server's view of the fleet before the storm).
    const onlineCount = async (floor: number): Promise<number> => {
      const [row] = await pgDb!.sql.query<{ n: string }>(
        'select count(*) as n from lifts where online and presence_session >= $1',
        [floor],
      );
      return Number(row!.n);
    };
    {
      const end = Date.now() + 120_000;
      for (;;) {
        const p = await fleet.progress();
        const serverHas = pgDb ? await onlineCount(0) : p.presenceAcked;
        if ((p.presenceAcked >= target && serverHas >= target) || Date.now() > end) break;
        await sleep(500);
      }
    }
    await sleep(2_000);
    const rssBefore = rssMiB(serverPid0);
    log(
      `${mode}: the fleet is online; server RSS ${rssBefore} MiB. ${mode === 'rabbitmq' ? `The lifts' network goes away for ${OUTAGE_MS} ms.` : 'The broker goes away.'}`,
    );

    // The storm.
    const loadBefore = os.loadavg()[0]!;
    const marked = await fleet.mark(Date.now() * 1000);
    const killedAt = Date.now();
    let backAt: number;
    let restarting: Promise<Awaited<ReturnType<typeof startServerProcess>>> | null = null;
    let healthyAt: number | null = null;
    if (mode === 'embedded') {
      await server.stop();
      // The embedded broker listens before the rest of the server is up (/health): the storm is
      // measured from the broker's listen, while the server goes on starting.
      restarting = startServerProcess(
        { ...env, PORT: String(httpPort) },
        { url: () => httpUrl, timeoutMs: 180_000 },
      );
      restarting.then(
        () => (healthyAt = Date.now()),
        () => {},
      );
      backAt = await acceptsAgain(brokerPort);
    } else if (cluster) {
      // The lifts' network, not the broker, goes away: "back" is when the network is.
      await fleet.cut(OUTAGE_MS);
      backAt = killedAt + OUTAGE_MS;
      await sleep(Math.max(0, backAt - Date.now()));
    } else {
      const killed = broker!.pid!;
      process.kill(killed, 'SIGKILL');
      const restarting = broker!.restart(0);
      // The killed broker's listening socket answers until the process is gone: a new process means it is.
      while (broker!.pid === undefined || broker!.pid === killed) await sleep(2);
      backAt = await acceptsAgain(brokerPort);
      await restarting;
    }
    log(
      `${mode}: ${mode === 'rabbitmq' ? 'the network is back' : 'the broker accepts connections again'} ${backAt - killedAt} ms after it went away`,
    );

    const serverPid = restarting ? newServerPid() : server.child.pid;
    serverPidNow = serverPid;
    const cpuParts = {
      server: () => cpuMs(serverPid),
      broker: () =>
        broker ? cpuMs(broker.pid) : clusterPids.reduce<number>((t, pid) => t + cpuMs(pid), 0),
      postgres: () => (pgDb ? cpuMsByName('postgres') : 0),
      lifts: () => fleet.pids().reduce<number>((t, pid) => t + cpuMs(pid), 0),
    };
    const cpuBefore = Object.fromEntries(Object.entries(cpuParts).map(([k, read]) => [k, read()]));
    const cpuFrom = Date.now();
    let rssPeak = rssMiB(serverPid);
    let brokerFilesPeak = brokerFiles();
    const serverSeen: { at: number; n: number }[] = [];
    const stormEnd = backAt + stormTimeoutMs(mode);
    let lastLog = 0;
    for (;;) {
      const p = await fleet.progress();
      rssPeak = Math.max(rssPeak, rssMiB(serverPid));
      brokerFilesPeak = Math.max(brokerFilesPeak, brokerFiles());
      const serverHas = pgDb
        ? await onlineCount(marked.sessionFloor).catch(() => 0)
        : p.presenceAcked;
      serverSeen.push({ at: Date.now(), n: serverHas });
      if (Date.now() - lastLog >= 10_000) {
        lastLog = Date.now();
        log(
          `${mode}: +${((Date.now() - backAt) / 1000).toFixed(0)} s: ${p.reconnected} connected again, the server has ${serverHas} online, ${p.tries} tries`,
        );
      }
      if ((p.reconnected >= target && serverHas >= target) || Date.now() > stormEnd) break;
      await sleep(250);
    }
    const cpuWallMs = Date.now() - cpuFrom;
    const loadAfter = os.loadavg()[0]!;
    if (restarting) {
      server = await restarting;
      // What it logged before it answered /health is in its kept output.
      watchLog(server.child, serverLog, server.log());
    }
    const cpuPct = (k: keyof typeof cpuParts) =>
      Math.round(((cpuParts[k]() - cpuBefore[k]!) / cpuWallMs) * 100);
    const cpu = {
      server: cpuPct('server'),
      broker: cpuPct('broker'),
      postgres: cpuPct('postgres'),
      lifts: cpuPct('lifts'),
    };
    const stormMs = Date.now() - backAt;
    const result = await fleet.result();
    await sleep(1_000);
    const stormLog = serverLog.filter((l) => l.at >= killedAt);
    log(`${mode}: storm over after ${stormMs} ms`);

    // The server's view, the database itself: lifts whose online message of a storm session is
    // stored. Read before the lifts go (their wills would set them offline); the embedded
    // server's PGlite is its own, so it is stopped first (its lifts then stay online in the table).
    let serverOnlineAfter: number;
    if (pgDb) {
      serverOnlineAfter = await onlineCount(marked.sessionFloor);
      await fleet.stop();
      await server.stop();
    } else {
      await server.stop();
      await fleet.stop();
      const db = await openPglite(dataDir);
      const [row] = await db.sql.query<{ n: string }>(
        'select count(*) as n from lifts where online and presence_session >= $1',
        [marked.sessionFloor],
      );
      serverOnlineAfter = Number(row!.n);
      await db.close();
    }

    const serverMoments: (number | null)[] = pgDb
      ? // from the polled counts: the first poll that saw each share
        Array.from({ length: LIFTS }, (_, i) => serverSeen.find((s) => s.n > i)?.at ?? null)
      : result.presenceAckedAt;
    // Shares of the lifts that were connected before the storm (those that never got in cannot come back).
    const quantiles = (moments: (number | null)[]) => ({
      p50: timeTo(moments, target, 0.5, backAt),
      p90: timeTo(moments, target, 0.9, backAt),
      p99: timeTo(moments, target, 0.99, backAt),
      p100: timeTo(moments, target, 1, backAt),
    });
    // Tries per second from the moment the broker went away (the mark is just before).
    const peak = result.triesPerSecond.reduce((best, n, i) => (n > best.n ? { n, i } : best), {
      n: 0,
      i: 0,
    });
    const samples = [...new Set(stormLog.map((l) => `${l.level}: ${l.msg}`))].slice(0, 5);
    return {
      mode: MODE_NAMES[mode],
      lifts: LIFTS,
      firstConnectMs: first.lastConnectedMs,
      firstConnected: first.firstConnected,
      openFileLimit: fdLimit().soft,
      brokerOpenFilesPeak: brokerFilesPeak,
      brokerDownMs: backAt - killedAt,
      serverHealthyMs: healthyAt === null ? null : healthyAt - backAt,
      liftsConnectedMs: quantiles(result.connectedAt),
      serverOnlineMs: quantiles(serverMoments),
      serverOnlineAfter,
      tries: result.tries,
      refused: result.refused,
      refusedFromMs: result.refusedAt.length ? Math.min(...result.refusedAt) - backAt : null,
      refusedToMs: result.refusedAt.length ? Math.max(...result.refusedAt) - backAt : null,
      timedOut: result.timedOut,
      tcpFailed: result.tcpFailed,
      peakTriesPerSec: peak.n,
      peakTriesSecond: Math.round((result.markedAt + peak.i * 1000 - backAt) / 1000),
      serverLogWarnings: stormLog.filter((l) => l.level === 40).length,
      serverLogErrors: stormLog.filter((l) => l.level > 40).length,
      serverLogSamples: samples,
      serverRssMiB: { before: rssBefore, peak: rssPeak },
      serverCpuPct: cpu.server,
      brokerCpuPct: broker || cluster ? cpu.broker : null,
      postgresCpuPct: pgDb ? cpu.postgres : null,
      liftsCpuPct: cpu.lifts,
      stormMs,
      loadAvg: [Math.round(loadBefore * 10) / 10, Math.round(loadAfter * 10) / 10],
    };
  } finally {
    for (const step of cleanup)
      await step().catch((err: unknown) => log(`cleanup: ${String(err)}`));
  }
}

function table(results: Result[]): string {
  const s = (ms: number | null) => (ms === null ? 'not reached' : `${(ms / 1000).toFixed(1)} s`);
  const rows: [string, (r: Result) => string][] = [
    ['lifts', (r) => String(r.lifts)],
    [
      'connected the first time (lifts, time)',
      (r) => `${r.firstConnected}, ${s(r.firstConnectMs)}`,
    ],
    [
      'open files of the broker process (limit)',
      (r) => `${r.brokerOpenFilesPeak} (${r.openFileLimit})`,
    ],
    ['broker away until it accepts again', (r) => s(r.brokerDownMs)],
    ['restarted server answers /health (after)', (r) => s(r.serverHealthyMs)],
    [
      'lifts connected again 50 / 90 / 99 / 100 %',
      (r) =>
        [
          r.liftsConnectedMs.p50,
          r.liftsConnectedMs.p90,
          r.liftsConnectedMs.p99,
          r.liftsConnectedMs.p100,
        ]
          .map(s)
          .join(' / '),
    ],
    [
      'server has them online 50 / 90 / 99 / 100 %',
      (r) =>
        [r.serverOnlineMs.p50, r.serverOnlineMs.p90, r.serverOnlineMs.p99, r.serverOnlineMs.p100]
          .map(s)
          .join(' / '),
    ],
    ['online in the database afterwards', (r) => String(r.serverOnlineAfter)],
    ['tries in the storm', (r) => String(r.tries)],
    [
      'refused (CONNACK code: tries)',
      (r) =>
        `${JSON.stringify(r.refused)}${r.refusedFromMs === null ? '' : ` at ${s(r.refusedFromMs)} to ${s(r.refusedToMs)}`}`,
    ],
    [`timed out (no CONNACK in ${CONNECT_TIMEOUT_MS / 1000} s)`, (r) => String(r.timedOut)],
    ['failed at TCP (broker away)', (r) => String(r.tcpFailed)],
    ['peak tries per second (at s)', (r) => `${r.peakTriesPerSec} (${r.peakTriesSecond})`],
    ['server log warnings / errors', (r) => `${r.serverLogWarnings} / ${r.serverLogErrors}`],
    ['server RSS before / peak', (r) => `${r.serverRssMiB.before} / ${r.serverRssMiB.peak} MiB`],
    ['load average (1 min) before / after', (r) => r.loadAvg.join(' / ')],
    [
      'CPU server / broker / PostgreSQL / lifts',
      (r) =>
        [r.serverCpuPct, r.brokerCpuPct, r.postgresCpuPct, r.liftsCpuPct]
          .map((v) => (v === null ? '-' : `${v} %`))
          .join(' / '),
    ],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const cols = results.map((r) => rows.map(([, f]) => f(r)));
  const colWidth = cols.map((c, i) => Math.max(results[i]!.mode.length, ...c.map((v) => v.length)));
  const line = (label: string, values: string[]) =>
    `${label.padEnd(width)}  ${values.map((v, i) => v.padEnd(colWidth[i]!)).join('  ')}`;
  return [
    line(
      '',
      results.map((r) => r.mode),
    ),
    ...rows.map(([label], j) =>
      line(
        label,
        cols.map((c) => c[j]!),
      ),
    ),
  ].join('\n');
}

async function main(): Promise<void> {
  const limit = raiseFdLimit();
  log(`${LIFTS} lifts; open-file limit ${limit.soft} (wanted ${FD_LIMIT})`);
  const { mosquittoMissing } = await import('../apps/server/test/support/mosquitto.ts');
  const { rabbitmqMissing } = await import('../apps/server/test/support/broker-cluster.ts');
  const results: Result[] = [];
  for (const mode of MODES) {
    if (mode === 'mosquitto' && mosquittoMissing) {
      log(`mosquitto skipped: ${mosquittoMissing}`);
      continue;
    }
    if (mode === 'rabbitmq' && rabbitmqMissing) {
      log(`rabbitmq skipped: ${rabbitmqMissing}`);
      continue;
    }
    const result = await runMode(mode);
    results.push(result);
    process.stdout.write(`${JSON.stringify(result)}\n`);
  }
  if (results.length) process.stdout.write(`\n${table(results)}\n`);
  process.exit(results.length ? 0 : 1);
}

if (process.argv[2] === 'lifts') liftsProcess();
else await main();
