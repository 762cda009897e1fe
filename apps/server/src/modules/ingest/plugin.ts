import os from 'node:os';
import fp from 'fastify-plugin';
import { decodeLiftMessage, liftMayPublish, liftMaySubscribe, type DropReason, type LiveChange } from '@liftlink/protocol';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import { Batcher, type BatcherOptions } from './batcher.ts';
import { markOfflineAll } from './appliers/presence-log.ts';
import { storeAnswers, storeBatch, type UplinkMessage } from './store.ts';
import { startMqttIngest } from './mqtt-source.ts';
import { startAmqpIngest, type AmqpIngest } from './amqp-source.ts';
import { LiveBus } from '../live/bus.ts';

/**
 * PostgreSQL error classes 22 (data exception: a value out of range) and 23 (integrity: a
 * lift deleted while its message waited) belong to the data; anything else (a lost
 * connection, a restart) passes and the batch is retried whole.
 */
function refusedByData(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^2[23]/.test(code);
}

type Incoming = { deviceNo: string } & (
  | Omit<Extract<UplinkMessage, { kind: Exclude<UplinkMessage['kind'], 'disconnect'> }>, 'liftId'>
  | { kind: 'disconnect'; at: Date }
);

export interface IngestStats {
  stored: number;
  /** Messages left out: bad at the boundary (DropReason), from an unknown lift, or refused by the database. */
  drops: Record<DropReason | 'unknownDevice' | 'refusedByDatabase', number>;
  pending: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveBus;
    ingest: { handle(topic: string, payload: Buffer | string): Promise<void>; stats(): IngestStats };
  }
}

/**
 * Lift uplink: authenticates lifts on the embedded broker, validates every message at the
 * boundary (bad ones are dropped and counted, never stored, never fatal), stores them in
 * batches acknowledged after commit, publishes the changes live, and marks silent lifts
 * offline.
 */
export default fp(async (app) => {
  const { sql } = app.database;
  // Shared through the broker when it is an external one that other instances use too.
  const live = new LiveBus(app.mqtt, app.broker === null);
  await live.start();
  app.decorate('live', live);

  const liftIds = new Map<string, string>();
  const drops: IngestStats['drops'] = { topic: 0, tooLarge: 0, json: 0, schema: 0, unknownDevice: 0, refusedByDatabase: 0 };
  let stored = 0;
  const { metrics } = app;
  const refuse = (reason: keyof IngestStats['drops']) => {
    drops[reason]++;
    metrics.ingestRefused.labels(reason).inc();
  };
  /** Set at shutdown: messages from here on are not acknowledged, so lifts send them again after reconnecting. */
  let stopping = false;

  async function resolveLiftIds(deviceNos: string[]): Promise<void> {
    const missing = [...new Set(deviceNos.filter((d) => !liftIds.has(d)))];
    if (!missing.length) return;
    const rows = await sql.query<{ id: string; device_no: string }>(`select id, device_no from lifts where device_no = any($1::text[])`, [missing]);
    for (const r of rows) liftIds.set(r.device_no, r.id);
  }

  // The silence sweep's period: how often a lift's last-seen time is looked at (below).
  const sweepMs = Math.max(1_000, (app.config.heartbeatSeconds * 1000) / 3);

  /** The batcher options of a lane that stores its batches with `apply`. */
  const laneOptions = (apply: (tx: Parameters<typeof storeBatch>[0], batch: UplinkMessage[]) => Promise<LiveChange[]>): BatcherOptions<Incoming> => ({
    maxBatch: 2000,
    // Group commit: a lone message (a command answer) is stored at once; under load the
    // messages that arrive while a batch commits form the next batch.
    maxWaitMs: 1,
    onError: (err, attempt) => app.log.warn({ err: err instanceof Error ? err.message : err, attempt }, 'ingest batch not stored, retrying'),
    isDataError: refusedByData,
    onDrop: (item, err) => {
      refuse('refusedByDatabase');
      app.log.warn({ deviceNo: item.deviceNo, kind: item.kind, err: err instanceof Error ? err.message : err }, 'lift message refused by the database, left out');
    },
    store: async (items) => {
      await resolveLiftIds(items.map((i) => i.deviceNo));
      const batch: UplinkMessage[] = [];
      for (const item of items) {
        const liftId = liftIds.get(item.deviceNo);
        if (!liftId) {
          refuse('unknownDevice');
          continue;
        }
        const { deviceNo: _d, ...rest } = item;
        batch.push({ ...rest, liftId } as UplinkMessage);
      }
      if (!batch.length) return;
      const commitStarted = performance.now();
      const changes = await sql.transaction((tx) => apply(tx, batch));
      metrics.ingestCommitSeconds.observe((performance.now() - commitStarted) / 1000);
      metrics.ingestBatchSize.observe(batch.length);
      stored += batch.length;
      // A run-log entry not in the changes had its (lift, seq) stored before: a redelivery.
      // (The cloud's own ONLINE / OFFLINE entries, seq < 0, answer no message of the lift.)
      const duplicates = batch.filter((m) => m.kind === 'event').length - changes.filter((c) => c.type === 'event' && c.seq > 0).length;
      metrics.ingestDuplicated.inc(duplicates);
      metrics.ingestAccepted.inc(batch.filter((m) => m.kind !== 'disconnect').length - duplicates);
      // Not awaited: with the broker away the live message waits in MQTT.js for the
      // reconnection, and the lifts' acknowledgements must not wait with it (nor, in
      // normal running, for one more broker round trip per batch).
      void publishLive(changes);
    },
  });
  // Two lanes, each one transaction at a time. A command's answer and the configuration a
  // lift reports after a change are awaited by a person: they are stored in their own small
  // transaction, beside the batch of periodic statuses and run-log entries in hand rather
  // than after it (at 20,000 lifts reporting every 5 s that batch holds hundreds of
  // statuses). Both lanes take their locks in the lifts' order, the lift rows first, then
  // the logbook heads of the lifts they write entries for, all at once (an answers batch that
  // leaves the rows alone, storeAnswers, takes only the heads). Should PostgreSQL still find a
  // deadlock, it aborts one batch after its deadlock timeout and that batch is retried whole,
  // nothing lost.
  const answers = new Batcher<Incoming>(laneOptions((tx, batch) => storeAnswers(tx, batch, sweepMs / 1000)));
  // A run-log entry (a fault, a trapped passenger, a trip) is what a control room watches
  // for: with a backlog of periodic statuses it goes in the next bulk batch, its lift's
  // earlier messages with it, so each lift's messages are still stored in the order sent.
  const bulk = new Batcher<Incoming>({ ...laneOptions(storeBatch), priority: { urgent: (m) => m.kind === 'event', senderOf: (m) => m.deviceNo } });
  const laneOf = (kind: Incoming['kind']) => (kind === 'cmd/ack' || kind === 'config/report' ? answers : bulk);

  async function publishLive(changes: LiveChange[]): Promise<void> {
    // Stored data is safe; a live push that fails only costs browsers a refresh.
    await live.publish(changes).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
  }

  async function handle(topic: string, payload: Buffer | string): Promise<void> {
    if (stopping) throw new Error('ingest is stopping');
    const decoded = decodeLiftMessage(topic, payload);
    if (!decoded.ok) {
      refuse(decoded.reason);
      return;
    }
    if (decoded.kind === 'cmd' || decoded.kind === 'config/set' || decoded.kind === 'config/get' || decoded.kind === 'firmware/offer') {
      refuse('topic');
      return;
    }
    await laneOf(decoded.kind).add({ deviceNo: decoded.deviceNo, kind: decoded.kind, message: decoded.message });
  }

  app.decorate('ingest', { handle, stats: () => ({ stored, drops: { ...drops }, pending: bulk.pending + answers.pending }) });

  // Lift credentials and topic rules on the embedded broker.
  app.brokerAccess = {
    authenticateDevice: async (deviceNo, secret) => {
      const [row] = await sql.query<{ id: string; iot_secret_hash: string | null }>(`select id, iot_secret_hash from lifts where device_no = $1`, [deviceNo]);
      if (!row?.iot_secret_hash || !safeEqual(row.iot_secret_hash, sha256(secret))) return false;
      liftIds.set(deviceNo, row.id);
      return true;
    },
    canPublish: liftMayPublish,
    canSubscribe: liftMaySubscribe,
    ingest: (deviceNo, topic, payload) => (liftMayPublish(deviceNo, topic) ? handle(topic, payload) : Promise.resolve()),
    onDeviceConnection: (deviceNo, connected) => {
      if (!connected) void bulk.add({ deviceNo, kind: 'disconnect', at: new Date() }).catch(() => {});
    },
  };

  let ingestClients: Awaited<ReturnType<typeof startMqttIngest>> = [];
  let amqpIngest: AmqpIngest | null = null;
  const instanceId = app.config.instanceId ?? os.hostname();
  const { rabbitmq } = app.config;
  if (rabbitmq) {
    const gauge = metrics.brokerConnected.labels('ingest-0');
    amqpIngest = await startAmqpIngest({
      urls: rabbitmq.amqpUrls,
      username: app.config.mqttUsername!,
      password: app.config.mqttPassword!,
      // About one ingest batch in hand: the next one arrives while this one commits.
      prefetch: 2_000,
      // Instances spread over the nodes by their id.
      startAt: [...instanceId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0),
      handle,
      log: (msg, err) => app.log.warn({ err: err instanceof Error ? err.message : err }, msg),
      onConnection: (connected) => gauge.set(connected ? 1 : 0),
    });
  } else if (app.config.mqttUrl) {
    ingestClients = await startMqttIngest({
      url: app.config.mqttUrl,
      username: app.config.mqttUsername,
      password: app.config.mqttPassword,
      instanceId,
      connections: app.config.ingestConnections,
      shareGroup: 'liftlink-ingest',
      handle,
      log: (msg, err) => app.log.warn({ err: err instanceof Error ? err.message : err }, msg),
    });
    ingestClients.forEach((c, i) => {
      const gauge = metrics.brokerConnected.labels(`ingest-${i}`);
      gauge.set(c.connected ? 1 : 0);
      c.on('connect', () => gauge.set(1));
      c.on('close', () => gauge.set(0));
    });
  }

  // A lift that stays silent past its heartbeat window is offline, whatever the broker said.
  const SWEEP_CHUNK = 500;
  // One sweep at a time: a sweep that waits (a long transaction holds lift rows) must not
  // have the next ones queue up behind it and take every pooled connection.
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void (async () => {
      const stale = await sql.query<{ id: string }>(
        `select id from lifts where online and last_seen_at < now() - make_interval(secs => $1)`,
        [app.config.heartbeatSeconds],
      );
      // Offline from the moment it was last heard: its online time and its OFFLINE entry end there.
      // Checked again with the lifts locked: one that spoke meanwhile stays online (no OFFLINE for it).
      // SWEEP_CHUNK lifts a transaction: after an outage the whole fleet may be silent at once.
      for (let i = 0; i < stale.length && !stopping; i += SWEEP_CHUNK) {
        const changes = await sql.transaction(async (tx) => {
          const still = await tx.query<{ id: string; last_seen_at: Date }>(
            // A lift row locked by a writer is being written to: not silent, skipped this round.
            `select id, last_seen_at from lifts where id = any($1::uuid[]) and online and last_seen_at < now() - make_interval(secs => $2)
              order by id for no key update skip locked`,
            [stale.slice(i, i + SWEEP_CHUNK).map((l) => l.id), app.config.heartbeatSeconds],
          );
          return markOfflineAll(tx, still.map((r) => ({ liftId: r.id, at: new Date(r.last_seen_at), session: null, reason: 'heartbeatSilence' as const })));
        });
        if (changes.length) await publishLive(changes);
      }
    })()
      .catch((err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'presence sweep failed'))
      .finally(() => (sweeping = false));
  }, sweepMs);

  // After the HTTP server has stopped (commands in flight got their answers through ingest):
  // no new lift message is taken, the batch in hand is committed and acknowledged, then the
  // ingest connections end (what they were sent and did not acknowledge goes to the others).
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    // RabbitMQ: no new deliveries; those taken are stored and acknowledged, then the connection ends.
    await amqpIngest?.close();
    stopping = true;
    await Promise.all([bulk.close(), answers.close()]);
    // The PUBACKs of the last batch leave as the stores resolve: give them a moment to be written.
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(ingestClients.map((c) => c.endAsync()));
  });
});
