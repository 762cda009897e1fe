import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { SerialPort } from 'serialport';
import { DEFAULT_PORT_SETTINGS, parseBridgeServerMessage, type BridgeServerMessage } from '@liftlink/protocol';
import { startBridgeServer, type BridgePort, type BridgeServer, type SerialAccess } from '../src/bridge-server.ts';
import { verifyWithServer } from '../src/pairing.ts';
import { nodeSerialAccess } from '../src/serial-access.ts';
import { TokenStore } from '../src/token-store.ts';
import { parseBridgeCli } from '../src/cli.ts';

const ORIGIN = 'https://cloud.example.com';
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

async function until<T>(probe: () => T | undefined | false | null, ms = 5_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A page's connection: control messages and binary bytes it received. */
async function page(port: number, origin = ORIGIN, host?: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin, ...(host ? { headers: { host } } : {}) });
  const messages: BridgeServerMessage[] = [];
  const bytes: Buffer[] = [];
  ws.on('message', (data, isBinary) => {
    if (isBinary) bytes.push(Buffer.from(data as Buffer));
    else messages.push(parseBridgeServerMessage(Buffer.from(data as Buffer).toString('utf8'))!);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
  });
  const next = async (type: BridgeServerMessage['type']) => {
    const seen = messages.length;
    return until(() => messages.slice(seen).find((m) => m.type === type) ?? messages.slice(seen).find((m) => m.type === 'error'), 5_000, type);
  };
  const ask = async (msg: object, answer: BridgeServerMessage['type']) => {
    const waiting = next(answer);
    ws.send(JSON.stringify(msg));
    return waiting;
  };
  return { ws, messages, bytes, ask };
}

/** A serial port in memory: what the bridge writes, and a way to make the device send or vanish. */
function fakeSerial() {
  const written: Buffer[] = [];
  let dataListener: ((b: Buffer) => void) | null = null;
  let lostListener: (() => void) | null = null;
  const access: SerialAccess = {
    list: async () => [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI' }],
    open: async (p) => {
      if (p !== '/dev/ttyUSB0') throw new Error(`cannot open ${p}: No such file or directory`);
      const port: BridgePort = {
        write: (b) => void written.push(b),
        onData: (l) => void (dataListener = l),
        onLost: (l) => void (lostListener = l),
        close: async () => undefined,
      };
      return port;
    },
  };
  return { access, written, device: { send: (b: Buffer) => dataListener?.(b), unplug: () => lostListener?.() } };
}

describe('serial bridge', () => {
  let bridge: BridgeServer;
  let serial: ReturnType<typeof fakeSerial>;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    serial = fakeSerial();
    bridge = await startBridgeServer({ port: 0, origins: [ORIGIN], tokens: await TokenStore.open(null), serial: serial.access });
  });
  afterEach(() => sockets.splice(0).forEach((s) => s.terminate()));
  afterAll(async () => {
    await bridge?.close();
  });
  const connect = async (...args: [string?, string?]) => {
    const p = await page(bridge.port, ...args);
    sockets.push(p.ws);
    return p;
  };

  it('refuses pages of another origin, a missing origin and a foreign Host header', async () => {
    await expect(connect('https://evil.example.com')).rejects.toThrow(/403/);
    await expect(connect('null')).rejects.toThrow(/403/);
    await expect(connect(ORIGIN, `rebound.example.com:${bridge.port}`)).rejects.toThrow(/403/);
    await expect(connect(ORIGIN, `localhost:${bridge.port}`)).resolves.toBeTruthy();
  });

  it('does nothing before pairing, and drops a page after three bad hellos', async () => {
    const p = await connect();
    expect(await p.ask({ type: 'list' }, 'ports')).toEqual({ type: 'error', code: 'notPaired' });
    expect(await p.ask({ type: 'hello', code: 'ABCD-EF23' }, 'welcome')).toEqual({ type: 'error', code: 'notPaired' });
    const closed = new Promise((r) => p.ws.once('close', r));
    await p.ask({ type: 'hello', token: 'x'.repeat(43) }, 'welcome');
    await p.ask({ type: 'hello', token: 'y'.repeat(43) }, 'welcome');
    await closed;
  });

  it('pairs once with the verified code, then the page comes back with its token', async () => {
    bridge.setPending({ code: 'ABCDEF23', user: 'engineer-1', until: Date.now() + 60_000 });
    const p = await connect();
    expect(await p.ask({ type: 'hello', code: 'abcd-ef2z' }, 'welcome')).toEqual({ type: 'error', code: 'badCode' });
    const welcome = await p.ask({ type: 'hello', code: 'abcd-ef23' }, 'welcome');
    expect(welcome).toMatchObject({ type: 'welcome', user: 'engineer-1', token: expect.stringMatching(/^[\w-]{43}$/) });
    expect(bridge.pending()).toBeNull();

    // the code is spent; the token works from a new connection
    const q = await connect();
    expect(await q.ask({ type: 'hello', code: 'ABCD-EF23' }, 'welcome')).toMatchObject({ type: 'error' });
    expect(await q.ask({ type: 'hello', token: (welcome as { token: string }).token }, 'welcome')).toMatchObject({ type: 'welcome', user: 'engineer-1' });
  });

  it('lists and opens ports and passes bytes both ways; a pulled device closes the port', async () => {
    bridge.setPending({ code: 'ABCDEF24', user: 'engineer-1', until: Date.now() + 60_000 });
    const p = await connect();
    await p.ask({ type: 'hello', code: 'ABCDEF24' }, 'welcome');
    expect(await p.ask({ type: 'list' }, 'ports')).toEqual({ type: 'ports', ports: [{ path: '/dev/ttyUSB0', manufacturer: 'FTDI' }] });
    expect(await p.ask({ type: 'open', path: '/dev/ttyS9', settings: DEFAULT_PORT_SETTINGS }, 'opened')).toMatchObject({ type: 'error', code: 'openFailed', message: expect.stringContaining('No such file') });
    p.ws.send(Buffer.from([1, 2, 3]));
    await until(() => p.messages.some((m) => m.type === 'error' && m.code === 'notOpen'), 5_000, 'notOpen');

    expect(await p.ask({ type: 'open', path: '/dev/ttyUSB0', settings: DEFAULT_PORT_SETTINGS }, 'opened')).toEqual({ type: 'opened', path: '/dev/ttyUSB0' });
    p.ws.send(Buffer.from([0xa5, 0, 0]));
    await until(() => serial.written.length > 0, 5_000, 'bytes to the port');
    expect([...serial.written[0]!]).toEqual([0xa5, 0, 0]);
    serial.device.send(Buffer.from([9, 8, 7]));
    await until(() => p.bytes.length > 0, 5_000, 'bytes to the page');
    expect([...p.bytes[0]!]).toEqual([9, 8, 7]);

    // another page cannot take the same port meanwhile
    bridge.setPending({ code: 'ABCDEF25', user: 'engineer-2', until: Date.now() + 60_000 });
    const other = await connect();
    await other.ask({ type: 'hello', code: 'ABCDEF25' }, 'welcome');
    expect(await other.ask({ type: 'open', path: '/dev/ttyUSB0', settings: DEFAULT_PORT_SETTINGS }, 'opened')).toMatchObject({ type: 'error', code: 'busy' });

    const lost = until(() => p.messages.find((m) => m.type === 'closed'), 5_000, 'closed');
    serial.device.unplug();
    expect(await lost).toEqual({ type: 'closed', reason: 'lost' });
  });
});

describe('pairing with the LiftLink server', () => {
  let server: Server;
  let url: string;
  const seen: unknown[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body: JSON.parse(body) });
        const ok = JSON.parse(body).code === 'ABCDEF23';
        res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { success: true, code: 'ok', msg: 'OK', result: { user: 'engineer-1' } } : { success: false, code: 'auth.tokenInvalid', msg: 'The link is invalid or has expired', result: null }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends the normalised code and takes the user from the answer', async () => {
    expect(await verifyWithServer(url, ' abcd-ef23 ')).toMatchObject({ ok: true, pairing: { code: 'ABCDEF23', user: 'engineer-1' } });
    expect(seen[0]).toEqual({ method: 'POST', url: '/manufacture/bridge/pair/verify', body: { code: 'ABCDEF23' } });
    expect(await verifyWithServer(url, 'ABCD-EF24')).toEqual({ ok: false, reason: 'refused', message: 'The link is invalid or has expired' });
    expect(await verifyWithServer(url, 'nope')).toMatchObject({ ok: false, reason: 'format' });
    expect(await verifyWithServer('http://127.0.0.1:1', 'ABCD-EF23')).toMatchObject({ ok: false, reason: 'unreachable' });
  });

  it('reads its command line: the origin defaults to the server', () => {
    expect(parseBridgeCli(['--server', 'https://cloud.example.com/path'])).toMatchObject({ server: 'https://cloud.example.com', origins: ['https://cloud.example.com'], port: 17355, extraPorts: [] });
    expect(parseBridgeCli(['--server', 'http://127.0.0.1:8080', '--origin', 'http://localhost:5173', '--extra-port', '/tmp/a', '--port', '0'])).toMatchObject({ origins: ['http://localhost:5173'], extraPorts: ['/tmp/a'], port: 0 });
    expect(() => parseBridgeCli([])).toThrow(/--server/);
    expect(() => parseBridgeCli(['--server', 'ftp://x'])).toThrow(/http/);
  });
});

describe('bridge process on a real serial pair', () => {
  let dir: string;
  let socat: ChildProcess;
  let child: ChildProcess;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'liftlink-bridge-'));
    socat = spawn('socat', [`pty,raw,echo=0,link=${dir}/a`, `pty,raw,echo=0,link=${dir}/b`], { stdio: 'ignore' });
    await until(() => existsSync(`${dir}/a`) && existsSync(`${dir}/b`), 5_000, 'ptys');
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    socat?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the extra port, and serialport bytes cross the pair', async () => {
    const access = nodeSerialAccess([`${dir}/b`]);
    expect((await access.list()).map((p) => p.path)).toContain(`${dir}/b`);
    const port = await access.open(`${dir}/b`, DEFAULT_PORT_SETTINGS);
    const far = new SerialPort({ path: `${dir}/a`, baudRate: 115_200 });
    const got: Buffer[] = [];
    far.on('data', (b: Buffer) => got.push(b));
    await new Promise((r) => far.once('open', r));
    port.write(Buffer.from('ping'));
    await until(() => Buffer.concat(got).toString() === 'ping', 5_000, 'bytes across');
    await port.close();
    await new Promise((r) => far.close(r));
  });

  it('starts from the command line, says where it listens, and verifies a typed code', async () => {
    child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--server', 'http://127.0.0.1:1', '--port', '0', '--state', `${dir}/state.json`], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    await until(() => out.includes('listening on ws://127.0.0.1:'), 20_000, 'listening line');
    child.stdin!.write('ABCD-EF23\n');
    await until(() => out.includes('Pairing failed: cannot reach http://127.0.0.1:1'), 20_000, 'pairing message');
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
