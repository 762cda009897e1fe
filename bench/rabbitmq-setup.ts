/**
 * The benchmark's private RabbitMQ cluster (apps/server/test/support/broker-cluster.ts) made
 * ready for a large fleet: lift accounts in bulk, and each node's memory watermark as on a
 * production node.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { MQTT_VHOST, liftPermissions } from '../apps/server/src/modules/broker/rabbitmq-names.ts';
import { liftRightsVersion } from '../apps/server/src/modules/broker/lift-rights.ts';
import type { SqlExecutor } from '../apps/server/src/db/client.ts';

/** RabbitMQ's stored form of a password (rabbit_password_hashing_sha256): base64(salt ++ sha256(salt ++ password)). */
function passwordHash(password: string): string {
  const salt = randomBytes(4);
  return Buffer.concat([
    salt,
    createHash('sha256').update(salt).update(password, 'utf8').digest(),
  ]).toString('base64');
}

const basic = (admin: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;

/**
 * Lift accounts in bulk. The server's own path (rabbitmqBrokerAdmin: four management API
 * requests per lift) takes minutes for 20,000 lifts; a definitions import creates the same
 * users, permissions and topic permissions (liftPermissions, the server's own patterns) a
 * few thousand per request.
 */
export async function importLiftAccounts(
  apiUrl: string,
  admin: { username: string; password: string },
  lifts: { deviceNo: string; secret: string }[],
  chunk = 2_000,
): Promise<void> {
  const authorization = basic(admin);
  for (let i = 0; i < lifts.length; i += chunk) {
    const part = lifts.slice(i, i + chunk);
    const definitions = {
      users: part.map((l) => ({
        name: l.deviceNo,
        password_hash: passwordHash(l.secret),
        hashing_algorithm: 'rabbit_password_hashing_sha256',
        tags: '',
      })),
      permissions: part.map((l) => ({
        user: l.deviceNo,
        vhost: MQTT_VHOST,
        ...liftPermissions(l.deviceNo).permissions,
      })),
      topic_permissions: part.map((l) => ({
        user: l.deviceNo,
        vhost: MQTT_VHOST,
        ...liftPermissions(l.deviceNo).topic,
      })),
    };
    const res = await fetch(`${apiUrl.replace(/\/$/, '')}/api/definitions`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(definitions),
      signal: AbortSignal.timeout(300_000),
    });
    if (!res.ok) throw new Error(`RabbitMQ definitions import: ${res.status} ${await res.text()}`);
  }
}

/**
 * Records that the lift accounts have today's rights (importLiftAccounts writes them), as a
 * server that issued them itself would have: else its first start gives every lift its rights
 * again in the background, one management API request per lift (lift-rights.ts), load that
 * would fall into the measurements.
 */
export async function recordLiftRightsCurrent(sql: SqlExecutor): Promise<void> {
  await sql.query(
    `insert into broker_lift_rights (broker, version) values ('rabbitmq', $1) on conflict (broker) do update set version = excluded.version`,
    [liftRightsVersion()],
  );
}

interface NodeInfo {
  name: string;
  mem_used: number;
  mem_limit: number;
  mem_alarm: boolean;
}

export async function nodesInfo(
  apiUrl: string,
  admin: { username: string; password: string },
): Promise<NodeInfo[]> {
  const res = await fetch(`${apiUrl.replace(/\/$/, '')}/api/nodes`, {
    headers: { authorization: basic(admin) },
  });
  if (!res.ok) throw new Error(`RabbitMQ /api/nodes: ${res.status}`);
  return (await res.json()) as NodeInfo[];
}

/** The Erlang VM of a node (its pid) and the environment it was started with (its cookie's HOME, its epmd port), from /proc. */
function nodeProcess(node: string): { pid: number; env: NodeJS.ProcessEnv } | null {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const vars = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      if (
        !vars.includes(`RABBITMQ_NODENAME=${node}`) ||
        !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('beam')
      )
        continue;
      return {
        pid: Number(pid),
        env: Object.fromEntries(
          vars
            .filter(Boolean)
            .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)]),
        ),
      };
    } catch {
      /* gone, or not ours to read */
    }
  }
  return null;
}

/** The pids of the cluster's Erlang VMs (for their CPU time: other clusters may run on the machine). */
export async function nodePids(
  apiUrl: string,
  admin: { username: string; password: string },
): Promise<number[]> {
  return (await nodesInfo(apiUrl, admin))
    .map(({ name }) => nodeProcess(name)?.pid)
    .filter((pid): pid is number => pid !== undefined);
}

/**
 * Each node's memory high watermark for a benchmark: RabbitMQ's default (0.4 of a node's
 * memory) of a node with a third of this machine, or BENCH_RABBITMQ_WATERMARK_GIB. The test
 * cluster's 1 GB would block every publishing connection long before 20,000 lifts are in
 * (docs/operations.md 7.1).
 */
export function benchMemoryWatermarkBytes(): number {
  const gib = process.env.BENCH_RABBITMQ_WATERMARK_GIB;
  return gib ? Math.round(Number(gib) * 2 ** 30) : Math.round((os.totalmem() / 3) * 0.4);
}

/** How long an alarm may stay on before the benchmark gives up: the lifts cannot connect through it. */
const ALARM_GIVE_UP_MS = Number(process.env.BENCH_RABBITMQ_ALARM_GIVE_UP_MS ?? 60_000);

/**
 * Watches the cluster's resource alarms (memory, disk): while one is on, RabbitMQ blocks
 * every publishing connection, lifts and servers alike. `stop` returns when the first began
 * (ms after `watchAlarms`) and how long alarms were on in all. `stuck` rejects, naming the
 * way out, once an alarm has stayed on for `giveUpMs`: a run that waits on blocked lifts
 * would otherwise wait until its own timeout, measuring nothing.
 */
export function watchAlarms(
  apiUrl: string,
  admin: { username: string; password: string },
  everyMs = 2_000,
  giveUpMs = ALARM_GIVE_UP_MS,
): { stop: () => { firstMs: number | null; alarmedMs: number }; stuck: Promise<never> } {
  const started = Date.now();
  let firstMs: number | null = null;
  let alarmedMs = 0;
  let last = Date.now();
  let onSince: number | null = null;
  let busy = false;
  let giveUp!: (err: Error) => void;
  const stuck = new Promise<never>((_, reject) => (giveUp = reject));
  stuck.catch(() => undefined);
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    fetch(`${apiUrl.replace(/\/$/, '')}/api/health/checks/alarms`, {
      headers: { authorization: basic(admin) },
      signal: AbortSignal.timeout(10_000),
    })
      .then((res) => {
        const now = Date.now();
        // 503: an alarm is in effect somewhere in the cluster.
        if (res.status === 503) {
          firstMs ??= now - started;
          alarmedMs += now - last;
          onSince ??= now;
          if (now - onSince >= giveUpMs) {
            clearInterval(timer);
            giveUp(
              new Error(
                `a RabbitMQ resource alarm has blocked every publisher for ${Math.round((now - onSince) / 1000)} s: give each node more memory ` +
                  `(BENCH_RABBITMQ_WATERMARK_GIB, now ${(benchMemoryWatermarkBytes() / 2 ** 30).toFixed(1)} GiB; about 0.45 MiB a lift, docs/operations.md 15.8) or run fewer lifts (BENCH_LIFTS)`,
              ),
            );
          }
        } else onSince = null;
        last = now;
        return res.body?.cancel();
      })
      .catch(() => undefined)
      .finally(() => (busy = false));
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { firstMs, alarmedMs };
    },
    stuck,
  };
}
