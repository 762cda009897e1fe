import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { MqttClient } from 'mqtt';
import { TOKEN_COOKIE } from '@liftlink/protocol';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { deviceBrokerUrl } from '../src/modules/manufacture/device-broker-url.ts';
import { ADMIN_PASSWORD, body, client, freshDatabase, login, startTestApp, type TestApp } from './helpers.ts';
import { closedWithin, connectLift, publishEvent } from './support/lift-client.ts';
import { freePort, until } from './support/ports.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from './support/tls-certificates.ts';

/** Aedes keeps its connected clients by id; its typings leave the map out. */
function brokerClients(app: { broker?: unknown }): Record<string, { conn?: unknown } | undefined> {
  return (app.broker as { clients: Record<string, { conn?: unknown } | undefined> }).clients;
}

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

let pki: TestPki;
let good: IssuedCertificate;
beforeAll(() => {
  pki = createTestPki();
  good = pki.issue('server');
});
afterAll(() => pki?.remove());

function tlsEnv(cert: { certFile: string; keyFile: string }): Record<string, string> {
  return { TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile, MQTT_TLS_PORT: '0' };
}

/** A GET over HTTPS that trusts only the test CA; with `agent`, on its kept-alive connection. */
function httpsGet(port: number, route: string, agent?: https.Agent): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; serial: string; socket: tls.TLSSocket }> {
  return new Promise((resolve, reject) => {
    const req = https.get({ host: '127.0.0.1', port, path: route, servername: 'localhost', ca: readFileSync(pki.caFile), ...(agent ? { agent } : { agent: false }) }, (res) => {
      const socket = res.socket as tls.TLSSocket;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, serial: socket.getPeerCertificate().serialNumber, socket }));
    });
    req.on('error', reject);
  });
}

/** The serial number of the certificate a new TLS connection to `port` is shown. */
function peerSerial(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', ca: readFileSync(pki.caFile) }, () => {
      const serial = socket.getPeerCertificate().serialNumber;
      socket.end();
      resolve(serial);
    });
    socket.on('error', reject);
  });
}

function directives(csp: unknown): string[] {
  return String(csp)
    .split(';')
    .map((d) => d.trim());
}

function cookieOf(res: { headers: Record<string, unknown> }, name: string): string {
  const all = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
  return all.find((c) => c.startsWith(`${name}=`)) ?? '';
}

describe('security headers follow how the page is served', { timeout: 180_000 }, () => {
  it('over plain HTTP (any host name): a strict CSP without upgrade-insecure-requests, no HSTS, cookies without Secure', async () => {
    const t = await startTestApp('pglite');
    try {
      // A client that claims HTTPS is not believed without TRUST_PROXY.
      for (const headers of [{ host: 'liftlink.test:8080' }, { host: '192.168.1.20:8080', 'x-forwarded-proto': 'https' }]) {
        const res = await t.app.inject({ method: 'GET', url: '/auth/Hi', headers });
        expect(res.statusCode).toBe(200);
        expect(res.headers['strict-transport-security']).toBeUndefined();
        const csp = directives(res.headers['content-security-policy']);
        expect(csp).not.toContain('upgrade-insecure-requests');
        expect(csp).toContain("default-src 'self'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("object-src 'none'");
        // The live socket is allowed from whatever host the page came from (ws: over HTTP, wss: over HTTPS).
        expect(csp.find((d) => d.startsWith('connect-src'))?.split(' ')).toEqual(expect.arrayContaining(["'self'", 'ws:', 'wss:']));
        expect(cookieOf(res, 'XSRF-TOKEN')).not.toMatch(/;\s*Secure/i);
      }
      const login = await t.app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
      expect(login.statusCode).toBe(200);
      expect(cookieOf(login, TOKEN_COOKIE)).toMatch(/^Access-Token=/);
      expect(cookieOf(login, TOKEN_COOKIE)).not.toMatch(/;\s*Secure/i);
    } finally {
      await t.close();
    }
  });

  it('behind a proxy that says https (TRUST_PROXY=true, X-Forwarded-Proto): upgrade-insecure-requests, HSTS and Secure cookies', async () => {
    const t = await startTestApp('pglite', { TRUST_PROXY: 'true' });
    try {
      const plain = await t.app.inject({ method: 'GET', url: '/auth/Hi', headers: { 'x-forwarded-proto': 'http' } });
      expect(plain.headers['strict-transport-security']).toBeUndefined();
      expect(directives(plain.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');

      const proxied = await t.app.inject({ method: 'GET', url: '/auth/Hi', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' } });
      expect(proxied.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const csp = directives(proxied.headers['content-security-policy']);
      expect(csp).toContain('upgrade-insecure-requests');
      expect(csp).toContain("script-src 'self'");
      expect(cookieOf(proxied, 'XSRF-TOKEN')).toMatch(/;\s*Secure/i);

      const login = await t.app.inject({ method: 'POST', url: '/auth/access/login', headers: { 'x-forwarded-proto': 'https' }, payload: { username: 'admin', password: ADMIN_PASSWORD } });
      expect(login.statusCode).toBe(200);
      const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []);
      expect(cookies.length).toBeGreaterThan(0);
      for (const c of cookies) expect(c).toMatch(/;\s*Secure/i);
    } finally {
      await t.close();
    }
  });

  it('over direct TLS (TLS_CERT_FILE, TLS_KEY_FILE): HTTPS on PORT with HSTS, upgrade-insecure-requests and Secure cookies; https public address', async () => {
    const t = await startTestApp('pglite', tlsEnv(good));
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as { port: number }).port;
      const res = await httpsGet(port, '/auth/Hi');
      expect(res.status).toBe(200);
      expect(res.serial).toBe(good.serial);
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      expect(directives(res.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
      expect(cookieOf(res, 'XSRF-TOKEN')).toMatch(/;\s*Secure/i);
      expect(t.config.publicUrl).toBe(`https://localhost:${t.config.port}`);
      // Plain HTTP on the same port gets no page.
      const plain = await fetch(`http://127.0.0.1:${port}/auth/Hi`).then(
        (r) => r.status,
        () => 'refused',
      );
      expect(plain).not.toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('MQTT over TLS on the embedded broker', { timeout: 180_000 }, () => {
  let t: TestApp;
  let fleet: DemoLift[];
  let mqttsUrl: string;
  const open: MqttClient[] = [];
  let sim: ReturnType<typeof spawnSimulator> | undefined;

  beforeAll(async () => {
    t = await startTestApp('pglite', tlsEnv(good));
    fleet = await ensureDemoFleet(t.database.sql, 3);
    mqttsUrl = `mqtts://localhost:${t.app.brokerTlsPort}`;
  }, 180_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    await Promise.all(open.map((c) => c.endAsync(true).catch(() => {})));
    await t?.close();
  });

  it('lets a lift that pins the CA connect over mqtts and stores what it sends', async () => {
    const lift = fleet[2]!;
    const c = await connectLift(mqttsUrl, lift.deviceNo, lift.secret, { ca: readFileSync(pki.caFile) });
    open.push(c);
    expect((c.stream as tls.TLSSocket).getPeerCertificate().serialNumber).toBe(good.serial);
    await publishEvent(c, lift.deviceNo, 7_000_001, 'RZD1');
    const rows = await t.database.sql.query('select 1 from lift_events e join lifts l on l.id = e.lift_id where l.device_no = $1 and e.seq = $2', [lift.deviceNo, 7_000_001]);
    expect(rows).toHaveLength(1);
  });

  it('is refused by a client that does not trust the CA, or trusts another one', async () => {
    const lift = fleet[2]!;
    const other = createTestPki('Someone Else CA');
    try {
      for (const ca of [undefined, readFileSync(other.caFile)]) {
        const err = await connectLift(mqttsUrl, lift.deviceNo, lift.secret, ca ? { ca } : {}).then(
          (c) => (open.push(c), null),
          (e: Error) => e,
        );
        expect(err?.message).toMatch(/self[- ]signed|unable to (get|verify)/i);
      }
    } finally {
      other.remove();
    }
  });

  it('runs the simulator with --mqtt mqtts://… --ca FILE: its lifts come online', async () => {
    sim = spawnSimulator(fleet.slice(0, 2), mqttsUrl, () => {}, ['--ca', pki.caFile]);
    await sim.ready;
    const admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    const list = await until('simulated lifts online', async () => {
      const res = body(await admin.get('/auth/access/lift/get?sort=deviceNo')).result;
      return res.list.slice(0, 2).every((l: { online: boolean }) => l.online) && res.list;
    });
    expect(list.slice(0, 2).map((l: { deviceNo: string }) => l.deviceNo)).toEqual(['DEMO-0001', 'DEMO-0002']);
    const conn = brokerClients(t.app)['DEMO-0001']?.conn as tls.TLSSocket | undefined;
    expect(conn?.encrypted).toBe(true);
  });

  it('writes the mqtts address into the credentials issued at the factory bench', () => {
    expect(deviceBrokerUrl(t.app)).toBe(`mqtts://localhost:${t.app.brokerTlsPort}`);
  });
});

describe('the demo fleet with TLS on', { timeout: 180_000 }, () => {
  it('connects over mqtts, pinning the certificate file', async () => {
    const t = await startTestApp('pglite', { ...tlsEnv(good), SIMULATOR: '2' });
    try {
      await until('demo lifts on the TLS port', () => ['DEMO-0001', 'DEMO-0002'].every((no) => (brokerClients(t.app)[no]?.conn as tls.TLSSocket | undefined)?.encrypted === true), 60_000, 250);
    } finally {
      await t.close();
    }
  });
});

describe('the embedded broker without plain MQTT (MQTT_PLAIN=false)', { timeout: 180_000 }, () => {
  it('takes lifts over TLS only; the server itself still works', async () => {
    const port = await freePort();
    const t = await startTestApp('pglite', { ...tlsEnv(good), MQTT_PORT: String(port), MQTT_PLAIN: 'false' });
    try {
      const [lift] = await ensureDemoFleet(t.database.sql, 1);
      const plain = await connectLift(`mqtt://127.0.0.1:${port}`, lift!.deviceNo, lift!.secret).then(
        (c) => c.endAsync(),
        (e: Error) => e,
      );
      expect(plain).toBeInstanceOf(Error);
      const secure = await connectLift(`mqtts://localhost:${t.app.brokerTlsPort}`, lift!.deviceNo, lift!.secret, { ca: readFileSync(pki.caFile) });
      await secure.endAsync();
      expect(body(await t.app.inject({ method: 'GET', url: '/health' })).result).toEqual({ database: 'up', broker: 'up' });
    } finally {
      await t.close();
    }
    expect(() => loadConfig({ MQTT_PLAIN: 'false' })).toThrow(/^MQTT_PLAIN=false needs TLS_CERT_FILE/);
  });
});

describe('certificate renewal', { timeout: 180_000 }, () => {
  let dir: string;
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  const logs: { level: number; msg: string; err?: string }[] = [];
  let target: { certFile: string; keyFile: string };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-live-'));
    target = { certFile: path.join(dir, 'fullchain.pem'), keyFile: path.join(dir, 'privkey.pem') };
    copyFileSync(good.certFile, target.certFile);
    copyFileSync(good.keyFile, target.keyFile);
    const db = await freshDatabase('pglite');
    drop = db.drop;
    const config = loadConfig({ DATA_DIR: dir, HOST: '127.0.0.1', MQTT_PORT: '0', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, ...tlsEnv(target) });
    app = await buildApp({ config, database: db.database, logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as never) } } });
    await app.listen({ port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await drop?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a replaced certificate to new connections while lifts and open HTTP connections stay connected', async () => {
    const httpsPort = (app.server.address() as { port: number }).port;
    const mqttsPort = app.brokerTlsPort!;
    const [lift] = await ensureDemoFleet(app.database.sql, 1);
    const c = await connectLift(`mqtts://localhost:${mqttsPort}`, lift!.deviceNo, lift!.secret, { ca: readFileSync(pki.caFile) });
    let closes = 0;
    c.on('close', () => (closes += 1));
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await httpsGet(httpsPort, '/health', agent);
    expect(before.serial).toBe(good.serial);

    const renewed = pki.issue('renewed');
    pki.install(renewed, target);
    await until('new certificate on HTTPS', async () => (await peerSerial(httpsPort)) === renewed.serial, 20_000);
    expect(await peerSerial(mqttsPort)).toBe(renewed.serial);
    expect(logs.some((l) => l.msg === 'TLS certificate reloaded')).toBe(true);

    // The kept-alive HTTP connection is the same one, with the certificate it began with.
    const after = await httpsGet(httpsPort, '/health', agent);
    expect(after.status).toBe(200);
    expect(after.socket).toBe(before.socket);
    expect(after.serial).toBe(good.serial);
    agent.destroy();
    // The lift never left and its messages are still acknowledged.
    expect(c.connected).toBe(true);
    await publishEvent(c, lift!.deviceNo, 8_000_001);
    expect(await closedWithin(c, 500)).toBe(false);
    expect(closes).toBe(0);
    await c.endAsync();
  });

  it('keeps the certificate in use and logs an error when a renewal brings a bad file', async () => {
    const httpsPort = (app.server.address() as { port: number }).port;
    const inUse = await peerSerial(httpsPort);
    const stranger = pki.issue('stranger');
    const expired = pki.issue('expired-renewal', { expired: true });
    const cases: [string, () => void, RegExp][] = [
      ['a key of another certificate', () => pki.install({ ...stranger, keyFile: good.keyFile }, target), /^TLS_KEY_FILE: the key in .* does not belong/],
      ['an expired certificate', () => pki.install(expired, target), /^TLS_CERT_FILE: the certificate in .* expired on 2020-02-01/],
      ['a file that is not PEM', () => writeFileSync(target.certFile, 'not a certificate'), /^TLS_CERT_FILE: .* holds no PEM certificate/],
    ];
    for (const [what, install, message] of cases) {
      const errorsBefore = logs.filter((l) => l.level >= 50).length;
      install();
      const error = await until(`an error logged for ${what}`, () => logs.filter((l) => l.level >= 50).slice(errorsBefore).find((l) => message.test(l.err ?? '')), 20_000);
      expect(error.msg).toBe('TLS certificate not reloaded; the one in use stays');
      expect(await peerSerial(httpsPort)).toBe(inUse);
      expect(await peerSerial(app.brokerTlsPort!)).toBe(inUse);
    }
  });
});

function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0', MQTT_PORT: '0', SIMULATOR: '0', DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'll-tls-')), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('a certificate or key that cannot serve stops the start with one line naming the variable', { timeout: 180_000 }, () => {
  it.each([
    ['a missing certificate file', () => ({ TLS_CERT_FILE: path.join(pki.dir, 'nowhere.pem'), TLS_KEY_FILE: good.keyFile }), /^liftlink: TLS_CERT_FILE: cannot read .*nowhere\.pem \(no such file\)\.$/],
    ['an unreadable key (a folder)', () => ({ TLS_CERT_FILE: good.certFile, TLS_KEY_FILE: pki.dir }), /^liftlink: TLS_KEY_FILE: cannot read .* \(is a folder, not a file\)\.$/],
    ['a key that does not match the certificate', () => ({ TLS_CERT_FILE: good.certFile, TLS_KEY_FILE: pki.issue('other').keyFile }), /^liftlink: TLS_KEY_FILE: the key in .* does not belong to the certificate in TLS_CERT_FILE/],
    ['an expired certificate', () => tlsEnv(pki.issue('old', { expired: true })), /^liftlink: TLS_CERT_FILE: the certificate in .* expired on 2020-02-01T00:00:00\.000Z\.$/],
    ['a certificate file that holds a key', () => ({ TLS_CERT_FILE: good.keyFile, TLS_KEY_FILE: good.keyFile }), /^liftlink: TLS_CERT_FILE: .* holds no PEM certificate\.$/],
    ['a certificate without its key', () => ({ TLS_CERT_FILE: good.certFile }), /^liftlink: TLS_KEY_FILE is not set: TLS_CERT_FILE needs the key file that goes with it\.$/],
  ])('%s', async (_what, env, message) => {
    const res = await runMain(env());
    expect(res.code).toBe(1);
    expect(res.stderr.endsWith('\n')).toBe(true);
    const lines = res.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
  });
});

describe('a server process with TLS', { timeout: 180_000 }, () => {
  let child: ChildProcess | undefined;
  afterAll(() => void child?.kill('SIGKILL'));

  it('serves HTTPS on PORT and re-reads the files on SIGHUP without stopping', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'll-tls-proc-'));
    const live = path.join(dir, 'live');
    mkdirSync(live);
    const target = { certFile: path.join(live, 'cert.pem'), keyFile: path.join(live, 'key.pem') };
    pki.install(good, target);
    const port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      env: { ...process.env, LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: String(port), MQTT_PORT: '0', SIMULATOR: '0', DATA_DIR: dir, LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, ...tlsEnv(target) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    await until('server listening', () => out.includes('Server listening at https://127.0.0.1:'), 60_000, 250);
    expect((await httpsGet(port, '/health')).status).toBe(200);

    child.kill('SIGHUP');
    await until('SIGHUP seen', () => out.includes('SIGHUP: re-reading TLS_CERT_FILE and TLS_KEY_FILE'), 10_000);
    const renewed = pki.issue('renewed-by-acme');
    pki.install(renewed, target);
    child.kill('SIGHUP');
    await until('new certificate served', async () => (await peerSerial(port)) === renewed.serial, 20_000);
    expect(child.exitCode).toBeNull();
    expect((await httpsGet(port, '/health')).status).toBe(200);

    child.kill('SIGTERM');
    await once(child, 'exit');
    rmSync(dir, { recursive: true, force: true });
  });
});
