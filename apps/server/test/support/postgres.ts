import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports.ts';

function pgBin(name: string): string | null {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const file = path.join(root, v, 'bin', name);
      if (existsSync(file)) return file;
    }
  }
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** Why a private PostgreSQL cluster cannot run here, or null. */
export const privatePostgresMissing: string | null = pgBin('initdb') && pgBin('pg_ctl') ? null : 'initdb/pg_ctl not found (.ci/run installs postgresql)';

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): Promise<void>;
  /** A fast shutdown: sessions are cut, as in a real restart. */
  stop(): Promise<void>;
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of its own (initdb in a temporary folder, on a free port), for tests
 * that stop and start the database: the shared one on 5432 is never touched. As root,
 * PostgreSQL's tools run as the `postgres` user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const initdb = pgBin('initdb')!;
  const pgCtl = pgBin('pg_ctl')!;
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-pg-'));
  const data = path.join(dir, 'data');
  const run = (file: string, args: string[]) => (root ? execFileSync('runuser', ['-u', 'postgres', '--', file, ...args], { stdio: 'pipe' }) : execFileSync(file, args, { stdio: 'pipe' }));
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  run(initdb, ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;

  async function start(): Promise<void> {
    run(pgCtl, ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.end();
  }
  async function stop(): Promise<void> {
    run(pgCtl, ['-D', data, '-m', 'fast', '-w', 'stop']);
  }
  await start();
  return {
    url,
    port,
    start,
    stop,
    async destroy() {
      try {
        await stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new empty database on the shared server (TEST_DATABASE_URL) or on a private cluster; dropped by `drop`. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `liftlink_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
