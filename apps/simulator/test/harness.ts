import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import {
  decodeLiftMessage,
  type DecodedLiftMessage,
  type LiftMessages,
  type LiftTopicKind,
} from '@liftlink/protocol';

/**
 * An in-process aedes broker on a free port; `secrets` turns on password checks (username =
 * device number). `restart()` replaces it with a fresh broker at the same address, as a
 * broker restarted without persistence: every client loses its connection at one instant.
 */
export async function startBroker(secrets?: Record<string, string>) {
  const create = async () => {
    const b = await Aedes.createBroker();
    if (secrets) {
      b.authenticate = (_client, username, password, done) =>
        done(null, !!username && secrets[username] === password?.toString());
    }
    return b;
  };
  let broker = await create();
  const server: Server = createServer((socket) => broker.handle(socket));
  const sockets = trackSockets(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The broker running now. */
    get broker() {
      return broker;
    },
    /**
     * Closes the broker and its connections; the new broker (handed to `prepare` before it
     * takes any connection) answers at the same address from that instant on. Resolves with
     * the time the old broker started closing.
     */
    async restart(prepare: (fresh: Aedes) => void = () => {}): Promise<number> {
      const old = broker;
      const fresh = await create();
      prepare(fresh);
      broker = fresh;
      const closingAt = Date.now();
      await new Promise<void>((resolve) => old.close(() => resolve()));
      return closingAt;
    },
    close: () => closeServing(server, sockets, broker),
  };
}

/** The sockets a listener holds open now, so that closing it can end them. */
export function trackSockets(server: Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return sockets;
}

/**
 * Takes a broker node down as a crash would: the listener stops accepting first, so a lift
 * reconnecting at once cannot land on the node being closed (its socket would keep
 * `server.close` waiting forever), then every open socket is cut, and only then the broker
 * is closed: with its clients' sockets gone it has nobody left to wait for (closing the broker
 * first could wait on a client whose TLS socket was still half open, and hang on a busy machine).
 */
export async function closeServing(
  server: Server,
  sockets: Set<Socket>,
  broker: Aedes,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  for (const socket of sockets) socket.destroy();
  await closed;
}

/** Polls until `check` returns a value (not undefined/false), or fails after `ms`. */
export async function waitFor<T>(
  check: () => T | undefined | false,
  ms = 10_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A cloud-side observer subscribed to every lift topic, keeping what it decoded. */
export class Observer {
  readonly messages: DecodedLiftMessage[] = [];
  readonly dropped: string[] = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const d = decodeLiftMessage(topic, payload);
      if (d.ok) this.messages.push(d);
      else this.dropped.push(`${topic}: ${d.reason}`);
    });
  }

  static async connect(url: string): Promise<Observer> {
    const client = await mqtt.connectAsync(url, {
      clientId: `observer-${process.pid}-${Math.random().toString(36).slice(2)}`,
      clean: true,
    });
    const observer = new Observer(client);
    await client.subscribeAsync('lifts/#', { qos: 1 });
    return observer;
  }

  of<K extends LiftTopicKind>(kind: K, deviceNo?: string): LiftMessages[K][] {
    return this.messages
      .filter((m) => m.kind === kind && (deviceNo === undefined || m.deviceNo === deviceNo))
      .map((m) => m.message as LiftMessages[K]);
  }

  async send(topic: string, payload: unknown): Promise<void> {
    await this.client.publishAsync(topic, JSON.stringify(payload), { qos: 1 });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
