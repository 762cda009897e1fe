import net from 'node:net';
import tls from 'node:tls';
import { once } from 'node:events';
import fp from 'fastify-plugin';
import { Aedes, type Client as AedesClient } from 'aedes';
import { indexedRetainedPersistence } from './retained-index.ts';
import { ConnectionGate } from './connection-gate.ts';
import mqtt, { type MqttClient } from 'mqtt';
import { DOWNLINK_TOPICS, brokerConnection, noDelay } from '@liftlink/protocol';
import { newToken, safeEqual } from '../lib/crypto.ts';

/**
 * Who may do what on the broker. The lifts module installs the device rules; until then
 * only the server's own service client is let in.
 */
export interface BrokerAccess {
  authenticateDevice(username: string, secret: string): Promise<boolean>;
  canPublish(deviceNo: string, topic: string): boolean;
  canSubscribe(deviceNo: string, topic: string): boolean;
  /** Stores an accepted uplink message; the embedded broker acknowledges the lift after it resolves. */
  ingest?(deviceNo: string, topic: string, payload: Buffer): Promise<void>;
  /** Called when a device connects or disconnects on the embedded broker. */
  onDeviceConnection?(deviceNo: string, connected: boolean): void;
}

const DENY_ALL: BrokerAccess = {
  authenticateDevice: async () => false,
  canPublish: () => false,
  canSubscribe: () => false,
};

export const SERVICE_USER_PREFIX = 'liftlink-server';

/**
 * The most messages of one lift connection the embedded broker holds unstored; past it the
 * lift's socket is not read (connection-gate.ts). A lift in service has one or two in hand
 * (a status, an event, a command's answer); eight leaves room for a burst while storage
 * keeps up. The broker is handed whole packets, no more messages than there is room for;
 * what the lift sent beyond them waits in the socket's buffer and in TCP
 * (docs/operations.md 7.1).
 */
export const MESSAGES_IN_HAND_PER_LIFT = 8;

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's own MQTT connection (to the embedded broker or to MQTT_URL). */
    mqtt: MqttClient;
    /** The embedded broker, when MQTT_URL is unset. */
    broker: Aedes | null;
    brokerAccess: BrokerAccess;
    /** The embedded broker's MQTT-over-TLS port (MQTT_TLS_PORT), or null without TLS or with MQTT_URL. */
    brokerTlsPort: number | null;
    /** Disconnects a device from the embedded broker at once (credential reset). */
    kickDevice(deviceNo: string): void;
    /** Lifts with a session on the embedded broker (0 with MQTT_URL). */
    connectedLifts(): number;
    /** Lifts' messages the embedded broker has read and not yet stored (0 with MQTT_URL). */
    messagesInHand(): number;
    /**
     * Publishes a command to a lift so that no broker delivers it after `expiresAt`: QoS 0
     * on Mosquitto (nothing kept for the lift, so nothing restored after a restart; MQTT 5
     * message expiry besides), QoS 1 with the embedded broker's forward check, QoS 1 with the
     * session queues' TTL on RabbitMQ (modules/broker). The lift's own expiry check stays the last guard.
     */
    publishCommand(topic: string, payload: string, expiresAt: Date): Promise<void>;
  }
}

export class BrokerPortBusyError extends Error {}

export default fp(async (app) => {
  const { config } = app;
  app.decorate('brokerAccess', DENY_ALL);
  // Resolved once every plugin is registered (the lift rules among them); lifts' logins wait for it.
  let markServing: () => void = () => undefined;
  const serving = new Promise<void>((resolve) => (markServing = resolve));
  app.addHook('onReady', async () => markServing());
  let broker: Aedes | null = null;
  let server: net.Server | null = null;
  let tlsServer: tls.Server | null = null;
  const servicePassword = config.mqttPassword ?? newToken();
  const serviceUser = config.mqttUsername ?? `${SERVICE_USER_PREFIX}`;
  const deviceClients = new Map<string, AedesClient>();
  const gates = new WeakMap<AedesClient, ConnectionGate>();
  let inHand = 0;

  if (!config.mqttUrl) {
    broker = await Aedes.createBroker({ id: 'liftlink-embedded', persistence: indexedRetainedPersistence() });
    const isService = (client: AedesClient | null) => !!client && (client as AedesClient & { liftlinkService?: boolean }).liftlinkService === true;
    broker.authenticate = (client, username, password, done) => {
      const secret = password?.toString('utf8') ?? '';
      if (username === serviceUser && safeEqual(secret, servicePassword)) {
        (client as AedesClient & { liftlinkService?: boolean }).liftlinkService = true;
        return done(null, true);
      }
      if (!username || client.id !== username) return done(Object.assign(new Error('bad credentials'), { returnCode: 4 as const }), false);
      // A lift that connects while the server is still starting (a restart amid a fleet that
      // reconnects) waits for it: until the lift rules are installed every answer would be
      // "bad credentials", which a lift takes as a reason to wait 30-60 s (docs/protocol.md 1.1).
      void serving.then(() => app.brokerAccess.authenticateDevice(username, secret)).then(
        (okay) => done(okay ? null : Object.assign(new Error('bad credentials'), { returnCode: 4 as const }), okay),
        () => done(Object.assign(new Error('unavailable'), { returnCode: 3 as const }), false),
      );
    };
    broker.authorizePublish = (client, packet, done) => {
      if (!client || isService(client)) return done(null);
      if (!app.brokerAccess.canPublish(client.id, packet.topic)) return done(new Error('not authorized'));
      // Ingest before the PUBACK: the lift's message is acknowledged only once it is stored.
      if (!app.brokerAccess.ingest) return done(null);
      const gate = gates.get(client);
      gate?.take();
      inHand++;
      const settle = (err: Error | null) => {
        inHand--;
        gate?.release();
        done(err);
      };
      app.brokerAccess.ingest(client.id, packet.topic, packet.payload as Buffer).then(
        () => settle(null),
        (err: unknown) => settle(err instanceof Error ? err : new Error(String(err))),
      );
    };
    // A command that expired is not forwarded: neither live nor from the session of a lift
    // that comes back (a QoS 1 message its hung connection never acknowledged is sent again).
    broker.authorizeForward = (client, packet) => (!isService(client) && expiredCommand(packet.topic, packet.payload) ? null : packet);
    broker.authorizeSubscribe = (client, sub, done) => {
      if (isService(client)) return done(null, sub);
      done(null, app.brokerAccess.canSubscribe(client.id, sub.topic) ? sub : null);
    };
    broker.on('client', (client) => {
      if (isService(client)) return;
      deviceClients.set(client.id, client);
      app.brokerAccess.onDeviceConnection?.(client.id, true);
    });
    broker.on('clientDisconnect', (client) => {
      if (isService(client)) return;
      if (deviceClients.get(client.id) === client) deviceClients.delete(client.id);
      app.brokerAccess.onDeviceConnection?.(client.id, false);
    });
    // No Nagle delay: small MQTT packets (PUBACK, a command, its answer) go out at once
    // instead of waiting up to 40 ms for the peer's delayed ACK.
    const handle = (socket: net.Socket) => {
      socket.setNoDelay(true);
      const client = broker!.handle(socket);
      // The broker's listener for `readable` reads the connection again.
      gates.set(client, new ConnectionGate(socket, MESSAGES_IN_HAND_PER_LIFT, () => socket.emit('readable')));
    };
    server = net.createServer(handle);
    // With MQTT_PLAIN=false lifts get TLS only; the plain listener stays on a loopback port of its own for the server's own connection.
    const plainOnNetwork = !config.tls || config.tls.mqttPlain;
    await listenBroker(server, plainOnNetwork ? config.mqttPort : 0, plainOnNetwork ? config.host : '127.0.0.1', 'MQTT_PORT', broker);
    if (config.tls && app.tls) {
      // MQTT over TLS for the lifts, with the certificate the HTTPS server presents (and reloads).
      tlsServer = tls.createServer({ cert: app.tls.current.cert, key: app.tls.current.key }, handle);
      tlsServer.on('tlsClientError', (err) => app.log.debug({ err: err.message }, 'mqtts handshake failed'));
      try {
        await listenBroker(tlsServer, config.tls.mqttTlsPort, config.host, 'MQTT_TLS_PORT', broker);
      } catch (err) {
        server.close();
        throw err;
      }
      app.tls.serve(tlsServer);
    }
  }

  const address = server?.address();
  const url = config.mqttUrl ?? `mqtt://127.0.0.1:${typeof address === 'object' && address ? address.port : config.mqttPort}`;
  const serviceClientId = () => `${serviceUser}-${newToken().slice(0, 10)}`;
  // A cluster's nodes (MQTT_URL with commas): MQTT.js tries the next one at each reconnection.
  const { url: first, servers } = brokerConnection(url);
  // MQTT 5 where the broker has it, for the message expiry of commands: Mosquitto and the
  // like (BROKER=mqtt). Not to the embedded broker (aedes speaks 3.1.1) nor to RabbitMQ 3.10.
  const mqtt5 = config.broker === 'mqtt';
  const client = mqtt.connect(first, {
    ...(servers ? { servers } : {}),
    protocolVersion: mqtt5 ? 5 : 4,
    clientId: serviceClientId(),
    username: serviceUser,
    password: servicePassword,
    clean: true,
    reconnectPeriod: 1_000,
    connectTimeout: 5_000,
  });
  client.on('error', (err) => {
    app.log.warn({ err: err.message }, 'mqtt client error');
    // A broker without MQTT 5 (Mosquitto before 1.6) refuses the version: go on with 3.1.1.
    const code = (err as { code?: number }).code;
    if (client.options.protocolVersion === 5 && (code === 1 || code === 132)) {
      app.log.warn('the MQTT broker does not speak MQTT 5: commands get no expiry on the broker, only the lifts refuse expired ones');
      client.options.protocolVersion = 4;
      setImmediate(() => client.reconnect());
    }
  });
  // Each connection a client id of its own (a clean session either way): on a RabbitMQ
  // cluster the old session's queue lives on the node that was lost, and reusing its name
  // would have every other node refuse the connection until that node is back.
  client.on('reconnect', () => (client.options.clientId = serviceClientId()));
  client.on('connect', () => noDelay(client));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`Cannot reach the MQTT broker at ${url}`));
    }, 10_000 * (servers?.length ?? 1));
    client.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
  });

  app.decorate('broker', broker);
  app.decorate('brokerTlsPort', tlsServer ? (tlsServer.address() as net.AddressInfo).port : null);
  app.decorate('mqtt', client);
  app.decorate('kickDevice', (deviceNo: string) => deviceClients.get(deviceNo)?.close());
  app.decorate('connectedLifts', () => deviceClients.size);
  app.decorate('messagesInHand', () => inHand);
  // On an external MQTT broker (Mosquitto) commands go at QoS 0: Mosquitto 2.0 restores a
  // persisted message whose expiry passed while it was down without any expiry and delivers
  // it after the restart. At QoS 0 it keeps nothing for the lift (queue_qos0_messages false),
  // so a command is at most once: lost with a dying link (the caller sees the wait time out),
  // never handed over late. The embedded broker and the RabbitMQ cluster drop expired
  // commands themselves and keep QoS 1 (docs/operations.md 6.1).
  const commandQos = config.broker === 'mqtt' ? 0 : 1;
  app.decorate('publishCommand', async (topic: string, payload: string, expiresAt: Date) => {
    // Whole seconds (MQTT 5), rounded up: the broker may keep it up to a second longer, when the lift refuses it itself.
    const messageExpiryInterval = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    await client.publishAsync(topic, payload, { qos: commandQos, ...(client.options.protocolVersion === 5 ? { properties: { messageExpiryInterval } } : {}) });
  });
  // Stopping: no new lift connections from here on; those open are served until the broker closes.
  app.addHook('preClose', async () => {
    server?.close();
    tlsServer?.close();
  });
  app.healthChecks.set('broker', async () => {
    if (!client.connected) throw new Error('broker unreachable');
  });
  app.addHook('onClose', async () => {
    await client.endAsync(true);
    if (broker) {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server!.close(() => resolve()));
      if (tlsServer) await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });
});

/** Listens on `port`; a busy port stops the start with one line naming `variable`. */
async function listenBroker(server: net.Server, port: number, host: string, variable: 'MQTT_PORT' | 'MQTT_TLS_PORT', broker: Aedes): Promise<void> {
  server.listen(port, host);
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  } catch (err) {
    broker.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new BrokerPortBusyError(`${variable} ${port} is already in use. Set ${variable} to a free port, or MQTT_URL to use a running broker.`);
    }
    throw err;
  }
}

const DOWNLINK = new Set<string>(DOWNLINK_TOPICS);

/** Whether a message is a command to a lift (`lifts/{deviceNo}/cmd|config/...`) whose `expiresAt` has passed. */
export function expiredCommand(topic: string, payload: Buffer | string): boolean {
  const [root, deviceNo, ...rest] = topic.split('/');
  if (root !== 'lifts' || !deviceNo || !DOWNLINK.has(rest.join('/'))) return false;
  try {
    const { expiresAt } = JSON.parse(payload.toString()) as { expiresAt?: unknown };
    return typeof expiresAt === 'string' && Date.parse(expiresAt) <= Date.now();
  } catch {
    return false;
  }
}

/** The embedded broker's actual port (tests listen on port 0). */
export function embeddedBrokerPort(app: { mqtt: MqttClient }): number {
  return Number(new URL(`mqtt://${app.mqtt.options.host}:${app.mqtt.options.port}`).port);
}
