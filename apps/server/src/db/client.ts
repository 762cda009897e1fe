import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Raw SQL for what an ORM does poorly: migrations, batched inserts, aggregates. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Omit<SqlExecutor, 'transaction'>) => Promise<T>): Promise<T>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlExecutor;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** PGlite in `dataDir/pg` (or in memory when dataDir is ':memory:'). */
export async function openPglite(dataDir: string): Promise<Database> {
  let client: PGlite;
  if (dataDir === ':memory:') client = new PGlite();
  else {
    const dir = path.join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  await client.waitReady;
  const sql: SqlExecutor = {
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    exec: async (text) => void (await client.exec(text)),
    transaction: (fn) =>
      client.transaction((tx) =>
        fn({
          query: async <T>(text: string, params?: unknown[]) => (await tx.query<T>(text, params)).rows,
          exec: async (text) => void (await tx.exec(text)),
        }),
      ),
  };
  return {
    kind: 'pglite',
    db: drizzlePglite({ client, schema }) as unknown as Db,
    sql,
    ping: async () => void (await client.query('select 1')),
    close: () => client.close(),
  };
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  const sql: SqlExecutor = {
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[],
    exec: async (text) => void (await pool.query(text)),
    transaction: async (fn) => {
      const client = await pool.connect();
      // A connection lost between two statements (database restart) is reported as an
      // 'error' event on the checked-out client; unheard, it would end the process. The
      // next statement fails and the transaction is retried by its caller.
      let broken: Error | undefined;
      const ignore = (err: Error) => (broken = err);
      client.on('error', ignore);
      try {
        await client.query('begin');
        const result = await fn({
          query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
          exec: async (text) => void (await client.query(text)),
        });
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.off('error', ignore);
        // A broken connection is closed rather than handed to the next caller.
        client.release(broken);
      }
    },
  };
  return {
    kind: 'postgres',
    db: drizzlePg({ client: pool, schema }) as unknown as Db,
    sql,
    ping: async () => void (await pool.query('select 1')),
    close: () => pool.end(),
  };
}
