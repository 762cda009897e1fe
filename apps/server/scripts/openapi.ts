import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/client.ts';
import { openApiText } from '../src/lib/openapi.ts';

/**
 * Writes docs/openapi.json from the route schemas (the same document /docs serves).
 * `apps/server/test/openapi.test.ts` fails while the file differs from what the server generates.
 */
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-openapi-'));
const database = await openPglite(':memory:');
const app = await buildApp({
  config: loadConfig({ DATA_DIR: dataDir, MQTT_PORT: '0', HOST: '127.0.0.1', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: 'openapi-only-password', LOG_LEVEL: 'silent' }),
  database,
  logger: false,
});
await app.ready();
const out = path.resolve(import.meta.dirname, '../../../docs/openapi.json');
writeFileSync(out, openApiText(app));
await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(`wrote ${out}\n`);
