import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SerialPort } from 'serialport';
import mqtt from 'mqtt';
import { SerialLink, encodeRequest, type ByteTransport } from '@liftlink/protocol';
import { startSerialController, type SerialControllerHandle } from '../src/serial/serial-controller.ts';
import { Observer, startBroker, waitFor } from './harness.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const SECRET = 'bench-secret-0123456789abcdef';

/** A socat pseudo-terminal pair: bytes written to one end come out of the other. */
async function ptyPair(dir: string, name: string): Promise<{ a: string; b: string; stop: () => Promise<void> }> {
  const a = path.join(dir, `${name}-a`);
  const b = path.join(dir, `${name}-b`);
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${a}`, `pty,raw,echo=0,link=${b}`], { stdio: 'ignore' });
  await waitFor(() => existsSync(a) && existsSync(b), 5_000, 'socat ptys');
  return {
    a,
    b,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The bench's end: a serialport opened on a path, as a byte transport for SerialLink. */
async function benchPort(portPath: string): Promise<{ port: SerialPort; link: SerialLink }> {
  const port = new SerialPort({ path: portPath, baudRate: 115_200, autoOpen: false });
  await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
  const transport: ByteTransport = {
    write: (bytes) => new Promise((resolve, reject) => port.write(Buffer.from(bytes), (err) => (err ? reject(err) : resolve()))),
    onData: (listener) => {
      const l = (chunk: Buffer) => listener(new Uint8Array(chunk));
      port.on('data', l);
      return () => port.off('data', l);
    },
  };
  return { port, link: new SerialLink(transport, { timeoutMs: 1_000 }) };
}

const closePort = (port: SerialPort) => new Promise<void>((resolve) => (port.isOpen ? port.close(() => resolve()) : resolve()));

describe('simulated controller on a socat serial pair', () => {
  let dir: string;
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let observer: Observer;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'liftlink-serial-'));
    broker = await startBroker();
    // lifts need their secret; the cloud-side observer (no username) may listen
    broker.broker.authenticate = (client, username, password, done) =>
      done(null, client.id.startsWith('observer-') || (username === 'LL-0100' && password?.toString() === SECRET));
    observer = await Observer.connect(broker.url);
  });
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  afterAll(async () => {
    await observer?.close();
    await broker?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function controller(pair: { a: string }, stateFile: string): Promise<SerialControllerHandle> {
    const handle = await startSerialController({
      path: pair.a,
      stateFile,
      identity: { kind: 'inclined2dRack', floors: 3, firmware: 'SIM-1.0.0', controllerSerial: 'CTL-SOCAT-1' },
      tickMs: 50,
      statusIdleMs: 500,
      reopenMs: 100,
      reconnectMs: 200,
      log: () => {},
    });
    await waitFor(() => handle.portOpen(), 5_000, 'controller port');
    return handle;
  }

  it('is provisioned over the cable, comes online on MQTT, and keeps its settings over a restart', async () => {
    const pair = await ptyPair(dir, 'p1');
    cleanups.push(pair.stop);
    const stateFile = path.join(dir, 'ctl-1.json');
    let handle = await controller(pair, stateFile);
    cleanups.push(() => handle.stop());
    const bench = await benchPort(pair.b);
    cleanups.push(() => closePort(bench.port));

    expect(await bench.link.handshake()).toMatchObject({ deviceNo: null, kind: 'inclined2dRack', floors: 3, controllerSerial: 'CTL-SOCAT-1', mqtt: 'none' });
    await bench.link.writeDeviceNo('LL-0100');
    await bench.link.writeCredentials({ mqttUrl: broker.url, deviceNo: 'LL-0100', secret: SECRET });
    await waitFor(() => observer.of('presence', 'LL-0100').some((p) => p.online), 10_000, 'presence online');
    await waitFor(async () => (await bench.link.handshake()).mqtt === 'online' || undefined, 5_000, 'mqtt online');
    expect(observer.of('config/report', 'LL-0100')[0]).toMatchObject({ version: 0 });

    const { config } = await bench.link.readConfig();
    await bench.link.writeConfig({ baseVersion: 0, config: { ...config, slowSpeed: 25 } });
    await bench.link.saveConfig();
    // the cloud hears of the configuration written over the cable
    await waitFor(() => observer.of('config/report', 'LL-0100').some((r) => r.version === 1 && r.config.slowSpeed === 25), 5_000, 'config report v1');

    await handle.stop();
    handle = await controller(pair, stateFile);
    expect(await bench.link.handshake()).toMatchObject({ deviceNo: 'LL-0100', credentials: true, configVersion: 1, configSaved: true });
    await waitFor(async () => (await bench.link.handshake()).mqtt === 'online' || undefined, 10_000, 'online again after restart');
  });

  it('says refused when the broker turns its credentials down', async () => {
    const pair = await ptyPair(dir, 'p2');
    cleanups.push(pair.stop);
    const handle = await controller(pair, path.join(dir, 'ctl-2.json'));
    cleanups.push(() => handle.stop());
    const bench = await benchPort(pair.b);
    cleanups.push(() => closePort(bench.port));
    await bench.link.writeDeviceNo('LL-0100');
    await bench.link.writeCredentials({ mqttUrl: broker.url, deviceNo: 'LL-0100', secret: 'wrong-secret-0123456789' });
    await waitFor(async () => (await bench.link.handshake()).mqtt === 'refused' || undefined, 10_000, 'refused');
    const probe = mqtt.connect(broker.url, { clientId: 'LL-0100', username: 'LL-0100', password: 'wrong-secret-0123456789', reconnectPeriod: 0 });
    const refusal = await new Promise<string>((resolve) => probe.once('error', (e) => resolve(e.message)));
    probe.end(true);
    expect(refusal).toMatch(/not authorized|bad user/i);
  });

  it('a cable pulled mid-write leaves the stored settings whole', async () => {
    const pair = await ptyPair(dir, 'p3');
    const stateFile = path.join(dir, 'ctl-3.json');
    const handle = await controller(pair, stateFile);
    cleanups.push(() => handle.stop());
    const bench = await benchPort(pair.b);
    await bench.link.writeDeviceNo('LL-0300');
    const before = readFileSync(stateFile, 'utf8');

    // half of a write, then the cable goes: the socat pair dies with the bench end
    const frame = encodeRequest('writeDeviceNo', 9, { deviceNo: 'LL-0301' })!;
    await new Promise<void>((resolve) => bench.port.write(Buffer.from(frame.subarray(0, 10)), () => resolve()));
    await new Promise((r) => setTimeout(r, 100));
    await closePort(bench.port);
    await pair.stop();
    await waitFor(() => !handle.portOpen(), 5_000, 'controller notices the port went');
    expect(readFileSync(stateFile, 'utf8')).toBe(before);
    expect(handle.core.state.deviceNo).toBe('LL-0300');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // plugged in again (a new pair on the same paths): the controller answers with its old settings
    const again = await ptyPair(dir, 'p3');
    cleanups.push(again.stop);
    await waitFor(() => handle.portOpen(), 5_000, 'port reopened');
    const bench2 = await benchPort(again.b);
    cleanups.push(() => closePort(bench2.port));
    expect((await bench2.link.handshake()).deviceNo).toBe('LL-0300');
  });

  it('refuses to start on a damaged state file instead of overwriting it', async () => {
    const stateFile = path.join(dir, 'damaged.json');
    writeFileSync(stateFile, '{"format":1,"deviceNo":');
    await expect(startSerialController({ path: path.join(dir, 'none'), stateFile, identity: { kind: 'inclinedStraightRack', floors: 2, firmware: 'x' }, log: () => {} })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(stateFile, 'utf8')).toBe('{"format":1,"deviceNo":');
  });

  it('npm run simulator -- --serial PATH prints its ready line and stops on SIGTERM', async () => {
    const pair = await ptyPair(dir, 'p4');
    cleanups.push(pair.stop);
    const stateFile = path.join(dir, 'cli.json');
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN, '--serial', pair.a, '--state', stateFile, '--kind', 'verticalHydraulic', '--floors', '4', '--controller-serial', 'CTL-CLI-1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(async () => child.exitCode === null && child.kill('SIGKILL'));
    let stdout = '';
    child.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    await waitFor(() => stdout.includes('\n'), 20_000, 'ready line');
    expect(JSON.parse(stdout)).toEqual({ ready: true, serial: pair.a, controllerSerial: 'CTL-CLI-1' });
    const bench = await benchPort(pair.b);
    cleanups.push(() => closePort(bench.port));
    expect(await bench.link.handshake()).toMatchObject({ kind: 'verticalHydraulic', floors: 4, controllerSerial: 'CTL-CLI-1' });
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(JSON.parse(readFileSync(stateFile, 'utf8')).identity.controllerSerial).toBe('CTL-CLI-1');
  });
});
