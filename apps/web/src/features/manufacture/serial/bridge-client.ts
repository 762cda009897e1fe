import {
  BRIDGE_DEFAULT_PORT,
  parseBridgeServerMessage,
  type BridgeErrorCode,
  type BridgePortInfo,
  type BridgeServerMessage,
  type PortSettings,
} from '@liftlink/protocol';
import type { OpenPort } from './web-serial.ts';

export const BRIDGE_TOKEN_KEY = 'liftlink.bridge.token';
export const BRIDGE_PORT_KEY = 'liftlink.bridge.port';

/** Why talking to the bridge failed: it is not running (`unreachable`), or it said why. */
export class BridgeError extends Error {
  constructor(
    readonly code: BridgeErrorCode | 'unreachable' | 'closed' | 'timeout',
    message?: string,
  ) {
    super(message ?? code);
    this.name = 'BridgeError';
  }
}

const ANSWER_MS = 10_000;

/**
 * The page's side of the serial bridge (ws://127.0.0.1:{port}): one WebSocket, JSON
 * control messages answered in order, binary messages for the serial bytes.
 */
export class BridgeClient {
  private ws: WebSocket | null = null;
  private waiting: {
    types: BridgeServerMessage['type'][];
    resolve: (m: BridgeServerMessage) => void;
    reject: (e: BridgeError) => void;
    timer: number;
  } | null = null;
  private readonly byteListeners = new Set<(bytes: Uint8Array) => void>();
  private portLost: (() => void) | null = null;
  private closedByUs = false;
  private queue: Promise<unknown> = Promise.resolve();
  user: string | null = null;

  constructor(readonly port: number = BRIDGE_DEFAULT_PORT) {}

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect(): Promise<void> {
    if (this.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${this.port}`);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      this.closedByUs = false;
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new BridgeError('unreachable'));
      ws.onclose = () => {
        this.fail(new BridgeError('closed'));
        if (!this.closedByUs) this.portLost?.();
        this.portLost = null;
      };
      ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
        if (typeof event.data !== 'string') {
          const bytes = new Uint8Array(event.data);
          this.byteListeners.forEach((l) => l(bytes));
          return;
        }
        const msg = parseBridgeServerMessage(event.data);
        if (!msg) return;
        if (msg.type === 'closed' && msg.reason === 'lost') {
          this.portLost?.();
          this.portLost = null;
        }
        const w = this.waiting;
        if (!w) return;
        if (msg.type === 'error') {
          this.waiting = null;
          window.clearTimeout(w.timer);
          w.reject(new BridgeError(msg.code, msg.message));
        } else if (w.types.includes(msg.type)) {
          this.waiting = null;
          window.clearTimeout(w.timer);
          w.resolve(msg);
        }
      };
    });
  }

  private fail(error: BridgeError): void {
    const w = this.waiting;
    this.waiting = null;
    if (w) {
      window.clearTimeout(w.timer);
      w.reject(error);
    }
  }

  /** Sends a control message and waits for its answer; one at a time (the bridge answers in order). */
  private ask<T extends BridgeServerMessage['type']>(
    message: object,
    ...types: T[]
  ): Promise<Extract<BridgeServerMessage, { type: T }>> {
    const run = this.queue.then(
      () =>
        new Promise<Extract<BridgeServerMessage, { type: T }>>((resolve, reject) => {
          if (!this.connected) return reject(new BridgeError('closed'));
          const timer = window.setTimeout(() => {
            this.waiting = null;
            reject(new BridgeError('timeout'));
          }, ANSWER_MS);
          this.waiting = {
            types,
            resolve: resolve as (m: BridgeServerMessage) => void,
            reject,
            timer,
          };
          this.ws!.send(JSON.stringify(message));
        }),
    );
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Pairs with a one-time code (the bridge must have verified it), or comes back with a token. */
  async hello(
    credential: { code: string } | { token: string },
  ): Promise<{ token: string; user: string }> {
    const welcome = await this.ask({ type: 'hello', ...credential }, 'welcome');
    this.user = welcome.user;
    return { token: welcome.token, user: welcome.user };
  }

  async list(): Promise<BridgePortInfo[]> {
    return (await this.ask({ type: 'list' }, 'ports')).ports;
  }

  async open(path: string, settings: PortSettings): Promise<OpenPort> {
    await this.ask({ type: 'open', path, settings }, 'opened');
    return {
      label: path,
      transport: {
        write: async (bytes) => {
          if (!this.connected) throw new BridgeError('closed');
          this.ws!.send(bytes);
        },
        onData: (listener) => {
          this.byteListeners.add(listener);
          return () => this.byteListeners.delete(listener);
        },
      },
      onLost: (listener) => {
        this.portLost = listener;
      },
      close: async () => {
        this.portLost = null;
        this.byteListeners.clear();
        if (this.connected) await this.ask({ type: 'close' }, 'closed').catch(() => undefined);
      },
    };
  }

  disconnect(): void {
    this.closedByUs = true;
    this.ws?.close();
    this.ws = null;
  }
}
