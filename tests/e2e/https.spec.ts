import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import config from '../../playwright.config.ts';
import { freePort, until } from '../../apps/server/test/support/ports.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../apps/server/test/support/tls-certificates.ts';
import { test, expect, ADMIN, signIn } from './fixtures.ts';

/**
 * HTTPS straight from the server (TLS_CERT_FILE, TLS_KEY_FILE) with a certificate of a
 * private CA made for this test. A server process of its own; Chromium reaches it as
 * https://liftlink.test:<port> and accepts exactly that certificate (its public key is pinned
 * with --ignore-certificate-errors-spki-list, as a browser that trusts the CA would).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The test CA and the server's certificate, made once per worker when first needed (not when the file is listed). */
let made: { pki: TestPki; cert: IssuedCertificate; spki: string } | undefined;
function certificates(): NonNullable<typeof made> {
  if (!made) {
    const pki = createTestPki();
    const cert = pki.issue('e2e-https');
    const spki = createHash('sha256')
      .update(new X509Certificate(readFileSync(cert.certFile)).publicKey.export({ type: 'spki', format: 'der' }))
      .digest('base64');
    made = { pki, cert, spki };
  }
  return made;
}

let child: ChildProcess | undefined;
let dataDir: string | undefined;
let port = 0;

test.use({
  launchOptions: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) =>
      use({
        ...config.use?.launchOptions,
        args: [...(config.use?.launchOptions?.args ?? []), '--host-resolver-rules=MAP liftlink.test 127.0.0.1', `--ignore-certificate-errors-spki-list=${certificates().spki}`],
      }),
    { scope: 'worker' },
  ],
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(`https://liftlink.test:${port}`),
});

/** GET over HTTPS trusting only the test CA. */
function get(route: string): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get({ host: '127.0.0.1', port, path: route, servername: 'liftlink.test', ca: readFileSync(certificates().pki.caFile), agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
      .on('error', reject);
  });
}

test.beforeAll(async () => {
  const { cert } = certificates();
  const [httpPort, mqttPort, mqttTlsPort] = [await freePort(), await freePort(), await freePort()];
  port = httpPort;
  dataDir = mkdtempSync(path.join(tmpdir(), 'liftlink-e2e-https-'));
  let output = '';
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      MQTT_TLS_PORT: String(mqttTlsPort),
      TLS_CERT_FILE: cert.certFile,
      TLS_KEY_FILE: cert.keyFile,
      SIMULATOR: '0',
      DATA_DIR: dataDir,
      LIFTLINK_ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: '',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'warn',
      SMTP_URL: '',
      DATABASE_URL: '',
      MQTT_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<never>((_, reject) => child!.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`))));
  await Promise.race([until('HTTPS server', async () => (await get('/auth/Hi')) === 200, 60_000, 250), exited]);
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  made?.pki.remove();
});

test('over HTTPS with the server certificate: HSTS, upgrade-insecure-requests, Secure cookies, wss live socket', async ({ page, baseURL }) => {
  const live = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/ws/live'));
  const response = await page.goto('/user/login');
  expect(response!.url()).toBe(`${baseURL}/user/login`);
  const headers = response!.headers();
  expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  expect(headers['content-security-policy']).toContain('upgrade-insecure-requests');
  const served = await response!.securityDetails();
  expect(served?.subjectName).toBe('liftlink.test');
  expect(served?.issuer).toBe('LiftLink Test CA');

  await signIn(page, ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(`${baseURL}/dashboard/workplace`);
  await expect(page.getByTestId('greeting')).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.length).toBeGreaterThan(0);
  for (const c of cookies) expect(c.secure, c.name).toBe(true);
  const socket = await live;
  expect(socket.url()).toBe(`wss://liftlink.test:${port}/ws/live`);
  expect(socket.isClosed()).toBe(false);
});
