/**
 * `node --import tsx bench/profile-cluster-hops.ts`: where a command's time goes on the
 * RabbitMQ cluster, hop by hop, with nothing else running. A private three-node cluster,
 * one lift on node 2 and the server's two connections on node 1 (as a server instance and a
 * lift on different nodes usually are):
 *
 *   downlink  the server publishes on the lift's `cmd` topic (MQTT, QoS 1) -> the lift has it
 *   puback    the lift publishes its answer on `cmd/ack` (QoS 1) -> the lift has its PUBACK
 *             (the quorum ingest queue has committed it on a majority of the nodes)
 *   uplink    the lift publishes its answer -> the server's ingest consumer (AMQP) has it
 *   uplinkQos0  the same at QoS 0 -> the ingest consumer has it (no publisher confirm)
 *
 * SAMPLES (default 500) one after another; PROBE_LIFT_NAGLE=1 leaves Nagle's algorithm on at
 * the lift (docs/protocol.md 1, "TCP"). Prints p50 / p90 / p99 / max per hop as one JSON
 * line. Figures, not assertions.
 */
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import mqtt, { type MqttClient } from 'mqtt';
import { liftTopic, noDelay } from '@liftlink/protocol';
import { startBrokerCluster } from '../apps/server/test/support/broker-cluster.ts';
import { INGEST_QUEUE, MQTT_EXCHANGE, ingestBindings, swapSeparators } from '../apps/server/src/modules/broker/rabbitmq-names.ts';
import { percentile } from './stats.ts';

const SAMPLES = Number(process.env.SAMPLES ?? 500);
/** PROBE_LIFT_NAGLE=1: the lift leaves Nagle's algorithm on (MQTT.js's default), as a lift built without TCP_NODELAY would. */
const liftNagle = process.env.PROBE_LIFT_NAGLE === '1';
const deviceNo = 'PROBE-00001';
const lift = { username: deviceNo, password: `pw-${randomBytes(8).toString('hex')}` };

function connect(url: string, username: string, password: string, clientId: string, nagle = false): Promise<MqttClient> {
  const client = mqtt.connect(url, { username, password, clientId, protocolVersion: 4, clean: true, reconnectPeriod: 0 });
  return new Promise((resolve, reject) => {
    client.once('connect', () => {
      // As the server's, the simulator's and the benchmark lifts' connections (docs/protocol.md 1, "TCP").
      if (!nagle) noDelay(client);
      resolve(client);
    });
    client.once('error', reject);
  });
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: percentile(sorted, 100) };
};

const cluster = await startBrokerCluster('rabbitmq', { accounts: [lift] });
try {
  const { username, password } = cluster.server;
  const amqpUrl = new URL(cluster.nativeUrls[0]!);
  const conn = await amqp.connect({ hostname: amqpUrl.hostname, port: Number(amqpUrl.port), username, password });
  const ch = await conn.createChannel();
  await ch.assertQueue(INGEST_QUEUE, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  for (const key of ingestBindings()) await ch.bindQueue(INGEST_QUEUE, MQTT_EXCHANGE, key);
  const ingested = new Map<string, () => void>();
  await ch.consume(INGEST_QUEUE, (msg) => {
    if (!msg) return;
    ch.ack(msg);
    if (swapSeparators(msg.fields.routingKey).endsWith('cmd/ack')) ingested.get(msg.content.toString())?.();
  });

  const serverMqtt = await connect(cluster.mqttUrls[0]!, username, password, `probe-server-${randomBytes(3).toString('hex')}`);
  const liftMqtt = await connect(cluster.mqttUrls[1]!, lift.username, lift.password, deviceNo, liftNagle);
  const received = new Map<string, () => void>();
  liftMqtt.on('message', (_topic, payload) => received.get(payload.toString())?.());
  await liftMqtt.subscribeAsync(liftTopic(deviceNo, 'cmd'), { qos: 1 });

  const hops = { downlink: [] as number[], puback: [] as number[], uplink: [] as number[], uplinkQos0: [] as number[] };
  const waitFor = (map: Map<string, () => void>, id: string) => new Promise<void>((resolve) => map.set(id, resolve));
  for (let i = 0; i < SAMPLES; i++) {
    const id = `${i}-${randomBytes(4).toString('hex')}`;
    let t = performance.now();
    const got = waitFor(received, id);
    serverMqtt.publish(liftTopic(deviceNo, 'cmd'), id, { qos: 1 });
    await got;
    hops.downlink.push(performance.now() - t);

    t = performance.now();
    const taken = waitFor(ingested, id);
    let acked = 0;
    await new Promise<void>((resolve, reject) =>
      liftMqtt.publish(liftTopic(deviceNo, 'cmd/ack'), id, { qos: 1 }, (err) => {
        acked = performance.now() - t;
        if (err) reject(err);
        else resolve();
      }),
    );
    await taken;
    hops.puback.push(acked);
    hops.uplink.push(performance.now() - t);

    const id0 = `${id}-q0`;
    t = performance.now();
    const taken0 = waitFor(ingested, id0);
    liftMqtt.publish(liftTopic(deviceNo, 'cmd/ack'), id0, { qos: 0 });
    await taken0;
    hops.uplinkQos0.push(performance.now() - t);
  }
  console.log(JSON.stringify({ samples: SAMPLES, liftNagle, downlink: summary(hops.downlink), puback: summary(hops.puback), uplink: summary(hops.uplink), uplinkQos0: summary(hops.uplinkQos0) }));
  serverMqtt.end(true);
  liftMqtt.end(true);
  await conn.close();
} finally {
  await cluster.destroy();
}
