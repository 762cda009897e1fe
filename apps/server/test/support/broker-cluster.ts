/**
 * A private three-node broker cluster for tests and the broker benchmark (issue 14: a
 * clustered broker as a production mode). Two candidates from Debian's packages:
 *
 * - `nats`: nats-server (Debian 12: 2.9.10) with JetStream and its MQTT listener. Accounts
 *   are users of the configuration file with per-lift subject permissions; `setAccounts`
 *   rewrites every node's file and reloads it (SIGHUP), which also disconnects clients whose
 *   account is gone or changed. Stream and consumer replicas 3.
 * - `rabbitmq`: RabbitMQ (Debian 12: 3.10.8) with the MQTT plugin (quorum queues for
 *   persistent MQTT sessions) and the management API. Lift accounts are users of the
 *   cluster's own (replicated) user database with per-lift permissions, kept through the
 *   management API by the same code the LiftLink server uses (rabbitmqBrokerAdmin). The
 *   server account is the nodes' default user, an administrator.
 *
 * Every node is a process group of its own on free loopback ports with a temporary data
 * directory (RabbitMQ: its own epmd, node names and cookie), so a system NATS or RabbitMQ on
 * the default ports is never touched. `kill(node)` is a crash (SIGKILL of the group),
 * `stop(node)` a clean stop, `start(node)` brings the node back on the same ports and data.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DOWNLINK_TOPICS, UPLINK_TOPICS } from '@liftlink/protocol';
import { freePort, until, waitForPort } from './ports.ts';
import { rabbitmqBrokerAdmin } from '../../src/modules/broker/rabbitmq-admin.ts';
import { RabbitApi } from '../../src/modules/broker/rabbitmq-api.ts';

export type BrokerKind = 'nats' | 'rabbitmq';

/** One account: a lift (its device number and secret) or the server's own. */
export interface BrokerAccount {
  username: string;
  password: string;
  /** The server's account: every topic, the ingest stream or queue, the live bus. */
  server?: boolean;
}

export interface BrokerCluster {
  kind: BrokerKind;
  /** mqtt://127.0.0.1:port of each node (index 0..2), the same after a restart. */
  mqttUrls: string[];
  /** The native protocol of each node: nats://… or amqp://… (without credentials). */
  nativeUrls: string[];
  /** RabbitMQ: each node's management API, http://… (without credentials); [] for NATS. */
  apiUrls: string[];
  /** The server account every node accepts. */
  server: { username: string; password: string };
  /** Crash: SIGKILL to the node's process group. */
  kill(node: number): Promise<void>;
  /** Clean stop (RabbitMQ hands its leaderships over first). */
  stop(node: number): Promise<void>;
  /** Starts a stopped or killed node again on its ports and data; resolves once it serves MQTT. */
  start(node: number): Promise<void>;
  running(node: number): boolean;
  /** Replaces the lift accounts; takes effect on every running node at once. */
  setAccounts(accounts: BrokerAccount[]): Promise<void>;
  /** Resident memory of all running nodes' processes, in bytes. */
  rssBytes(): number;
  /** Stops every node (and the helpers) and removes the data. */
  destroy(): Promise<void>;
}

export const NATS_BIN = process.env.NATS_SERVER ?? '/usr/sbin/nats-server';
export const RABBITMQ_SBIN = process.env.RABBITMQ_SBIN ?? '/usr/lib/rabbitmq/bin';

/** Why a private RabbitMQ cluster cannot start here (the Debian package rabbitmq-server is missing), or null. */
export const rabbitmqMissing: string | null = existsSync(path.join(RABBITMQ_SBIN, 'rabbitmq-server')) ? null : `no ${path.join(RABBITMQ_SBIN, 'rabbitmq-server')} (Debian package rabbitmq-server)`;

/** MQTT topic -> NATS subject / AMQP routing key: lifts/X/config/set -> lifts.X.config.set */
export function dotted(topic: string): string {
  return topic.replaceAll('/', '.');
}

/** What a lift may publish and receive, as dotted names (both brokers map `/` to `.`). */
export function liftNames(deviceNo: string): { publish: string[]; subscribe: string[] } {
  return {
    publish: UPLINK_TOPICS.map((k) => dotted(`lifts/${deviceNo}/${k}`)),
    subscribe: DOWNLINK_TOPICS.map((k) => dotted(`lifts/${deviceNo}/${k}`)),
  };
}

// ---------------------------------------------------------------------------------------------
// Process groups

interface NodeProcess {
  child: ChildProcess;
  log: string;
}

/** Every process group started here and not yet ended: none outlives the process that started it. */
const liveGroups = new Set<number>();
process.once('exit', () => {
  for (const pgid of liveGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
});

function spawnGroup(cmd: string, args: string[], env: NodeJS.ProcessEnv): NodeProcess {
  const child = spawn(cmd, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  liveGroups.add(child.pid!);
  const proc: NodeProcess = { child, log: '' };
  // The first lines name the cause of a failed start; the last ones what happened since.
  let head = '';
  let tail = '';
  const keep = (d: Buffer) => {
    if (head.length < 3000) head += d.toString();
    else tail = (tail + d.toString()).slice(-3000);
    proc.log = tail ? `${head.slice(0, 3000)}\n…\n${tail}` : head;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  return proc;
}

function signalGroup(proc: NodeProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-proc.child.pid!, signal);
  } catch {
    /* already gone */
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function endGroup(proc: NodeProcess, graceMs: number): Promise<void> {
  const pgid = proc.child.pid!;
  if (graceMs > 0) {
    signalGroup(proc, 'SIGTERM');
    const end = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  }
  signalGroup(proc, 'SIGKILL');
  while (groupAlive(pgid)) await new Promise((r) => setTimeout(r, 20));
  liveGroups.delete(pgid);
}

/** Sum of VmRSS of every process in the given process groups (Linux /proc). */
function groupsRss(pgids: number[]): number {
  const wanted = new Set(pgids);
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!wanted.has(Number(fields[2]))) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
      if (kb) total += Number(kb) * 1024;
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
}

type NodeControls = Pick<BrokerCluster, 'kill' | 'stop' | 'start' | 'running' | 'rssBytes'>;

/** kill/stop/start of three nodes, each a process group in `procs` (null: not running). */
function nodeControls(procs: (NodeProcess | null)[], launch: (i: number) => void, ready: (i: number) => Promise<void>, stopGraceMs: number): NodeControls {
  const end = async (i: number, graceMs: number) => {
    const p = procs[i];
    procs[i] = null;
    if (p) await endGroup(p, graceMs);
  };
  return {
    kill: (i) => end(i, 0),
    stop: (i) => end(i, stopGraceMs),
    async start(i) {
      if (procs[i]) return;
      launch(i);
      await ready(i);
    },
    running: (i) => procs[i] !== null,
    rssBytes: () => groupsRss(procs.filter((p): p is NodeProcess => p !== null).map((p) => p.child.pid!)),
  };
}

// ---------------------------------------------------------------------------------------------
// NATS

function natsString(s: string): string {
  return JSON.stringify(s);
}

function natsUsers(accounts: BrokerAccount[]): string {
  return accounts
    .map((a) => {
      if (a.server) return `    { user: ${natsString(a.username)}, password: ${natsString(a.password)} }`;
      const names = liftNames(a.username);
      const list = (xs: string[]) => `[${xs.map(natsString).join(', ')}]`;
      // NATS 2.9 delivers a QoS 1 subscription from a JetStream consumer to an inbox
      // `$MQTT.sub.<id>` that the client's own permissions must allow.
      return `    { user: ${natsString(a.username)}, password: ${natsString(a.password)}, permissions: { publish: ${list(names.publish)}, subscribe: ${list([...names.subscribe, '$MQTT.sub.>'])} } }`;
    })
    .join('\n');
}

interface NatsPorts {
  client: number;
  cluster: number;
  mqtt: number;
  http: number;
}

function natsConf(i: number, dir: string, ports: NatsPorts[], accounts: BrokerAccount[]): string {
  const p = ports[i]!;
  return `server_name: n${i + 1}
listen: 127.0.0.1:${p.client}
http: 127.0.0.1:${p.http}
jetstream {
  store_dir: ${natsString(path.join(dir, `n${i + 1}`))}
  max_memory_store: 64MB
  max_file_store: 2GB
}
cluster {
  name: liftlink
  listen: 127.0.0.1:${p.cluster}
  routes: [${ports.map((q) => `nats-route://127.0.0.1:${q.cluster}`).join(', ')}]
}
mqtt {
  listen: 127.0.0.1:${p.mqtt}
  # The MQTT streams ($MQTT_msgs, $MQTT_sess, $MQTT_rmsgs) and the consumers of QoS 1
  # subscriptions are replicated on all three nodes.
  stream_replicas: 3
  consumer_replicas: 3
  ack_wait: "30s"
  max_ack_pending: 1000
}
authorization {
  users: [
${natsUsers(accounts)}
  ]
}
`;
}

async function startNats(accounts: BrokerAccount[], server: BrokerAccount): Promise<BrokerCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-nats-'));
  const ports: NatsPorts[] = [];
  for (let i = 0; i < 3; i++) ports.push({ client: await freePort(), cluster: await freePort(), mqtt: await freePort(), http: await freePort() });
  let current = [server, ...accounts];
  const confs = [0, 1, 2].map((i) => path.join(dir, `n${i + 1}.conf`));
  const writeConfs = () => confs.forEach((file, i) => writeFileSync(file, natsConf(i, dir, ports, current)));
  writeConfs();
  const procs: (NodeProcess | null)[] = [null, null, null];

  const jsReady = async (i: number) => {
    const res = await fetch(`http://127.0.0.1:${ports[i]!.http}/jsz`);
    const jsz = (await res.json()) as { meta_cluster?: { leader?: string; cluster_size?: number } };
    return Boolean(jsz.meta_cluster?.leader) && jsz.meta_cluster?.cluster_size === 3;
  };

  const launch = (i: number) => {
    writeConfs();
    procs[i] = spawnGroup(NATS_BIN, ['-c', confs[i]!], { ...process.env });
  };
  const ready = async (i: number) => {
    const proc = procs[i]!;
    await Promise.race([
      (async () => {
        await waitForPort(ports[i]!.mqtt, 30_000);
        await until(`NATS node ${i + 1} in a JetStream cluster with a leader`, () => jsReady(i), 60_000, 200);
      })(),
      new Promise((_, reject) => proc.child.once('exit', (code) => reject(new Error(`nats-server n${i + 1} exited with ${code}: ${proc.log}`)))),
    ]);
  };

  for (let i = 0; i < 3; i++) launch(i);
  try {
    await Promise.all([0, 1, 2].map(ready));
  } catch (err) {
    for (const p of procs) if (p) await endGroup(p, 0);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  return {
    kind: 'nats',
    mqttUrls: ports.map((p) => `mqtt://127.0.0.1:${p.mqtt}`),
    nativeUrls: ports.map((p) => `nats://127.0.0.1:${p.client}`),
    apiUrls: [],
    server: { username: server.username, password: server.password },
    // SIGTERM is a prompt clean stop (lame duck mode would move clients over minutes).
    ...nodeControls(procs, launch, ready, 10_000),
    async setAccounts(next) {
      current = [server, ...next];
      writeConfs();
      // A reload re-checks every connected client against the new users: one whose account is
      // gone or whose password changed is disconnected.
      for (const p of procs) if (p) process.kill(p.child.pid!, 'SIGHUP');
      await new Promise((r) => setTimeout(r, 200));
    },
    async destroy() {
      for (let i = 0; i < 3; i++) {
        const p = procs[i];
        procs[i] = null;
        if (p) await endGroup(p, 3_000);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// RabbitMQ

interface RabbitPorts {
  amqp: number;
  dist: number;
  mqtt: number;
  api: number;
}

function rabbitConf(p: RabbitPorts, nodes: string[], server: BrokerAccount, memoryWatermarkBytes: number): string {
  return [
    `listeners.tcp.1 = 127.0.0.1:${p.amqp}`,
    `mqtt.listeners.tcp.1 = 127.0.0.1:${p.mqtt}`,
    'mqtt.allow_anonymous = false',
    'mqtt.vhost = /',
    'mqtt.exchange = amq.topic',
    // Persistent MQTT sessions (lifts connect with clean session false) in quorum queues:
    // replicated on the three nodes, so a lift's session survives the loss of its node.
    'mqtt.durable_queue_type = quorum',
    'mqtt.prefetch = 10',
    'mqtt.tcp_listen_options.nodelay = true',
    `management.tcp.ip = 127.0.0.1`,
    `management.tcp.port = ${p.api}`,
    // The server's account, created with the cluster's user database on its first node.
    `default_user = ${server.username}`,
    `default_pass = ${server.password}`,
    'default_user_tags.administrator = true',
    'default_permissions.configure = .*',
    'default_permissions.read = .*',
    'default_permissions.write = .*',
    'cluster_formation.peer_discovery_backend = classic_config',
    ...nodes.map((n, i) => `cluster_formation.classic_config.nodes.${i + 1} = ${n}`),
    'cluster_formation.randomized_startup_delay_range.min = 0',
    'cluster_formation.randomized_startup_delay_range.max = 1',
    // In the configuration, not set at run time: a node that restarts keeps it.
    `vm_memory_high_watermark.absolute = ${memoryWatermarkBytes}`,
    'disk_free_limit.absolute = 50MB',
    'loopback_users = none',
    'log.console = true',
    'log.console.level = warning',
    'log.file = false',
    '',
  ].join('\n');
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { env, timeout: timeoutMs }, (err, stdout, stderr) => (err ? reject(new Error(`${path.basename(cmd)} ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout)));
  });
}

/** Lift accounts kept through the management API, as the LiftLink server keeps them: `set` adds, resets and removes. */
function accountsOf(api: RabbitApi): { set(accounts: BrokerAccount[]): Promise<void> } {
  const admin = rabbitmqBrokerAdmin(api);
  let current = new Map<string, string>();
  return {
    async set(accounts) {
      const next = new Map(accounts.map((a) => [a.username, a.password]));
      const changes = [
        ...[...next].filter(([name, password]) => current.get(name) !== password).map(([name, password]) => () => admin.setDeviceCredential(name, password)),
        ...[...current.keys()].filter((name) => !next.has(name)).map((name) => () => admin.removeDevice(name)),
      ];
      // A few at a time: a large fleet is set up in seconds without flooding the API.
      const workers = Array.from({ length: 8 }, async () => {
        for (let change = changes.shift(); change; change = changes.shift()) await change();
      });
      await Promise.all(workers);
      current = next;
    },
  };
}

async function startRabbit(accounts: BrokerAccount[], server: BrokerAccount, memoryWatermarkBytes: number): Promise<BrokerCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-rabbitmq-'));
  const tag = `ll${randomBytes(3).toString('hex')}`;
  const nodes = [1, 2, 3].map((i) => `${tag}n${i}@localhost`);
  const ports: RabbitPorts[] = [];
  for (let i = 0; i < 3; i++) ports.push({ amqp: await freePort(), dist: await freePort(), mqtt: await freePort(), api: await freePort() });
  const epmdPort = await freePort();
  const ctlPort = await freePort();
  const apiUrls = ports.map((p) => `http://127.0.0.1:${p.api}`);
  const api = new RabbitApi(apiUrls, server.username, server.password);
  const lifts = accountsOf(api);
  writeFileSync(path.join(dir, '.erlang.cookie'), randomBytes(20).toString('hex'));
  chmodSync(path.join(dir, '.erlang.cookie'), 0o400);
  writeFileSync(path.join(dir, 'enabled_plugins'), '[rabbitmq_mqtt,rabbitmq_management].\n');
  const common: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: dir,
    ERL_EPMD_PORT: String(epmdPort),
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'no-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_USE_LONGNAME: 'false',
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    // The command line tools' own distribution ports, away from the nodes'.
    RABBITMQ_CTL_DIST_PORT_MIN: String(ctlPort),
    RABBITMQ_CTL_DIST_PORT_MAX: String(ctlPort),
  };
  const nodeEnv = (i: number): NodeJS.ProcessEnv => {
    const base = path.join(dir, `n${i + 1}`);
    mkdirSync(base, { recursive: true });
    const conf = path.join(base, 'rabbitmq.conf');
    writeFileSync(conf, rabbitConf(ports[i]!, nodes, server, memoryWatermarkBytes));
    return {
      ...common,
      RABBITMQ_NODENAME: nodes[i],
      RABBITMQ_NODE_PORT: String(ports[i]!.amqp),
      RABBITMQ_DIST_PORT: String(ports[i]!.dist),
      RABBITMQ_CONFIG_FILE: conf,
      RABBITMQ_ADVANCED_CONFIG_FILE: path.join(base, 'advanced.config'),
      RABBITMQ_MNESIA_BASE: path.join(base, 'mnesia'),
      RABBITMQ_MNESIA_DIR: path.join(base, 'mnesia', nodes[i]!),
      RABBITMQ_PLUGINS_EXPAND_DIR: path.join(base, 'plugins-expand'),
      RABBITMQ_LOG_BASE: path.join(base, 'log'),
      RABBITMQ_PID_FILE: path.join(base, 'pid'),
      RABBITMQ_LOGS: '-',
    };
  };
  // epmd of our own: node names never meet a system RabbitMQ's.
  const epmd = spawnGroup('epmd', ['-port', String(epmdPort), '-address', '127.0.0.1'], { ...process.env });
  await waitForPort(epmdPort, 10_000);
  const procs: (NodeProcess | null)[] = [null, null, null];

  const launch = (i: number) => {
    procs[i] = spawnGroup(path.join(RABBITMQ_SBIN, 'rabbitmq-server'), [], nodeEnv(i));
  };
  const servesMqtt = async (i: number, timeoutMs: number) => {
    const proc = procs[i]!;
    await Promise.race([
      waitForPort(ports[i]!.mqtt, timeoutMs),
      new Promise((_, reject) => proc.child.once('exit', (code) => reject(new Error(`rabbitmq ${nodes[i]} exited with ${code}: ${proc.log}`)))),
    ]);
  };
  const runningNodes = async (i: number): Promise<string[]> => {
    const out = await run(path.join(RABBITMQ_SBIN, 'rabbitmq-diagnostics'), ['-q', '-n', nodes[i]!, 'cluster_status', '--formatter', 'json'], common);
    return (JSON.parse(out) as { running_nodes?: string[] }).running_nodes ?? [];
  };
  const clusterRunning = async (): Promise<number> => (await runningNodes(procs.findIndex((p) => p !== null))).length;
  /**
   * A node is back as a rolling upgrade expects before it goes on to the next node: it serves
   * MQTT, every running node sees it, and the quorum queues it holds members of have their
   * members online again (`rabbitmq-upgrade await_online_quorum_plus_one`). A node whose boot
   * hangs (seen once in CI on two busy cores: no MQTT listener after 2 minutes, the process
   * alive) is killed and started again, as an operator would.
   */
  const ready = async (i: number) => {
    try {
      await servesMqtt(i, 90_000);
    } catch (err) {
      if (!(err as Error).message.startsWith('nothing listens')) throw err;
      process.stderr.write(`RabbitMQ ${nodes[i]} did not serve MQTT within 90 s; starting it again. Its log:\n${procs[i]!.log.slice(-3000)}\n`);
      await endGroup(procs[i]!, 0);
      launch(i);
      await servesMqtt(i, 120_000);
    }
    const others = procs.flatMap((p, j) => (p && j !== i ? [j] : []));
    await until(`${nodes[i]} seen by every running node`, async () => {
      for (const j of others) if (!(await runningNodes(j)).includes(nodes[i]!)) return false;
      return true;
    }, 150_000, 500);
    await run(path.join(RABBITMQ_SBIN, 'rabbitmq-upgrade'), ['-q', '-n', nodes[i]!, 'await_online_quorum_plus_one', '-t', '120'], common, 130_000);
  };

  const destroy = async () => {
    for (let i = 0; i < 3; i++) {
      const p = procs[i];
      procs[i] = null;
      if (p) await endGroup(p, 15_000);
    }
    await endGroup(epmd, 0);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The first node forms the cluster; the others find it through classic_config and join.
    launch(0);
    await ready(0);
    launch(1);
    launch(2);
    await Promise.all([ready(1), ready(2)]);
    await until('three running RabbitMQ nodes', async () => (await clusterRunning()) === 3, 60_000, 1_000);
    await Promise.all(ports.map((p) => waitForPort(p.api, 60_000)));
    await accountsOf(api).set(accounts);
  } catch (err) {
    await destroy();
    throw err;
  }

  return {
    kind: 'rabbitmq',
    mqttUrls: ports.map((p) => `mqtt://127.0.0.1:${p.mqtt}`),
    nativeUrls: ports.map((p) => `amqp://127.0.0.1:${p.amqp}`),
    apiUrls,
    server: { username: server.username, password: server.password },
    ...nodeControls(procs, launch, ready, 30_000),
    setAccounts: (next) => lifts.set(next),
    destroy,
  };
}

/** The server's environment for BROKER=rabbitmq on this cluster (docs/operations.md 15.3). */
export function rabbitmqServerEnv(cluster: BrokerCluster): Record<string, string> {
  return {
    BROKER: 'rabbitmq',
    MQTT_URL: cluster.mqttUrls.join(','),
    MQTT_USERNAME: cluster.server.username,
    MQTT_PASSWORD: cluster.server.password,
    AMQP_URL: cluster.nativeUrls.join(','),
    RABBITMQ_API_URL: cluster.apiUrls.join(','),
  };
}

/** Starts a three-node cluster of the given kind, formed and serving MQTT on every node. */
export async function startBrokerCluster(
  kind: BrokerKind,
  opts: {
    accounts?: BrokerAccount[];
    /** RabbitMQ: each node's memory high watermark, where it blocks every publisher. 1 GB for the tests; a benchmark's large fleet needs more. */
    memoryWatermarkBytes?: number;
  } = {},
): Promise<BrokerCluster> {
  const server: BrokerAccount = { username: 'liftlink-server', password: `pw-${randomBytes(12).toString('hex')}`, server: true };
  const accounts = opts.accounts ?? [];
  const watermark = opts.memoryWatermarkBytes ?? 10 ** 9;
  if (kind === 'nats') return startNats(accounts, server);
  try {
    return await startRabbit(accounts, server, watermark);
  } catch (err) {
    // Now and then a node's management plugin fails to start while the cluster forms (seen
    // with several clusters and test servers starting side by side); a fresh cluster on
    // other ports and data is what an operator would start next.
    process.stderr.write(`RabbitMQ cluster did not form, starting a fresh one: ${(err as Error).message.slice(0, 300)}\n`);
    return startRabbit(accounts, server, watermark);
  }
}
