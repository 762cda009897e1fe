import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { liftTopic } from '@liftlink/protocol';
import { startFleet, type FleetHandle } from '../../simulator/src/fleet.ts';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { mosquittoMissing, startMosquitto, type PrivateMosquitto } from './support/mosquitto.ts';
import { rabbitmqMissing, rabbitmqServerEnv, startBrokerCluster, type BrokerCluster } from './support/broker-cluster.ts';
import { RabbitApi } from '../src/modules/broker/rabbitmq-api.ts';
import { skipWithout } from './support/required.ts';
import { TcpProxy } from './support/tcp-proxy.ts';
import { until } from './support/ports.ts';

/**
 * Issue 15, "No replays" (docs/remote-control.md): a command the lift did not answer before
 * its expiry is never carried out later, not even after the broker restarted with the lift's
 * persistent session. The lift is cut off silently (a frozen TCP relay: the broker and the
 * server still count it connected), a `lock` command times out, the broker restarts (Mosquitto
 * with persistence, as operators run it; on the cluster a clean restart of the node the lift's
 * session queue lives on), and the lift comes back on its session. The lift must not be
 * locked, must not even receive the command (Mosquitto keeps nothing for it: commands go at
 * QoS 0 there; a message TTL on the cluster's session queues; the embedded broker's forward
 * check), and the record stays `timeout`. The embedded broker lives in the
 * server's process, so there the lift's return is a reconnection to the same broker.
 */
const MODES = ['embedded', 'mosquitto', 'rabbitmq'] as const;
const mosquittoSkipped = skipWithout('Mosquitto', mosquittoMissing);
const rabbitmqSkipped = skipWithout('RabbitMQ', rabbitmqMissing);
/** Short, so the test is quick: the command expires while the lift is away. */
const COMMAND_WAIT_MS = 1_500;
/** How long past a command's expiry a broker may still hand it out (Mosquitto: whole seconds). */
const BROKER_EXPIRY_SLACK_MS = 2_000;
/** How long the lift stays away after the broker is back. */
const AWAY_AFTER_RESTART_MS = 8_000;

describe.each(MODES)('a command that expired unanswered, across a restart of the %s broker', (mode) => {
  const skip = (mode === 'mosquitto' && mosquittoSkipped) || (mode === 'rabbitmq' && rabbitmqSkipped);
  let broker: PrivateMosquitto | undefined;
  let cluster: BrokerCluster | undefined;
  let t: TestApp;
  let proxy: TcpProxy;
  let fleet: FleetHandle | undefined;
  let spy: MqttClient | undefined;
  let lift: { id: string; deviceNo: string };
  let admin: ReturnType<typeof client>;
  /** The lift's command answers as the broker carried them: its own word on what it received. */
  const answers: { commandId: string; state: string; reason?: string }[] = [];
  /** On the cluster the lift connects to this node (the server's own connection starts at the first). */
  const LIFT_NODE = 1;

  beforeAll(async () => {
    if (skip) return;
    if (mode === 'mosquitto') broker = await startMosquitto();
    if (mode === 'rabbitmq') cluster = await startBrokerCluster('rabbitmq');
    const env = cluster ? rabbitmqServerEnv(cluster) : (broker?.env ?? {});
    const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
    t = await startTestApp(kind, { ...env, COMMAND_WAIT_MS: String(COMMAND_WAIT_MS), HEARTBEAT_SECONDS: '30' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    const [demo] = await ensureDemoFleet(t.database.sql, 1);
    // Issued through the real path: registered with the broker the lift uses.
    const issued = await t.app.deviceCredentials.issue(demo!.id);
    lift = { id: demo!.id, deviceNo: issued.deviceNo };

    const brokerPort = broker?.port ?? (cluster ? Number(new URL(cluster.mqttUrls[LIFT_NODE]!).port) : Number(t.app.mqtt.options.port));
    proxy = await new TcpProxy(brokerPort).listen();
    // Watches the lift's answers with the server's account, on a session of its own that a restart keeps.
    const spyUrl = broker?.url ?? cluster?.mqttUrls[0] ?? `mqtt://127.0.0.1:${brokerPort}`;
    const spyAccount = broker ? { username: broker.username, password: broker.password } : cluster ? cluster.server : null;
    if (spyAccount) {
      spy = mqtt.connect(spyUrl, { ...spyAccount, clientId: `expiry-spy-${Math.random().toString(36).slice(2, 8)}`, clean: false, reconnectPeriod: 300 });
      spy.on('error', () => undefined);
      spy.on('message', (_topic, payload) => answers.push(JSON.parse(payload.toString('utf8')) as (typeof answers)[number]));
      await new Promise((resolve) => spy!.once('connect', resolve));
      await spy.subscribeAsync(liftTopic(lift.deviceNo, 'cmd/ack'), { qos: 1 });
    } else {
      // Embedded: the broker is in this process; its own hook shows what the lift says.
      t.app.broker!.on('publish', (packet, from) => {
        if (from && packet.topic === liftTopic(lift.deviceNo, 'cmd/ack')) answers.push(JSON.parse(packet.payload.toString()) as (typeof answers)[number]);
      });
    }
    fleet = await startFleet({
      mqttUrl: `mqtt://127.0.0.1:${proxy.port}`,
      lifts: [{ deviceNo: issued.deviceNo, secret: issued.secret, kind: demo!.kind, floors: demo!.floors }],
      // Back within a fraction of a second when its connection is lost (the rule's shape, scaled).
      reconnectMs: 200,
      tickMs: 100,
      log: () => undefined,
    });
  }, 240_000);

  afterAll(async () => {
    await fleet?.stop();
    await spy?.endAsync(true).catch(() => undefined);
    await proxy?.close();
    await t?.close();
    await broker?.destroy();
    await cluster?.destroy();
  }, 120_000);

  const online = async () => (await t.database.sql.query<{ online: boolean }>('select online from lifts where id = $1', [lift.id]))[0]?.online === true;
  const simulated = () => fleet!.lift(lift.deviceNo)!;

  /** Restarts the broker while the lift's connection hangs; the lift cannot reach it before `proxy.restore()`. */
  async function restartBroker(): Promise<void> {
    if (broker) {
      // A clean stop saves sessions and queued messages (persistence true), as an operator's restart does.
      await broker.stop();
      proxy.cut();
      await broker.start();
    } else if (cluster) {
      // The node the lift is connected to and the one leading its session queue (the same one
      // when the queue was declared there), one after the other, as in a rolling restart.
      const api = new RabbitApi(cluster.apiUrls, cluster.server.username, cluster.server.password);
      const queue = (await api.request('GET', `/api/queues/%2F/${encodeURIComponent(`mqtt-subscription-${lift.deviceNo}qos1`)}`)) as { leader?: string } | null;
      const leader = Number(/n(\d)@/.exec(queue?.leader ?? '')?.[1] ?? LIFT_NODE + 1) - 1;
      for (const node of new Set([LIFT_NODE, leader])) {
        await cluster.stop(node);
        proxy.cut();
        await cluster.start(node);
      }
    } else {
      // The embedded broker is the server's: the lift's session survives its reconnection only.
      proxy.cut();
    }
  }

  it.skipIf(skip)('is never carried out, nor delivered, when the lift comes back on its session', async () => {
    await until('lift online', async () => (await online()) && simulated().connected, 60_000);
    expect(simulated().machine.status().housing.io.lockoutMode).toBe(false);

    // The lift's line goes dead without a goodbye: broker and server still count it connected.
    proxy.freeze();
    const res = await admin.post('/auth/access/lift/control', { liftId: lift.id, command: 'lock', args: { on: true } });
    expect(body(res).code, res.body).toBe('lift.timeout');
    const commandId = body<{ commandId: string }>(res).result.commandId;
    expect(commandId).toBeTruthy();
    expect(await online(), 'the server still counted the lift online').toBe(true);

    await restartBroker();
    const restartedAt = Date.now();
    // The lift stays away well past both the expiry and the restart: a broker that kept the
    // command would hand it over now (Mosquitto 2.0 restores a persisted QoS 1 message whose
    // expiry passed while it was down without any expiry: why commands go at QoS 0 there).
    const [sent] = await t.database.sql.query<{ expires_at: Date }>('select expires_at from lift_commands where id = $1', [commandId]);
    const safeAt = Math.max(new Date(sent!.expires_at).getTime() + BROKER_EXPIRY_SLACK_MS, restartedAt + AWAY_AFTER_RESTART_MS);
    await new Promise((r) => setTimeout(r, Math.max(0, safeAt - Date.now())));
    proxy.restore();
    await until('lift back on its session', () => simulated().connected, 60_000, 100);

    // A later command goes through the same session and is answered: anything the broker kept
    // for the lift came before it. Retried while the server has not yet seen the lift back.
    const marker = await until(
      'a later command answered',
      async () => {
        const r = await admin.post('/auth/access/lift/config/read', { liftId: lift.id });
        return body(r).code === 'lift.offline' ? null : r;
      },
      60_000,
      300,
    );
    expect(body(marker).result?.state, marker.body).toBe('done');
    // The answers cross the broker too: a moment for one to the expired command.
    await new Promise((r) => setTimeout(r, 1_000));

    expect(simulated().machine.status().housing.io.lockoutMode, 'the lift was locked by an expired command').toBe(false);
    const [row] = await t.database.sql.query<{ state: string }>('select state from lift_commands where id = $1', [commandId]);
    expect(row?.state).toBe('timeout');
    const locked = await t.database.sql.query(`select 1 from lift_events where lift_id = $1 and code = 'RZOS'`, [lift.id]);
    expect(locked, 'a lock-on event in the run log').toEqual([]);
    // Not even refused as expired: the broker dropped it (Mosquitto kept nothing: QoS 0).
    expect(answers.filter((a) => a.commandId === commandId)).toEqual([]);
  }, 300_000);
});
