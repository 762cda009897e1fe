import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/test/support/ports.ts';
import { startServerProcess } from '../../apps/server/test/support/server-process.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ADMIN_PASSWORD = 'E2e-Admin-Pass-2026!';

/**
 * Builds the web client (unless LIFTLINK_E2E_NO_BUILD is set) and starts the real server:
 * free HTTP and MQTT ports, a temporary DATA_DIR (mails and texts land in DATA_DIR/outbox),
 * no simulated lifts. `TRUST_PROXY` lets each test act from its own address (X-Forwarded-For),
 * so the sign-in throttle and rate limit of one test never hit another.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const mqttPort = await freePort();
  if (!process.env.LIFTLINK_E2E_NO_BUILD) {
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: path.join(root, 'apps/web'),
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('web build failed');
  }
  const server = await startServerProcess(
    (_port, url) => ({
      MQTT_PORT: String(mqttPort),
      LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PUBLIC_URL: url,
      TRUST_PROXY: 'true',
      SMTP_URL: '',
      DATABASE_URL: '',
      MQTT_URL: '',
    }),
    { ready: async (url) => (await fetch(`${url}/auth/Hi`)).ok },
  );
  process.env.LIFTLINK_E2E_URL = server.url;
  process.env.LIFTLINK_E2E_DATA_DIR = server.dataDir;
  return () => server.stop();
}
