import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PORT_SETTINGS } from '@liftlink/protocol';
import { BridgeClient, BridgeError } from './bridge-client.ts';

/** A WebSocket double: records what the page sends, lets the test play the bridge. */
class FakeWebSocket {
  static last: FakeWebSocket | null = null;
  static refuse = false;
  static readonly OPEN = 1;
  readyState = 0;
  binaryType = 'blob';
  sent: (string | Uint8Array)[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((event: { data: string | ArrayBuffer }) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.last = this;
    setTimeout(() => {
      if (FakeWebSocket.refuse) {
        this.onerror?.();
        this.readyState = 3;
        this.onclose?.();
      } else {
        this.readyState = 1;
        this.onopen?.();
      }
    }, 0);
  }
  send(data: string | Uint8Array) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
    this.onclose?.();
  }
  say(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  bytes(data: number[]) {
    this.onmessage?.({ data: new Uint8Array(data).buffer });
  }
  lastSent(): unknown {
    const last = this.sent[this.sent.length - 1];
    return typeof last === 'string' ? JSON.parse(last) : last;
  }
}

const ws = () => FakeWebSocket.last!;
const tick = () => new Promise((r) => setTimeout(r, 0));

describe('bridge client (page side)', () => {
  beforeEach(() => {
    FakeWebSocket.refuse = false;
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('says unreachable when no bridge listens', async () => {
    FakeWebSocket.refuse = true;
    const client = new BridgeClient(17355);
    await expect(client.connect()).rejects.toMatchObject({ code: 'unreachable' });
    expect(ws().url).toBe('ws://127.0.0.1:17355');
  });

  it('pairs with a token, lists ports, and reports the bridge refusals as BridgeError', async () => {
    const client = new BridgeClient(17355);
    await client.connect();
    const hello = client.hello({ token: 't'.repeat(43) });
    await tick();
    expect(ws().lastSent()).toEqual({ type: 'hello', token: 't'.repeat(43) });
    ws().say({ type: 'welcome', token: 't'.repeat(43), version: '1.0.0', user: 'engineer' });
    expect(await hello).toEqual({ token: 't'.repeat(43), user: 'engineer' });

    const list = client.list();
    await tick();
    ws().say({ type: 'ports', ports: [{ path: '/dev/ttyUSB0' }] });
    expect(await list).toEqual([{ path: '/dev/ttyUSB0' }]);

    const open = client.open('/dev/ttyS9', DEFAULT_PORT_SETTINGS);
    await tick();
    ws().say({ type: 'error', code: 'openFailed', message: 'No such file' });
    const error = await open.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'openFailed' });
  });

  it('moves serial bytes both ways once a port is open, and tells when it is lost', async () => {
    const client = new BridgeClient(17355);
    await client.connect();
    const opening = client.open('/dev/ttyUSB0', DEFAULT_PORT_SETTINGS);
    await tick();
    expect(ws().lastSent()).toEqual({
      type: 'open',
      path: '/dev/ttyUSB0',
      settings: DEFAULT_PORT_SETTINGS,
    });
    ws().say({ type: 'opened', path: '/dev/ttyUSB0' });
    const port = await opening;
    const got: number[][] = [];
    port.transport.onData((b) => got.push([...b]));
    await port.transport.write(new Uint8Array([0xa5, 1]));
    expect([...(ws().lastSent() as Uint8Array)]).toEqual([0xa5, 1]);
    ws().bytes([1, 2, 3]);
    expect(got).toEqual([[1, 2, 3]]);

    const lost = vi.fn();
    port.onLost(lost);
    ws().say({ type: 'closed', reason: 'lost' });
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('tells the open port it is lost when the bridge stops', async () => {
    const client = new BridgeClient(17355);
    await client.connect();
    const opening = client.open('/dev/ttyUSB0', DEFAULT_PORT_SETTINGS);
    await tick();
    ws().say({ type: 'opened', path: '/dev/ttyUSB0' });
    const port = await opening;
    const lost = vi.fn();
    port.onLost(lost);
    const pending = client.list().catch((e: unknown) => e);
    await tick();
    ws().close();
    await tick();
    expect(lost).toHaveBeenCalledTimes(1);
    expect(await pending).toMatchObject({ code: 'closed' });
    await expect(port.transport.write(new Uint8Array([1]))).rejects.toMatchObject({
      code: 'closed',
    });
  });
});

describe('bridge client requests', () => {
  beforeEach(() => {
    FakeWebSocket.refuse = false;
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends one request at a time and gives each its own answer', async () => {
    const client = new BridgeClient(17355);
    await client.connect();
    const list = client.list();
    const open = client.open('/dev/ttyUSB0', DEFAULT_PORT_SETTINGS);
    await tick();
    expect(ws().sent.map((m) => JSON.parse(m as string).type)).toEqual(['list']);
    ws().say({ type: 'ports', ports: [] });
    expect(await list).toEqual([]);
    await tick();
    expect(ws().lastSent()).toMatchObject({ type: 'open' });
    ws().say({ type: 'opened', path: '/dev/ttyUSB0' });
    await expect(open).resolves.toMatchObject({ label: '/dev/ttyUSB0' });
  });
});
