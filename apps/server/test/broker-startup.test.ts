import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { embeddedBrokerPort } from '../src/plugins/mqtt.ts';
import { ADMIN_PASSWORD, freshDatabase } from './helpers.ts';
import { provisionLifts } from './support/fleet.ts';
import { connectLift } from './support/lift-client.ts';

/**
 * A restart amid a fleet: the embedded broker listens before the server has finished
 * starting, and every lift reconnects at once. One that logs in that early must be checked
 * once every rule is in place and let in, never told "bad credentials" by a half-started
 * server (a lift waits 30-60 s after that, docs/protocol.md 1.1).
 */
describe('the embedded broker while the server starts', () => {
  it('checks a lift that logs in before the server is ready only once it is, and lets it in', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-boot-'));
    const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', MQTT_PORT: '0', METRICS_PORT: '0', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'silent' });
    const { database, drop } = await freshDatabase('pglite');
    const app = await buildApp({ config, database, logger: false });
    try {
      const [lift] = await provisionLifts(database.sql, 'BOOT', 1);
      // Watch (not change) the broker's login and the lift rules' check, to see their order.
      const seen: string[] = [];
      const broker = app.broker!;
      const login = broker.authenticate.bind(broker);
      let arrived: () => void = () => undefined;
      const loginArrived = new Promise<void>((resolve) => (arrived = resolve));
      broker.authenticate = (...args) => {
        seen.push('login arrived');
        arrived();
        login(...args);
      };
      const rules = app.brokerAccess;
      const check = rules.authenticateDevice.bind(rules);
      rules.authenticateDevice = (deviceNo, secret) => {
        seen.push('credentials checked');
        return check(deviceNo, secret);
      };

      const connecting = connectLift(`mqtt://127.0.0.1:${embeddedBrokerPort(app)}`, lift!.deviceNo, lift!.secret, { connectTimeout: 30_000 });
      await loginArrived;
      // Every plugin is registered; the start ends with the ready hooks.
      seen.push('server finishing its start');
      await app.ready();
      const client = await connecting;
      expect(client.connected).toBe(true);
      expect(seen).toEqual(['login arrived', 'server finishing its start', 'credentials checked']);
      await client.endAsync();
    } finally {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
