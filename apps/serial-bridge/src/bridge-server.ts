import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import {
  parseBridgeClientMessage,
  pairingCodeSchema,
  type BridgeErrorCode,
  type BridgePortInfo,
  type BridgeServerMessage,
  type PortSettings,
} from '@liftlink/protocol';
import type { PendingPairing } from './pairing.ts';
import type { TokenStore } from './token-store.ts';

export const BRIDGE_VERSION = '1.0.0';
/** A client that has not said a valid hello after this many messages is dropped. */
const MAX_BAD_HELLOS = 3;

/** An open serial port as the bridge needs it (serialport in production, a fake in tests). */
export interface BridgePort {
  write(bytes: Buffer): void;
  onData(listener: (bytes: Buffer) => void): void;
  /** Called once when the port closes by itself (device pulled out). */
  onLost(listener: () => void): void;
  close(): Promise<void>;
}

export interface SerialAccess {
  list(): Promise<BridgePortInfo[]>;
  open(path: string, settings: PortSettings): Promise<BridgePort>;
}

export interface BridgeServerOptions {
  /** Loopback port (0: any free one). */
  port: number;
  /** The web origins allowed to connect, e.g. https://cloud.example.com. */
  origins: string[];
  tokens: TokenStore;
  serial: SerialAccess;
  log?: (line: string) => void;
}

export interface BridgeServer {
  readonly port: number;
  /** Accept `pairing.code` once from a page (after the server verified it). */
  setPending(pairing: PendingPairing | null): void;
  pending(): PendingPairing | null;
  close(): Promise<void>;
}

/** The host names a page on this machine may use for the bridge; anything else is DNS rebinding. */
function loopbackHost(host: string | undefined, port: number): boolean {
  return !!host && [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`].includes(host.toLowerCase());
}

/**
 * The bridge's WebSocket server on 127.0.0.1: a page of a configured origin that has
 * paired (one-time code, then its token) may list the serial ports, open one, and
 * exchange bytes with it (binary messages). Every other connection is refused at the
 * upgrade (wrong origin or host: 403) or after a bad hello.
 */
export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const log = options.log ?? (() => {});
  const origins = new Set(options.origins.map((o) => new URL(o).origin));
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const http: Server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('LiftLink serial bridge: WebSocket only\n');
  });
  let pending: PendingPairing | null = null;
  const busyPaths = new Set<string>();

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const origin = req.headers.origin;
    const port = (http.address() as AddressInfo).port;
    if (!origin || !origins.has(origin) || !loopbackHost(req.headers.host, port)) {
      log(`bridge: refused a connection from origin ${origin ?? '(none)'} host ${req.headers.host ?? '(none)'}`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => session(ws));
  });

  function session(ws: WebSocket): void {
    let user: string | null = null;
    let token = '';
    let badHellos = 0;
    let port: BridgePort | null = null;
    let portPath: string | null = null;
    const send = (msg: BridgeServerMessage): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(msg));
    };
    const fail = (code: BridgeErrorCode, message?: string): void => send({ type: 'error', code, ...(message ? { message: message.slice(0, 500) } : {}) });

    async function closePort(reason: 'requested' | 'lost'): Promise<void> {
      const p = port;
      const held = portPath;
      port = null;
      portPath = null;
      if (held) busyPaths.delete(held);
      if (p && reason === 'requested') await p.close().catch(() => undefined);
      if (p) send({ type: 'closed', reason });
    }

    async function handle(text: string): Promise<void> {
      const msg = parseBridgeClientMessage(text);
      if (!msg) return fail('badMessage');
      if (!user) {
        if (msg.type !== 'hello') return fail('notPaired');
        if (msg.token) {
          user = options.tokens.check(msg.token);
          token = msg.token;
          if (user) return void send({ type: 'welcome', token, version: BRIDGE_VERSION, user });
          badHellos++;
          fail('badToken');
        } else if (msg.code && pending && pending.until > Date.now() && pending.code === pairingCodeSchema.parse(msg.code)) {
          user = pending.user;
          pending = null;
          token = await options.tokens.issue(user);
          log(`bridge: paired with a page of ${user}`);
          return void send({ type: 'welcome', token, version: BRIDGE_VERSION, user });
        } else {
          badHellos++;
          fail(msg.code && pending ? 'badCode' : 'notPaired');
        }
        if (badHellos >= MAX_BAD_HELLOS) ws.close(1008, 'not paired');
        return;
      }
      switch (msg.type) {
        case 'hello':
          return void send({ type: 'welcome', token, version: BRIDGE_VERSION, user });
        case 'list':
          return void send({ type: 'ports', ports: await options.serial.list() });
        case 'close':
          if (!port) return void send({ type: 'closed', reason: 'requested' });
          return closePort('requested');
        case 'open': {
          if (port) await closePort('requested');
          if (busyPaths.has(msg.path)) return fail('busy', `${msg.path} is open in another page`);
          try {
            busyPaths.add(msg.path);
            const opened = await options.serial.open(msg.path, msg.settings);
            if (ws.readyState !== ws.OPEN) {
              busyPaths.delete(msg.path);
              await opened.close();
              return;
            }
            port = opened;
            portPath = msg.path;
            opened.onData((bytes) => ws.readyState === ws.OPEN && ws.send(bytes, { binary: true }));
            opened.onLost(() => {
              if (port === opened) void closePort('lost');
            });
            log(`bridge: opened ${msg.path} for ${user}`);
            return void send({ type: 'opened', path: msg.path });
          } catch (err) {
            busyPaths.delete(msg.path);
            return fail('openFailed', (err as Error).message);
          }
        }
      }
    }

    let chain: Promise<void> = Promise.resolve();
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        if (!user) return fail('notPaired');
        if (!port) return fail('notOpen');
        port.write(bytes);
        return;
      }
      const text = (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer)).toString('utf8');
      chain = chain.then(() => handle(text)).catch((err: unknown) => log(`bridge: ${String(err)}`));
    });
    ws.on('close', () => {
      void chain.then(() => closePort('requested'));
    });
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  return {
    port,
    setPending: (p) => {
      pending = p;
    },
    pending: () => (pending && pending.until > Date.now() ? pending : null),
    async close() {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
