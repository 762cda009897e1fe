import mqtt, { type IClientOptions, type ISubscriptionMap, type MqttClient, type Packet } from 'mqtt';
import { UPLINK_TOPICS, noDelay, uplinkSubscription } from '@liftlink/protocol';

type SendPacket = (packet: Packet, cb?: (err?: Error) => void, ...rest: unknown[]) => void;

/**
 * Ingest connections to an external broker (Mosquitto, EMQX). They share one subscription
 * group, so each uplink message reaches exactly one server instance. The broker is
 * acknowledged (PUBACK) only after `handle` resolves, i.e. after the database commit:
 * MQTT.js would acknowledge as soon as its handler returns, so the PUBACK it sends is held
 * back per message id while the connection goes on reading the next messages. That keeps
 * up to the broker's in-flight window of messages per connection in one batch.
 */
export async function startMqttIngest(opts: {
  url: string;
  username?: string | undefined;
  password?: string | undefined;
  instanceId: string;
  connections: number;
  shareGroup: string;
  handle: (topic: string, payload: Buffer) => Promise<void>;
  log: (msg: string, err?: unknown) => void;
}): Promise<MqttClient[]> {
  const clients: MqttClient[] = [];
  for (let i = 0; i < opts.connections; i++) {
    const options: IClientOptions = {
      // A stable id and a persistent session: what arrives while this instance restarts waits for it.
      clientId: `liftlink-ingest-${opts.instanceId}-${i}`,
      clean: false,
      // Back quickly after a broker restart: Mosquitto 2.0 forgets shared subscriptions then,
      // so what lifts publish before ingest has subscribed again is not delivered to anyone.
      // Lifts retry every 2 s (docs/protocol.md), ingest every 250 ms.
      reconnectPeriod: 250,
      connectTimeout: 5_000,
      ...(opts.username ? { username: opts.username, password: opts.password ?? '' } : {}),
    };
    const client = mqtt.connect(opts.url, options);
    const held = new Map<number, { stored: Promise<void>; connection: number }>();
    // A PUBACK belongs to the connection that received the message. Once that connection is
    // gone the broker redelivers the message (persistent session), so a late PUBACK is dropped
    // rather than queued by MQTT.js for the next connection, where its message id may name a
    // newer message that is not stored yet.
    let connection = 0;
    client.on('close', () => connection++);
    const internal = client as unknown as { _sendPacket: SendPacket };
    const send = internal._sendPacket.bind(client);
    internal._sendPacket = (packet, cb, ...rest) => {
      const gate = packet.cmd === 'puback' && packet.messageId !== undefined ? held.get(packet.messageId) : undefined;
      if (!gate) return send(packet, cb, ...rest);
      held.delete(packet.messageId!);
      cb?.();
      gate.stored.then(
        () => {
          if (gate.connection === connection && client.connected) send(packet, () => {});
        },
        (err: unknown) => opts.log('ingest: message not stored; the broker will deliver it again', err),
      );
    };
    client.handleMessage = (packet, callback) => {
      if (packet.cmd === 'publish' && packet.qos > 0 && packet.messageId !== undefined) {
        held.set(packet.messageId, { stored: opts.handle(packet.topic, packet.payload as Buffer), connection });
      } else if (packet.cmd === 'publish') {
        void opts.handle(packet.topic, packet.payload as Buffer).catch((err: unknown) => opts.log('ingest: qos 0 message not stored', err));
      }
      callback();
    };
    client.on('error', (err) => opts.log('ingest connection error', err));
    client.on('connect', () => noDelay(client));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`ingest cannot reach the broker at ${opts.url}`)), 10_000);
      client.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const filters = UPLINK_TOPICS.map((k) => uplinkSubscription(k, opts.shareGroup));
    await client.subscribeAsync(filters, { qos: 1 });
    // Mosquitto 2.0 does not keep shared subscriptions across its own restart, yet reports
    // the session as present, so MQTT.js would not subscribe again: force it on every
    // reconnection (subscribing to a filter held already changes nothing).
    client.on('connect', () => {
      // `resubscribe: true` in the map is MQTT.js's own flag for this (its types omit it).
      const again = { ...Object.fromEntries(filters.map((f) => [f, { qos: 1 as const }])), resubscribe: true } as unknown as ISubscriptionMap;
      client.subscribe(again, (err) => err && opts.log('ingest: subscribing again failed', err));
    });
    clients.push(client);
  }
  return clients;
}
