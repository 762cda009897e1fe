/**
 * Clustered broker choice (issue 14): NATS (JetStream + MQTT) against RabbitMQ (MQTT plugin +
 * quorum queues), three private nodes each (apps/server/test/support/broker-cluster.ts).
 *
 * Per candidate: BENCH_CLIENTS (500) lifts connect over MQTT 3.1.1 with their own accounts,
 * spread over the three nodes (persistent session, QoS 1 subscriptions to their downlink
 * topics, as real lifts do); time until all are connected and subscribed, and the brokers'
 * resident memory. Each lift then publishes a QoS 1 status every second for BENCH_SECONDS
 * (20) while one ingest consumer takes them from the replicated stream or queue
 * (NATS: durable JetStream consumer on $MQTT_msgs, explicit ack; RabbitMQ: quorum queue bound
 * to amq.topic, manual ack) and acknowledges each after recording it: rate and
 * publish-to-consume latency. Then the node leading the ingest stream/queue is killed
 * (SIGKILL) while the lifts go on publishing: time until every lift is connected and
 * subscribed again through the other nodes, and whether a message the broker had
 * acknowledged (PUBACK) was lost, or delivered twice, by the end. Finally the node is started
 * again (a rolling restart's step) and the time until it serves is printed.
 *
 * One JSON line per candidate on stdout; progress on stderr. BENCH_BROKERS=nats or rabbitmq
 * for one. Prints figures, asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import amqp from 'amqplib';
import mqtt, { type MqttClient } from 'mqtt';
import { AckPolicy, connect as natsConnect, nanos, type NatsConnection } from 'nats';
import { DOWNLINK_TOPICS, liftTopic } from '@liftlink/protocol';
import { startBrokerCluster, type BrokerAccount, type BrokerCluster, type BrokerKind } from '../apps/server/test/support/broker-cluster.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const BROKERS = (process.env.BENCH_BROKERS ?? 'nats,rabbitmq').split(',') as BrokerKind[];
/** The node killed: the one leading the ingest stream (NATS) or queue (RabbitMQ). */
const VICTIM = 2;
const INGEST = 'liftlink-ingest';

const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function quantile(sorted: number[], q: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

interface Delivery {
  deviceNo: string;
  seq: number;
  sentAt: number;
}

/** The ingest side: takes every status from the replicated stream/queue, acks after "storing". */
interface Ingest {
  /** What the broker still holds for the consumer (NATS: not yet delivered / delivered and not acknowledged). */
  backlog?(): Promise<unknown>;
  close(): Promise<void>;
}

async function natsIngest(cluster: BrokerCluster, onMessage: (d: Delivery) => void): Promise<{ ingest: Ingest; leaderTo: (node: number) => Promise<void> }> {
  // The consumer's own connection avoids the node to be killed; it fails over between the others.
  const nc: NatsConnection = await natsConnect({ servers: cluster.nativeUrls.filter((_, i) => i !== VICTIM), user: cluster.server.username, pass: cluster.server.password, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  const jsm = await nc.jetstreamManager();
  // NATS 2.9 allows one filter subject per consumer (several arrived in 2.10): the server
  // would hold one durable consumer per uplink kind; the benchmark's lifts send statuses only.
  await jsm.consumers.add('$MQTT_msgs', { durable_name: INGEST, ack_policy: AckPolicy.Explicit, filter_subject: '$MQTT.msgs.lifts.*.status', max_ack_pending: 10_000, ack_wait: nanos(30_000) });
  const consumer = await nc.jetstream().consumers.get('$MQTT_msgs', INGEST);
  const messages = await consumer.consume({ max_messages: 1_000 });
  void (async () => {
    for await (const m of messages) {
      const body = JSON.parse(new TextDecoder().decode(m.data)) as { seq: number; sentAt: number };
      onMessage({ deviceNo: m.subject.split('.')[3]!, seq: body.seq, sentAt: body.sentAt });
      m.ack();
    }
  })();
  const leaderTo = async (node: number) => {
    for (let tries = 0; tries < 12; tries++) {
      const leader = (await jsm.streams.info('$MQTT_msgs')).cluster?.leader;
      if (leader === `n${node + 1}`) return;
      await nc.request('$JS.API.STREAM.LEADER.STEPDOWN.$MQTT_msgs', undefined, { timeout: 5_000 }).catch(() => undefined);
      await sleep(1_500);
    }
    log('nats: could not move the $MQTT_msgs leader; killing the node anyway');
  };
  return {
    ingest: {
      async backlog() {
        const info = await jsm.consumers.info('$MQTT_msgs', INGEST);
        const stream = await jsm.streams.info('$MQTT_msgs');
        return { pending: info.num_pending, ackPending: info.num_ack_pending, redelivered: info.num_redelivered, streamMessages: stream.state.messages, consumerLeader: info.cluster?.leader };
      },
      async close() {
        messages.stop();
        await nc.close();
      },
    },
    leaderTo,
  };
}

async function rabbitIngest(cluster: BrokerCluster, onMessage: (d: Delivery) => void): Promise<Ingest> {
  const withCreds = (url: string) => url.replace('amqp://', `amqp://${encodeURIComponent(cluster.server.username)}:${encodeURIComponent(cluster.server.password)}@`);
  // Declared through the node to be killed: a quorum queue's leader starts on the declaring node.
  const setup = await amqp.connect(withCreds(cluster.nativeUrls[VICTIM]!));
  const ch0 = await setup.createChannel();
  await ch0.assertQueue(INGEST, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
  await ch0.bindQueue(INGEST, 'amq.topic', 'lifts.*.status');
  await setup.close();
  let closed = false;
  let conn: Awaited<ReturnType<typeof amqp.connect>> | null = null;
  // The consumer's connection avoids the killed node; it moves to another node if its own goes.
  const run = async (node: number): Promise<void> => {
    while (!closed) {
      try {
        conn = await amqp.connect(withCreds(cluster.nativeUrls[node]!));
        conn.on('error', () => undefined);
        const ch = await conn.createChannel();
        ch.on('error', () => undefined);
        await ch.prefetch(1_000);
        let cancelled: () => void = () => undefined;
        const ended = new Promise<void>((resolve) => {
          cancelled = resolve;
          conn!.once('close', () => resolve());
          ch.once('close', () => resolve());
        });
        await ch.consume(INGEST, (m) => {
          if (!m) return cancelled();
          const body = JSON.parse(m.content.toString()) as { seq: number; sentAt: number };
          onMessage({ deviceNo: m.fields.routingKey.split('.')[1]!, seq: body.seq, sentAt: body.sentAt });
          ch.ack(m);
        });
        await ended;
        await conn.close().catch(() => undefined);
      } catch {
        await sleep(250);
      }
      node = node === 0 ? 1 : 0;
    }
  };
  void run(0);
  return {
    async close() {
      closed = true;
      await conn?.close().catch(() => undefined);
    },
  };
}

/** Connects once, without retrying; resolves to the client or the refusal. */
async function tryConnect(url: string, username: string, password: string, clientId: string): Promise<MqttClient | Error> {
  try {
    return await mqtt.connectAsync(url, { username, password, clientId, protocolVersion: 4, clean: true, reconnectPeriod: 0, connectTimeout: 5_000 });
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/**
 * A lift outside the fleet is connected, its secret is reset, and the clock runs until every
 * node refuses the old secret and accepts the new one. Whether its open connection was ended
 * is reported too (RabbitMQ keeps it until the server closes it: see docs/operations.md 15).
 */
async function credentialReset(cluster: BrokerCluster, fleet: BrokerAccount[]): Promise<{ resetMs: number | null; oldConnectionClosed: boolean; oldRefused: boolean; newAccepted: boolean }> {
  const probe = { username: 'BENCH-PROBE', password: randomBytes(16).toString('hex') };
  await cluster.setAccounts([...fleet, probe]);
  const open = await tryConnect(cluster.mqttUrls[0]!, probe.username, probe.password, probe.username);
  if (open instanceof Error) throw open;
  let closed = false;
  open.on('close', () => (closed = true));
  const next = { ...probe, password: randomBytes(16).toString('hex') };
  const t0 = Date.now();
  await cluster.setAccounts([...fleet, next]);
  let oldRefused = false;
  let newAccepted = false;
  let resetMs: number | null = null;
  for (const end = Date.now() + 10_000; Date.now() < end && resetMs === null; ) {
    const running = [0, 1, 2].filter((i) => cluster.running(i));
    const olds = await Promise.all(running.map((i) => tryConnect(cluster.mqttUrls[i]!, probe.username, probe.password, `${probe.username}-old-${i}`)));
    const news = await Promise.all(running.map((i) => tryConnect(cluster.mqttUrls[i]!, next.username, next.password, `${next.username}-new-${i}`)));
    for (const c of [...olds, ...news]) if (!(c instanceof Error)) await c.endAsync(true);
    oldRefused = olds.every((c) => c instanceof Error);
    newAccepted = news.every((c) => !(c instanceof Error));
    if (oldRefused && newAccepted) resetMs = Date.now() - t0;
  }
  for (const end = Date.now() + 2_000; Date.now() < end && !closed; ) await sleep(100);
  await open.endAsync(true);
  await cluster.setAccounts(fleet);
  return { resetMs, oldConnectionClosed: closed, oldRefused, newAccepted };
}

interface Lift {
  deviceNo: string;
  secret: string;
  home: number;
  client: MqttClient;
  ready: boolean;
  seq: number;
}

async function measure(kind: BrokerKind): Promise<Record<string, unknown>> {
  const accounts: BrokerAccount[] = Array.from({ length: CLIENTS }, (_, i) => ({ username: `BENCH-${String(i + 1).padStart(5, '0')}`, password: randomBytes(16).toString('hex') }));
  let t0 = Date.now();
  const cluster = await startBrokerCluster(kind, { accounts });
  const startMs = Date.now() - t0;
  log(`${kind}: cluster formed in ${startMs} ms`);
  const received = new Map<string, number>();
  const latencies: number[] = [];
  let window: { from: number; to: number } | null = null;
  let inWindow = 0;
  const onMessage = (d: Delivery) => {
    const key = `${d.deviceNo}/${d.seq}`;
    received.set(key, (received.get(key) ?? 0) + 1);
    const now = Date.now();
    if (window && d.sentAt >= window.from && d.sentAt < window.to) {
      latencies.push(now - d.sentAt);
      inWindow++;
    }
  };
  const lifts: Lift[] = [];
  let ingest: Ingest | null = null;
  try {
    // The server's MQTT connection first (NATS creates its MQTT streams on the first MQTT client).
    const serverMqtt = await mqtt.connectAsync(cluster.mqttUrls[0]!, { username: cluster.server.username, password: cluster.server.password, clientId: `liftlink-${kind}-svc`, protocolVersion: 4, reconnectPeriod: 0 });
    await serverMqtt.endAsync();
    let leaderTo: ((node: number) => Promise<void>) | null = null;
    if (kind === 'nats') {
      const n = await natsIngest(cluster, onMessage);
      ingest = n.ingest;
      leaderTo = n.leaderTo;
    } else {
      ingest = await rabbitIngest(cluster, onMessage);
    }

    // Connect the fleet, a third per node; each lift fails over to the next nodes in turn.
    t0 = Date.now();
    const acked = new Set<string>();
    let published = 0;
    let pending = 0;
    await Promise.all(
      accounts.map(
        (a, i) =>
          new Promise<void>((resolve) => {
            const home = i % 3;
            const servers = [0, 1, 2].map((k) => new URL(cluster.mqttUrls[(home + k) % 3]!)).map((u) => ({ host: u.hostname, port: Number(u.port) }));
            const client = mqtt.connect({
              servers,
              protocolVersion: 4,
              clientId: a.username,
              username: a.username,
              password: a.password,
              clean: false,
              keepalive: 30,
              reconnectPeriod: 2_000,
              connectTimeout: 10_000,
              resubscribe: false,
            });
            const lift: Lift = { deviceNo: a.username, secret: a.password, home, client, ready: false, seq: 0 };
            lifts.push(lift);
            client.on('connect', () => {
              client.subscribe(
                DOWNLINK_TOPICS.map((k) => liftTopic(a.username, k)),
                { qos: 1 },
                (err, granted) => {
                  if (!err && granted?.every((g) => g.qos !== 128)) {
                    lift.ready = true;
                    resolve();
                  }
                },
              );
            });
            client.on('close', () => (lift.ready = false));
            client.on('error', () => undefined);
          }),
      ),
    );
    const connectMs = Date.now() - t0;
    await sleep(2_000);
    const rssMiB = Math.round(cluster.rssBytes() / 1048576);
    log(`${kind}: ${CLIENTS} lifts connected and subscribed in ${connectMs} ms; brokers' RSS ${rssMiB} MiB`);

    // Every lift publishes a status each second, spread over the second.
    const filler = 'x'.repeat(120);
    let publishing = true;
    const timers = lifts.map((lift, i) =>
      setTimeout(() => {
        const tick = () => {
          if (!publishing) return;
          const seq = ++lift.seq;
          const payload = JSON.stringify({ seq, ts: new Date().toISOString(), sentAt: Date.now(), mode: 'standby', floor: 1, voltage: 24, note: filler });
          published++;
          pending++;
          lift.client.publish(liftTopic(lift.deviceNo, 'status'), payload, { qos: 1 }, (err) => {
            pending--;
            if (!err) acked.add(`${lift.deviceNo}/${seq}`);
          });
        };
        tick();
        timers[i] = setInterval(tick, 1_000);
      }, (i * 1_000) / CLIENTS),
    );
    await sleep(3_000);
    window = { from: Date.now(), to: Date.now() + SECONDS * 1_000 };
    await sleep(SECONDS * 1_000 + 2_000);
    const windowed = inWindow;
    const sorted = [...latencies].sort((x, y) => x - y);
    const ratePerS = Math.round(windowed / SECONDS);
    const rssLoadedMiB = Math.round(cluster.rssBytes() / 1048576);
    log(`${kind}: ${ratePerS} msg/s consumed, p50 ${quantile(sorted, 0.5)} ms, p99 ${quantile(sorted, 0.99)} ms`);

    // A credential reset: the old secret must be refused by every node and its open
    // connection ended; the new one accepted.
    const reset = await credentialReset(cluster, accounts);
    log(`${kind}: credential reset ${JSON.stringify(reset)}`);

    // Kill the node leading the ingest stream/queue.
    if (leaderTo) await leaderTo(VICTIM);
    const onVictim = lifts.filter((l) => l.home === VICTIM && l.ready).length;
    t0 = Date.now();
    await cluster.kill(VICTIM);
    log(`${kind}: node ${VICTIM + 1} killed (${onVictim} lifts on it)`);
    let reconnectMs: number | null = null;
    let notReady = 0;
    for (const end = Date.now() + 90_000; Date.now() < end; ) {
      await sleep(100);
      notReady = lifts.filter((l) => !l.ready).length;
      // Wait until the dropped lifts noticed, then until every lift is back.
      if (Date.now() - t0 > 500 && notReady === 0) {
        reconnectMs = Date.now() - t0;
        break;
      }
    }
    log(`${kind}: ${reconnectMs === null ? `${notReady} lifts still not back after 90 s` : `all lifts back in ${reconnectMs} ms`}`);
    await sleep(5_000);
    publishing = false;
    for (const t of timers) clearInterval(t);
    // Outstanding PUBACKs, then the consumer catches up.
    for (const end = Date.now() + 15_000; Date.now() < end && pending > 0; ) await sleep(200);
    let lost = 0;
    for (const end = Date.now() + 30_000; Date.now() < end; ) {
      lost = [...acked].filter((k) => !received.has(k)).length;
      if (lost === 0) break;
      await sleep(500);
    }
    const backlog = lost > 0 ? await ingest.backlog?.().catch((err: unknown) => String(err)) : undefined;
    if (backlog !== undefined) log(`${kind}: the broker's backlog for the consumer: ${JSON.stringify(backlog)}`);
    const duplicated = [...received.values()].reduce((n, c) => n + (c > 1 ? c - 1 : 0), 0);
    log(`${kind}: published ${published}, acknowledged ${acked.size}, consumed ${received.size}, lost ${lost}, duplicated ${duplicated}`);

    // Rolling restart's step: the node comes back on its data.
    t0 = Date.now();
    let restartMs: number | null = null;
    try {
      await cluster.start(VICTIM);
      restartMs = Date.now() - t0;
    } catch (err) {
      log(`${kind}: restart failed: ${err instanceof Error ? err.message.slice(0, 300) : String(err)}`);
    }
    return {
      broker: kind,
      clients: CLIENTS,
      seconds: SECONDS,
      clusterStartMs: startMs,
      connectMs,
      rssMiB,
      rssLoadedMiB,
      ratePerS,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      resetMs: reset.resetMs,
      resetOldConnectionClosed: reset.oldConnectionClosed,
      resetOldSecretRefusedEverywhere: reset.oldRefused,
      resetNewSecretAccepted: reset.newAccepted,
      killedNode: VICTIM + 1,
      liftsOnKilledNode: onVictim,
      reconnectMs,
      liftsNotBack: reconnectMs === null ? notReady : 0,
      published,
      unacknowledgedAtEnd: pending,
      acknowledged: acked.size,
      lost,
      ...(backlog !== undefined ? { backlog } : {}),
      duplicated,
      restartMs,
    };
  } finally {
    await Promise.all(lifts.map((l) => l.client.endAsync(true).catch(() => undefined)));
    await ingest?.close().catch(() => undefined);
    await cluster.destroy();
  }
}

// Interrupted: exit, and the support module's exit hook kills the broker nodes.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

for (const kind of BROKERS) {
  const result = await measure(kind);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
process.exit(0);
