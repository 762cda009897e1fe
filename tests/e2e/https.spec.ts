import { X509Certificate, createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import https from 'node:https';
import config from '../../playwright.config.ts';
import { freePort } from '../../apps/server/test/support/ports.ts';
import { startServerProcess, type ServerProcess } from '../../apps/server/test/support/server-process.ts';
import { createTestPki, type IssuedCertificate, type TestPki } from '../../apps/server/test/support/tls-certificates.ts';
import { test, expect, ADMIN, signIn } from './fixtures.ts';

/**
 * HTTPS straight from the server (TLS_CERT_FILE, TLS_KEY_FILE) with a certificate of a
 * private CA made for this test. A server process of its own; Chromium reaches it as
 * https://liftlink.test:<port> and accepts exactly that certificate (its public key is pinned
 * with --ignore-certificate-errors-spki-list, as a browser that trusts the CA would).
 */

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

let server: ServerProcess | undefined;
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
  const [mqttPort, mqttTlsPort] = [await freePort(), await freePort()];
  server = await startServerProcess(
    {
      MQTT_PORT: String(mqttPort),
      MQTT_TLS_PORT: String(mqttTlsPort),
      TLS_CERT_FILE: cert.certFile,
      TLS_KEY_FILE: cert.keyFile,
      LIFTLINK_ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: '',
      TRUST_PROXY: 'true',
      SMTP_URL: '',
      DATABASE_URL: '',
      MQTT_URL: '',
    },
    {
      url: (p) => {
        port = p;
        return `https://liftlink.test:${p}`;
      },
      ready: async () => (await get('/auth/Hi')) === 200,
    },
  );
});

test.afterAll(async () => {
  await server?.stop();
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
