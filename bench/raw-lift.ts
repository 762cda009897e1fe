/**
 * A benchmark lift: a bare MQTT 3.1.1 client over one TCP socket that writes and reads the
 * few packets a lift needs by hand (CONNECT, SUBSCRIBE, PUBLISH QoS 0/1, PUBACK, PINGREQ).
 *
 * Why not MQTT.js: the load generator shares this 2-core machine with the server, the
 * broker and PostgreSQL, and MQTT.js spent ~60 µs of CPU per message (packet objects,
 * stores, debug calls), more than the broker. What the server receives is the same
 * bytes either way; a cheaper generator leaves the cores to the system under test.
 */
import net from 'node:net';
import { REFUSED_CONNACK_CODES, ReconnectBackoff, parseBrokerAddress } from '@liftlink/protocol';

const CONNECT = 0x10;
const CONNACK = 0x20;
const PUBLISH = 0x30;
const PUBACK = 0x40;
const SUBSCRIBE = 0x82;
const SUBACK = 0x90;
const PINGREQ = Buffer.from([0xc0, 0x00]);
const PINGRESP = 0xd0;

export interface RawLiftOptions {
  clientId: string;
  username: string;
  password: string;
  keepaliveSeconds?: number;
  /** A last will the broker publishes when the connection dies. */
  will?: { topic: string; payload: string; qos: 0 | 1; retain: boolean };
  /** A try without CONNACK this long after it began fails with ConnectTimeoutError (default: it waits). */
  connectTimeoutMs?: number;
}

/** The broker answered CONNECT with a non-zero return code. */
export class ConnectRefusedError extends Error {
  constructor(readonly code: number) {
    super(`connection refused (CONNACK ${code})`);
  }
}

/** No CONNACK within `connectTimeoutMs` (TCP connect included). */
export class ConnectTimeoutError extends Error {
  constructor(readonly ms: number) {
    super(`no CONNACK within ${ms} ms`);
  }
}

function remainingLength(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return out;
}

function str(s: string | Buffer): Buffer {
  const body = typeof s === 'string' ? Buffer.from(s) : s;
  const out = Buffer.allocUnsafe(2 + body.length);
  out.writeUInt16BE(body.length, 0);
  body.copy(out, 2);
  return out;
}

function packet(header: number, parts: Buffer[]): Buffer {
  const length = parts.reduce((sum, p) => sum + p.length, 0);
  return Buffer.concat([Buffer.from([header, ...remainingLength(length)]), ...parts]);
}

export class RawLift {
  private readonly socket: net.Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private nextId = 0;
  private readonly waiting = new Map<number, (err?: Error) => void>();
  private connack: ((code: number) => void) | null = null;
  private connackLost: ((err: Error) => void) | null = null;
  private pinger: NodeJS.Timeout | null = null;
  /** Commands and other messages the broker delivers to this lift. */
  onMessage: ((topic: string, payload: Buffer) => void) | null = null;
  /** The connection ended (the broker went away, or `destroy`); called once. */
  onClose: (() => void) | null = null;
  connected = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('close', () => {
      this.connected = false;
      if (this.pinger) clearInterval(this.pinger);
      for (const done of this.waiting.values()) done(new Error('connection closed'));
      this.waiting.clear();
      this.connackLost?.(new Error('connection closed before CONNACK'));
      this.connackLost = null;
      this.onClose?.();
    });
    socket.on('error', () => {});
  }

  static async connect(url: string, opts: RawLiftOptions): Promise<RawLift> {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port || 1883) });
    let timer: NodeJS.Timeout | undefined;
    // Raced against each step below while its timer runs, so its rejection is always observed.
    const deadline =
      opts.connectTimeoutMs === undefined
        ? null
        : new Promise<never>((_, reject) => {
            timer = setTimeout(() => {
              socket.destroy();
              reject(new ConnectTimeoutError(opts.connectTimeoutMs!));
            }, opts.connectTimeoutMs);
          });
    const withDeadline = <T>(p: Promise<T>): Promise<T> => (deadline ? Promise.race([p, deadline]) : p);
    try {
      await withDeadline(
        new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('error', reject);
        }),
      );
      const lift = new RawLift(socket);
      const keepalive = opts.keepaliveSeconds ?? 120;
      let flags = 0x02 | 0x80 | 0x40; // clean session, username, password
      const payload = [str(opts.clientId)];
      if (opts.will) {
        flags |= 0x04 | (opts.will.qos << 3) | (opts.will.retain ? 0x20 : 0);
        payload.push(str(opts.will.topic), str(opts.will.payload));
      }
      payload.push(str(opts.username), str(opts.password));
      const variable = Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, flags, keepalive >> 8, keepalive & 0xff]);
      const code = await withDeadline(
        new Promise<number>((resolve, reject) => {
          lift.connack = resolve;
          lift.connackLost = reject;
          socket.write(packet(CONNECT, [variable, ...payload]));
        }),
      );
      lift.connackLost = null;
      if (code !== 0) {
        socket.destroy();
        throw new ConnectRefusedError(code);
      }
      lift.connected = true;
      lift.pinger = setInterval(() => socket.write(PINGREQ), (keepalive * 1000) / 2);
      lift.pinger.unref();
      return lift;
    } catch (err) {
      socket.destroy();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private packetId(): number {
    do this.nextId = (this.nextId % 0xffff) + 1;
    while (this.waiting.has(this.nextId));
    return this.nextId;
  }

  /** QoS 1 calls `done` when the broker acknowledges; QoS 0 when the bytes are written. */
  publish(topic: string, payload: string, qos: 0 | 1, done?: (err?: Error) => void, retain = false): void {
    const topicBytes = Buffer.byteLength(topic);
    const payloadBytes = Buffer.byteLength(payload);
    const length = 2 + topicBytes + (qos ? 2 : 0) + payloadBytes;
    const head = remainingLength(length);
    const out = Buffer.allocUnsafe(1 + head.length + length);
    let at = 0;
    out[at++] = PUBLISH | (qos << 1) | (retain ? 1 : 0);
    for (const b of head) out[at++] = b;
    out.writeUInt16BE(topicBytes, at);
    at += 2;
    at += out.write(topic, at);
    if (qos) {
      const id = this.packetId();
      out.writeUInt16BE(id, at);
      at += 2;
      this.waiting.set(id, done ?? (() => {}));
    }
    out.write(payload, at);
    this.socket.write(out);
    if (!qos) done?.();
  }

  publishAsync(topic: string, payload: string, qos: 0 | 1, retain = false): Promise<void> {
    return new Promise((resolve, reject) => this.publish(topic, payload, qos, (err) => (err ? reject(err) : resolve()), retain));
  }

  subscribe(topic: string, qos: 0 | 1): Promise<void> {
    const id = this.packetId();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (err) => (err ? reject(err) : resolve()));
      const idBytes = Buffer.from([id >> 8, id & 0xff]);
      this.socket.write(packet(SUBSCRIBE, [idBytes, str(topic), Buffer.from([qos])]));
    });
  }

  /** Closes the socket without DISCONNECT, as a lift losing power would (the will is sent). */
  destroy(): void {
    this.socket.destroy();
  }

  /**
   * The network between lift and broker is gone: nothing more is sent or read on this
   * connection, but the socket stays open, so the broker does not learn of it (no FIN, no
   * RST) until the lift logs in again with the same client id and the broker ends the old
   * connection (a session takeover). Then the socket is freed.
   */
  abandon(): void {
    this.onClose = null;
    this.onMessage = null;
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    this.socket.pause();
    this.socket.removeAllListeners('data');
    this.socket.on('end', () => this.socket.destroy());
    // A paused socket notices the broker's FIN only when it reads: read and drop.
    this.socket.on('data', () => {});
    this.socket.resume();
  }

  private read(chunk: Buffer): void {
    let data = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
    for (;;) {
      if (data.length < 2) break;
      let length = 0;
      let multiplier = 1;
      let at = 1;
      let complete = false;
      while (at < data.length && at <= 4) {
        const byte = data[at++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if (!(byte & 0x80)) {
          complete = true;
          break;
        }
      }
      if (!complete || data.length < at + length) break;
      this.handle(data[0]!, data.subarray(at, at + length));
      data = data.subarray(at + length);
    }
    this.buffered = data.length ? Buffer.from(data) : Buffer.alloc(0);
  }

  private handle(header: number, body: Buffer): void {
    const type = header & 0xf0;
    if (type === PUBACK || type === SUBACK) {
      const id = body.readUInt16BE(0);
      const done = this.waiting.get(id);
      this.waiting.delete(id);
      done?.(type === SUBACK && body[2] === 0x80 ? new Error('subscription refused') : undefined);
    } else if (type === PUBLISH) {
      const qos = (header >> 1) & 0x03;
      const topicLength = body.readUInt16BE(0);
      const topic = body.toString('utf8', 2, 2 + topicLength);
      let at = 2 + topicLength;
      if (qos > 0) {
        const id = body.readUInt16BE(at);
        at += 2;
        this.socket.write(Buffer.from([PUBACK, 2, id >> 8, id & 0xff]));
      }
      this.onMessage?.(topic, body.subarray(at));
    } else if (type === CONNACK) {
      this.connack?.(body[1]!);
      this.connack = null;
    } else if (type !== PINGRESP) {
      this.socket.destroy(new Error(`unexpected MQTT packet ${header}`));
    }
  }
}

export interface ReconnectingLiftHooks {
  /** The options of each try: a lift reserves a new session (and will) for every attempt. */
  options: () => RawLiftOptions;
  /** A try begins (the TCP connect). */
  onTry?: () => void;
  /** The broker accepted the try (CONNACK 0): the lift publishes what it says on connecting. */
  onConnected?: (lift: RawLift) => void;
  /** A try failed: TCP error, ConnectTimeoutError, ConnectRefusedError. */
  onFailed?: (err: Error) => void;
  /** An accepted connection ended. */
  onLost?: () => void;
}

/**
 * A lift that stays connected as a real one does: the first connection at once (power-on),
 * then every lost connection and failed try waits as `ReconnectBackoff` of
 * @liftlink/protocol says (the lifts' rule itself, not a copy), refused ones included.
 * A broker address that lists a cluster's nodes (`parseBrokerAddress`) is tried node after
 * node, one per try, as docs/protocol.md 1.1 says of a lift.
 */
export class ReconnectingLift {
  /** The connection while there is one. */
  lift: RawLift | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly nodes: string[];
  private nextNode = 0;
  /** Until then the lift's network is down: its tries fail at once (no route), as they would at TCP. */
  private offlineUntil = 0;

  constructor(
    address: string,
    private readonly hooks: ReconnectingLiftHooks,
    readonly backoff: ReconnectBackoff = new ReconnectBackoff(),
  ) {
    this.nodes = parseBrokerAddress(address).servers.map((s) => `mqtt://${s.host.includes(':') ? `[${s.host}]` : s.host}:${s.port}`);
  }

  /** Power-on: the first try at once. */
  start(): void {
    this.attempt();
  }

  /** Ends the connection and every later try. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.lift?.destroy();
    this.lift = null;
  }

  /**
   * The lift's network goes away for `outageMs` (a cellular or uplink outage): the lift learns
   * of it at once (its modem drops), leaves its connection behind as it is (the broker still
   * holds it, `RawLift.abandon`) and reconnects by the rule; the tries before the network is
   * back fail as a TCP connect with no route would.
   */
  cutNetwork(outageMs: number): void {
    if (this.stopped) return;
    this.offlineUntil = Date.now() + outageMs;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const old = this.lift;
    this.lift = null;
    if (old) {
      old.abandon();
      this.hooks.onLost?.();
    }
    this.later(false);
  }

  private later(refused: boolean): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => this.attempt(), this.backoff.nextDelayMs(Date.now(), refused));
  }

  private attempt(): void {
    this.timer = null;
    if (this.stopped) return;
    this.hooks.onTry?.();
    if (Date.now() < this.offlineUntil) {
      this.hooks.onFailed?.(new Error('network unreachable'));
      this.later(false);
      return;
    }
    const url = this.nodes[this.nextNode++ % this.nodes.length]!;
    RawLift.connect(url, this.hooks.options()).then(
      (lift) => {
        if (this.stopped) return lift.destroy();
        this.lift = lift;
        this.backoff.connected(Date.now());
        lift.onClose = () => {
          if (this.lift === lift) this.lift = null;
          if (this.stopped) return;
          this.hooks.onLost?.();
          this.later(false);
        };
        this.hooks.onConnected?.(lift);
      },
      (err: Error) => {
        if (this.stopped) return;
        this.hooks.onFailed?.(err);
        this.later(err instanceof ConnectRefusedError && REFUSED_CONNACK_CODES.includes(err.code));
      },
    );
  }
}
