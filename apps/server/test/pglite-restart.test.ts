import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';

/** `restart` of the embedded database (client.ts): a new PGlite thread on the same files, between two statements. */
describe('PGlite restart', () => {
  const dirs: string[] = [];
  const opened: Database[] = [];
  afterAll(async () => {
    for (const db of opened) await db.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  async function open(dataDir: string): Promise<Database> {
    const db = await openPglite(dataDir);
    opened.push(db);
    return db;
  }

  it('keeps every committed row, and statements sent meanwhile wait their turn', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-restart-'));
    dirs.push(dir);
    const db = await open(dir);
    await db.sql.exec('create table t (n int primary key)');
    await db.sql.transaction(async (tx) => {
      for (let n = 1; n <= 100; n++) await tx.query('insert into t values ($1)', [n]);
    });
    // A transaction queued before the restart ends before it; a query queued after runs on the new thread.
    const before = db.sql.transaction(async (tx) => {
      await tx.query('insert into t values (101)');
      return (await tx.query<{ count: number }>('select count(*)::int as count from t'))[0]!.count;
    });
    const restarted = db.restart!();
    const after = db.sql.query<{ count: number }>('select count(*)::int as count from t');
    expect(await before).toBe(101);
    await restarted;
    expect((await after)[0]!.count).toBe(101);
    // A failing statement is still answered as before, and the session goes on.
    await expect(db.sql.query('insert into t values (1)')).rejects.toMatchObject({ code: '23505' });
    await db.sql.query('insert into t values (102)');
    await db.restart!();
    expect(await db.sql.query<{ max: number }>('select max(n)::int as max from t')).toEqual([{ max: 102 }]);
  });

  it('leaves an in-memory database as it is', async () => {
    const db = await open(':memory:');
    await db.sql.exec('create table t (n int); insert into t values (7)');
    await db.restart!();
    expect(await db.sql.query('select n from t')).toEqual([{ n: 7 }]);
  });
});
