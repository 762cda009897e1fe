import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib';
import { AckCoalescer } from './ack-coalescer.ts';
import {
  INGEST_QUEUE,
  MQTT_EXCHANGE,
  ingestBindings,
  swapSeparators,
} from '../broker/rabbitmq-names.ts';

export interface AmqpIngest {
  /** Stops taking messages; what was taken and not yet acknowledged goes back to the queue for the other instances. */
  close(): Promise<void>;
}

/**
 * Ingest from a RabbitMQ cluster (BROKER=rabbitmq). The MQTT plugin routes every lift
 * message into `amq.topic`; the quorum queue `liftlink-ingest` (replicated on the nodes,
 * durable) is bound to the uplink topics and consumed by every server instance: competing
 * consumers, each message delivered to one of them. A message is acknowledged only after
 * `handle` resolves, i.e. after the database commit; one taken by an instance that dies or
 * loses its node before that is delivered again (ingest drops the duplicate by seq).
 *
 * The connection goes to the nodes in turn, starting at one picked by `startAt` so that
 * instances spread over the cluster, and moves to the next one when its node goes away.
 */
export function startAmqpIngest(opts: {
  urls: string[];
  username: string;
  password: string;
  /** Messages taken and not yet acknowledged at once: about one ingest batch. */
  prefetch: number;
  startAt: number;
  handle: (topic: string, payload: Buffer) => Promise<void>;
  log: (msg: string, err?: unknown) => void;
  onConnection?: (connected: boolean) => void;
}): Promise<AmqpIngest> {
  let closing = false;
  let model: ChannelModel | null = null;
  let channel: Channel | null = null;
  let consumerTag: string | null = null;
  let pendingAcks: AckCoalescer | null = null;
  let node = opts.startAt % opts.urls.length;
  const inFlight = new Set<Promise<void>>();
  let lastError = '';
  let wake: () => void = () => undefined;

  const take = (ch: Channel, acks: AckCoalescer, msg: ConsumeMessage | null) => {
    // null: the queue was deleted or the consumer cancelled by the broker; the connection is rebuilt.
    if (!msg) return void ch.close().catch(() => undefined);
    const tag = msg.fields.deliveryTag;
    acks.delivered(tag);
    const stored = opts
      .handle(swapSeparators(msg.fields.routingKey), msg.content)
      .then(
        () => {
          // The delivery tag belongs to this channel: after a reconnection the broker has already put it back.
          if (channel === ch) acks.finish(tag);
        },
        (err: unknown) =>
          opts.log('ingest: message not stored; the broker will deliver it again', err),
      )
      .finally(() => inFlight.delete(stored));
    inFlight.add(stored);
  };

  /** Consumes through one node until the connection ends; `consuming` is called once messages flow. */
  async function connectOnce(url: string, consuming: () => void): Promise<void> {
    const u = new URL(url);
    const m = await amqp.connect({
      protocol: u.protocol.replace(':', ''),
      hostname: u.hostname,
      port: Number(u.port || (u.protocol === 'amqps:' ? 5671 : 5672)),
      username: opts.username,
      password: opts.password,
      // A node that vanishes without closing the socket is noticed within about 20 s.
      heartbeat: 10,
    });
    const ended = new Promise<void>((resolve) => {
      m.once('close', () => resolve());
      wake = resolve;
    });
    m.on('error', (err: Error) => opts.log('ingest: broker connection error', err));
    try {
      const ch = await m.createChannel();
      ch.on('error', (err: Error) => opts.log('ingest: channel error', err));
      ch.once('close', () => void m.close().catch(() => undefined));
      await ch.assertQueue(INGEST_QUEUE, {
        durable: true,
        arguments: { 'x-queue-type': 'quorum' },
      });
      for (const key of ingestBindings()) await ch.bindQueue(INGEST_QUEUE, MQTT_EXCHANGE, key);
      await ch.prefetch(opts.prefetch);
      model = m;
      channel = ch;
      const acks = new AckCoalescer((tag, allUpTo) => {
        // amqplib reads only the delivery tag of the message it is given.
        if (channel === ch) ch.ack({ fields: { deliveryTag: tag } } as ConsumeMessage, allUpTo);
      });
      pendingAcks = acks;
      consumerTag = (await ch.consume(INGEST_QUEUE, (msg) => take(ch, acks, msg), { noAck: false }))
        .consumerTag;
    } catch (err) {
      await m.close().catch(() => undefined);
      throw err;
    }
    lastError = '';
    consuming();
    opts.onConnection?.(true);
    await ended;
    model = null;
    channel = null;
    consumerTag = null;
    pendingAcks = null;
    opts.onConnection?.(false);
  }

  let resolveFirst: () => void = () => undefined;
  let rejectFirst: (err: Error) => void = () => undefined;
  const first = new Promise<void>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  const firstDeadline = setTimeout(
    () => rejectFirst(new Error(`ingest cannot reach RabbitMQ at ${opts.urls.join(', ')}`)),
    15_000,
  );

  const loop = (async () => {
    let failures = 0;
    while (!closing) {
      const url = opts.urls[node]!;
      try {
        await connectOnce(url, () => {
          failures = 0;
          clearTimeout(firstDeadline);
          resolveFirst();
        });
      } catch (err) {
        const message = (err as Error).message;
        if (message !== lastError) opts.log(`ingest: cannot consume from ${url}`, err);
        lastError = message;
        failures++;
      }
      if (closing) break;
      node = (node + 1) % opts.urls.length;
      // A pause once every node has been tried in a row, so a cluster that is down is not hammered.
      if (failures >= opts.urls.length) await new Promise((r) => setTimeout(r, 1_000));
    }
  })();

  return first.then(
    () => ({
      async close() {
        closing = true;
        clearTimeout(firstDeadline);
        // No new deliveries; those taken finish storing and are acknowledged before the connection ends.
        if (channel && consumerTag) await channel.cancel(consumerTag).catch(() => undefined);
        await Promise.allSettled([...inFlight]);
        pendingAcks?.flush();
        await model?.close().catch(() => undefined);
        wake();
        await loop;
      },
    }),
    async (err: unknown) => {
      closing = true;
      wake();
      await model?.close().catch(() => undefined);
      await loop;
      throw err;
    },
  );
}
