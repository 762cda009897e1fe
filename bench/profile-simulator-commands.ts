/**
 * `node --import tsx bench/profile-simulator-commands.ts`: the command round trip with the
 * product's own simulated lift (apps/simulator, MQTT.js) instead of the benchmark's bare
 * lifts: the server as its own process with two demo lifts, COMMANDS (200) lock commands one
 * after another through the HTTP API. Prints p50 / p90 / p99 / max as one JSON line. The
 * simulator is what the demo, the tests and a lift maker's first integration run against, so
 * its answers should carry no delay a well-built lift would not have. PROFILE_BROKER=rabbitmq
 * runs it on PostgreSQL (TEST_DATABASE_URL, a scratch database) and a private three-node
 * RabbitMQ cluster instead of the embedded mode. Figures, not assertions.
 */
import { percentile } from './stats.ts';
import { signIn, startServerProcess } from '../apps/server/test/support/server-process.ts';
import { until } from '../apps/server/test/support/ports.ts';
import { createDatabase } from '../apps/server/test/support/postgres.ts';
import { rabbitmqServerEnv, startBrokerCluster } from '../apps/server/test/support/broker-cluster.ts';

const COMMANDS = Number(process.env.COMMANDS ?? 200);
const onCluster = process.env.PROFILE_BROKER === 'rabbitmq';

const cleanup: (() => Promise<void>)[] = [];
const env: Record<string, string> = { SIMULATOR: '2', DEMO_LOCAL_CALLS_PER_HOUR: '0', MQTT_PORT: '0' };
if (onCluster) {
  const scratch = await createDatabase(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  cleanup.push(scratch.drop);
  const cluster = await startBrokerCluster('rabbitmq');
  cleanup.push(() => cluster.destroy());
  Object.assign(env, { DATABASE_URL: scratch.url, ...rabbitmqServerEnv(cluster) });
}
const server = await startServerProcess(env, { timeoutMs: 120_000 });
cleanup.unshift(() => server.stop());
try {
  const token = await signIn(server);
  const page = await server.api<{ list: { id: string; deviceNo: string }[] }>('GET', '/auth/access/lift/get?pageSize=10', undefined, token);
  const lift = page.body.result.list.find((l) => l.deviceNo === 'DEMO-0001')!;
  await until('demo lift online', async () => (await server.api<{ lift?: { online: boolean } }>('POST', '/auth/access/lift/getInfo', { liftId: lift.id }, token)).body.result?.lift?.online === true, 60_000);
  const times: number[] = [];
  for (let i = 0; i < COMMANDS + 20; i++) {
    const started = performance.now();
    const res = await server.api('POST', '/auth/access/lift/control', { liftId: lift.id, command: 'lock', args: { on: i % 2 === 0 } }, token);
    if (res.status !== 200) throw new Error(`command failed: ${res.status} ${JSON.stringify(res.body)}`);
    // The first 20 warm the server up.
    if (i >= 20) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ mode: onCluster ? 'postgres+rabbitmq-cluster' : 'embedded', commands: COMMANDS, p50: percentile(times, 50), p90: percentile(times, 90), p99: percentile(times, 99), max: percentile(times, 100) }));
} finally {
  for (const step of cleanup) await step();
}
