import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { pbkdf2Sync, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_PACKET_BYTES } from '@liftlink/protocol';
import { liftRoleAcls, liftRoleName, SERVER_ROLE, serverRoleAcls } from '../../src/modules/broker/dynsec.ts';
import { freePort, waitForPort } from './ports.ts';

/** Where Debian and others put the dynamic-security plugin. */
function dynsecPlugin(): string | null {
  const dirs = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib/mosquitto', '/usr/lib', '/usr/local/lib', '/usr/lib64'];
  for (const dir of dirs) {
    const file = path.join(dir, 'mosquitto_dynamic_security.so');
    if (existsSync(file)) return file;
  }
  for (const dir of ['/usr/lib']) {
    for (const sub of existsSync(dir) ? readdirSync(dir) : []) {
      const file = path.join(dir, sub, 'mosquitto_dynamic_security.so');
      if (existsSync(file)) return file;
    }
  }
  return null;
}

function hasBinary(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why the Mosquitto tests cannot run here, or null when they can. */
export const mosquittoMissing: string | null = !hasBinary('mosquitto') || !hasBinary('mosquitto_ctrl')
  ? 'the mosquitto binary is not installed (.ci/run installs it)'
  : dynsecPlugin() === null
    ? 'the Mosquitto dynamic-security plugin is not installed'
    : null;

/**
 * The production Mosquitto settings of docs/operations.md, for a private broker. The
 * in-flight window bounds how many messages one ingest connection holds unacknowledged
 * (i.e. the ingest batch size); queues are unbounded so a slow or restarting server loses
 * nothing; persistence keeps sessions, queues and retained presence across a restart.
 */
export function mosquittoConf(opts: { port: number; dir: string; dynsecFile: string; plugin: string; tls?: MosquittoTls }): string {
  return [
    'per_listener_settings false',
    // Run as root (CI), Mosquitto would switch to its own user, who cannot read a private temp folder.
    ...(process.getuid?.() === 0 ? ['user root'] : []),
    `listener ${opts.port} 127.0.0.1`,
    // MQTT over TLS for the lifts (docs/operations.md): the same accounts and ACLs (per_listener_settings false).
    ...(opts.tls ? [`listener ${opts.tls.port} 127.0.0.1`, `certfile ${opts.tls.certFile}`, `keyfile ${opts.tls.keyFile}`] : []),
    'allow_anonymous false',
    `plugin ${opts.plugin}`,
    `plugin_opt_config_file ${opts.dynsecFile}`,
    'persistence true',
    `persistence_location ${opts.dir}/`,
    'autosave_interval 30',
    'max_inflight_messages 1000',
    'max_queued_messages 0',
    'max_queued_bytes 0',
    // A packet longer than this closes its connection, logged in or not (MQTT allows 256 MB).
    `max_packet_size ${MAX_PACKET_BYTES}`,
    'max_keepalive 120',
    // Small packets (PUBACK, commands, answers) out at once, not after a delayed ACK.
    'set_tcp_nodelay true',
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    '',
  ].join('\n');
}

/** A TLS listener: the port and the server certificate (chain allowed) with its key. */
export interface MosquittoTls {
  port: number;
  certFile: string;
  keyFile: string;
}

export interface PrivateMosquitto {
  url: string;
  port: number;
  /** mqtts://localhost:<port> when started with a TLS listener. */
  tlsUrl: string | null;
  /** The dynamic-security admin account the server connects with. */
  username: string;
  password: string;
  /** Env for the server: MQTT_URL, MQTT_USERNAME, MQTT_PASSWORD, MQTT_DYNSEC. */
  env: Record<string, string>;
  /** The running broker's process id (the benchmark reads its CPU time). */
  readonly pid: number | undefined;
  /** Stops the broker cleanly (it saves its state) and starts it again on the same port. */
  restart(downMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** Starts the stopped broker again on the same port and data. */
  start(): Promise<void>;
  /** Stops the broker and removes its files. */
  destroy(): Promise<void>;
}

/** Mosquitto's dynamic-security password format: PBKDF2-SHA512, 101 rounds, 12-byte salt. */
function dynsecPassword(secret: string): { password: string; salt: string; iterations: number } {
  const salt = randomBytes(12);
  return { password: pbkdf2Sync(secret, salt, 101, 64, 'sha512').toString('base64'), salt: salt.toString('base64'), iterations: 101 };
}

/**
 * Adds lift accounts straight into the dynamic-security file before the broker starts, in the
 * form the server's broker admin gives them. For benchmarks: Mosquitto 2.0 rewrites its whole
 * file after every command, so registering thousands of lifts one by one takes minutes.
 */
function preloadLifts(file: string, lifts: { deviceNo: string; secret: string }[]): void {
  const config = JSON.parse(readFileSync(file, 'utf8')) as { clients: unknown[]; roles: unknown[] };
  for (const lift of lifts) {
    config.roles.push({ rolename: liftRoleName(lift.deviceNo), acls: liftRoleAcls(lift.deviceNo).map((a) => ({ ...a, priority: 0 })) });
    config.clients.push({ username: lift.deviceNo, clientid: lift.deviceNo, ...dynsecPassword(lift.secret), roles: [{ rolename: liftRoleName(lift.deviceNo) }] });
  }
  writeFileSync(file, JSON.stringify(config));
}

/**
 * Gives the admin account the server's role before the broker starts, as the server does at
 * its first start: for tests of a server part without a whole server.
 */
function preloadServerRights(file: string, username: string): void {
  const config = JSON.parse(readFileSync(file, 'utf8')) as { clients: { username: string; roles?: { rolename: string; priority?: number }[] }[]; roles: unknown[] };
  config.roles.push({ rolename: SERVER_ROLE, acls: serverRoleAcls().map((a) => ({ ...a, priority: 0 })) });
  const admin = config.clients.find((c) => c.username === username)!;
  admin.roles = [...(admin.roles ?? []), { rolename: SERVER_ROLE, priority: 10 }];
  writeFileSync(file, JSON.stringify(config));
}

/** A Mosquitto of its own on a free port, with the dynamic-security plugin and a fresh admin account. */
export async function startMosquitto(opts: { lifts?: { deviceNo: string; secret: string }[]; tls?: { certFile: string; keyFile: string }; serverRights?: boolean } = {}): Promise<PrivateMosquitto> {
  const plugin = dynsecPlugin();
  if (!plugin) throw new Error('mosquitto_dynamic_security.so not found');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-mosquitto-'));
  const port = await freePort();
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const username = 'liftlink-server';
  const password = `pw-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  execFileSync('mosquitto_ctrl', ['dynsec', 'init', dynsecFile, username, password], { stdio: 'ignore' });
  if (opts.lifts?.length) preloadLifts(dynsecFile, opts.lifts);
  if (opts.serverRights) preloadServerRights(dynsecFile, username);
  const conf = path.join(dir, 'mosquitto.conf');
  const tls = opts.tls ? { ...opts.tls, port: await freePort() } : undefined;
  writeFileSync(conf, mosquittoConf({ port, dir, dynsecFile, plugin, ...(tls ? { tls } : {}) }));
  let child: ChildProcess | null = null;
  let log = '';

  async function start(): Promise<void> {
    child = spawn('mosquitto', ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr!.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    await Promise.race([
      waitForPort(port).then(() => (tls ? waitForPort(tls.port) : undefined)),
      new Promise((_, reject) => child!.once('exit', (code) => reject(new Error(`mosquitto exited with ${code}: ${log}`)))),
    ]);
  }

  async function stop(): Promise<void> {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (c.exitCode === null) c.kill('SIGKILL');
  }

  await start();
  const url = `mqtt://127.0.0.1:${port}`;
  return {
    url,
    port,
    tlsUrl: tls ? `mqtts://localhost:${tls.port}` : null,
    username,
    password,
    env: { MQTT_URL: url, MQTT_USERNAME: username, MQTT_PASSWORD: password, MQTT_DYNSEC: 'true' },
    get pid() {
      return child?.pid;
    },
    async restart(downMs = 0) {
      await stop();
      await new Promise((r) => setTimeout(r, downMs));
      await start();
    },
    stop,
    start,
    async destroy() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
