import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { CSRF_COOKIE } from '@liftlink/protocol';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { openPglite, openPostgres, type Database } from '../src/db/client.ts';
import type { Mail } from '../src/plugins/messaging.ts';
import { createDatabase } from './support/postgres.ts';
import { ADMIN_PASSWORD } from './support/server-process.ts';
import { skipWithout } from './support/required.ts';

/**
 * The database kinds every integration test runs on: PGlite always, PostgreSQL when
 * TEST_DATABASE_URL is set (`.ci/run` sets it, so CI always runs both; under CI=true its
 * absence fails the run instead of leaving PostgreSQL untested).
 */
export const DB_KINDS: ('pglite' | 'postgres')[] = skipWithout('PostgreSQL', process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set') ? ['pglite'] : ['pglite', 'postgres'];

export { ADMIN_PASSWORD };

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the image of an embedded database with every migration applied (test/support/pglite-template.ts). */
    pgliteImage: string;
  }
}

/** The migrated embedded database's image (test/support/pglite-template.ts), read once per test file; none outside a test run. */
let pgliteImage: Uint8Array | null | undefined;
function migratedImage(): Uint8Array | undefined {
  if (pgliteImage === undefined) {
    const file = process.env.VITEST ? inject('pgliteImage') : undefined;
    pgliteImage = file ? readFileSync(file) : null;
  }
  return pgliteImage ?? undefined;
}

/** PGlite in memory, empty or started from `image`; closed at drop. */
async function inMemory(image?: Uint8Array): Promise<{ database: Database; drop: () => Promise<void> }> {
  const database = await openPglite(':memory:', { image });
  return { database, drop: () => database.close() };
}

/** A fresh, empty database: PGlite in memory, or a new PostgreSQL database dropped at close. */
export async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (kind === 'pglite') return inMemory();
  const { url, drop } = await createDatabase(process.env.TEST_DATABASE_URL!);
  const database = await openPostgres(url);
  return {
    database,
    drop: async () => {
      await database.close();
      await drop();
    },
  };
}

/** A fresh database for an app, which migrates it anyway: PGlite starts from the test run's migrated image. */
function freshAppDatabase(kind: 'pglite' | 'postgres'): ReturnType<typeof freshDatabase> {
  return kind === 'pglite' ? inMemory(migratedImage()) : freshDatabase(kind);
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  mails: Mail[];
  sms: { mobile: string; text: string }[];
  dataDir: string;
  close: () => Promise<void>;
}

export async function startTestApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-test-'));
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', MQTT_PORT: '0', METRICS_PORT: '0', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'silent', ...env });
  const { database, drop } = await freshAppDatabase(kind);
  const mails: Mail[] = [];
  const sms: { mobile: string; text: string }[] = [];
  const app = await buildApp({
    config,
    database,
    logger: false,
    mailer: { send: async (m) => void mails.push(m) },
    sms: { send: async (mobile, text) => void sms.push({ mobile, text }) },
  });
  await app.ready();
  return {
    app,
    database,
    config,
    mails,
    sms,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function body<T = any>(res: LightMyRequestResponse): { success: boolean; code: string; msg: string; result: T } {
  return res.json();
}

export async function login(app: FastifyInstance, username: string, password: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/auth/access/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`login failed for ${username}: ${res.body}`);
  return body<{ token: string }>(res).result.token;
}

/** A small API client that signs requests with the Access-Token header. */
export function client(app: FastifyInstance, token?: string) {
  const headers = token ? { 'access-token': token } : {};
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload?: unknown) => app.inject({ method: 'POST', url, headers, payload: payload as object }),
  };
}

export async function roleId(db: Database, name: string): Promise<string> {
  const [row] = await db.sql.query<{ id: string }>('select id from roles where name = $1', [name]);
  return row!.id;
}

/** Creates a user with a built-in role and signs in; returns the token. */
export async function userWithRole(t: TestApp, adminToken: string, role: string, username = `${role}-${Math.random().toString(36).slice(2, 7)}`, orgId?: string): Promise<{ id: string; token: string; username: string; password: string }> {
  const password = 'Strong-Pass-' + Math.random().toString(36).slice(2, 8);
  const res = await client(t.app, adminToken).post('/auth/access/system/users/create', { username, name: username, password, roleId: await roleId(t.database, role), ...(orgId ? { orgId } : {}) });
  if (res.statusCode !== 200) throw new Error(res.body);
  const id = body<{ id: string }>(res).result.id;
  return { id, token: await login(t.app, username, password), username, password };
}

export { CSRF_COOKIE };
