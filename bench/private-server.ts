import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { openPostgres, type SqlExecutor } from '../apps/server/src/db/client.ts';
import { createPrivateDatabase } from './private-database.ts';

const ADMIN_PASSWORD = 'Bench-Admin-Pass-1';

export interface PrivateServer {
  /** The server, measured through HTTP injection (routing, validation, SQL, serialisation; no network). */
  app: Awaited<ReturnType<typeof buildApp>>;
  /** The private database, for seeding. */
  sql: SqlExecutor;
  /** Headers of the built-in administrator, signed in. */
  adminHeaders: () => Promise<{ 'access-token': string }>;
  /** A progress line on stderr (stdout carries only the JSON figures). */
  log: (line: string) => void;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Runs `measure` against the server built on a private PostgreSQL database (named
 * `<prefix>_<time>`), then closes the server and drops the database (kept with BENCH_KEEP=1),
 * whether the bench finished or failed. `env` adds to or overrides the server's settings.
 */
export async function withPrivateServer(prefix: string, measure: (server: PrivateServer) => Promise<void>, env: Record<string, string> = {}): Promise<void> {
  const privateDatabase = await createPrivateDatabase(prefix, { log });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'll-bench-'));
  try {
    const database = await openPostgres(privateDatabase.url);
    try {
      // A heartbeat of 10 minutes: lifts seeded as seen within the last few minutes stay
      // online, so the silence sweep takes no lift offline (and writes nothing) while the
      // figures are measured.
      const app = await buildApp({
        config: loadConfig({ DATA_DIR: dataDir, MQTT_PORT: '0', HOST: '127.0.0.1', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'silent', HEARTBEAT_SECONDS: '600', ...env }),
        database,
        logger: false,
      });
      try {
        await app.ready();
        const adminHeaders = async () => {
          const login = await app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
          if (login.statusCode !== 200) throw new Error(`sign-in: ${login.body}`);
          return { 'access-token': login.json().result.token as string };
        };
        await measure({ app, sql: database.sql, adminHeaders, log });
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await privateDatabase.drop();
  }
}
