import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';

/**
 * The embedded database's one session (client.ts): statements are handed to the PGlite
 * thread in turn, and a transaction keeps the turn between its own statements.
 */
describe('PGlite session', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openPglite(':memory:');
    await db.sql.exec(
      'create table t (n int primary key, at timestamptz not null default clock_timestamp())',
    );
  });
  afterAll(() => db.close());

  it('runs the statements queued while the server thread is busy, instead of waiting for it to take each answer', async () => {
    await db.sql.exec('truncate t');
    const inserts = Array.from({ length: 20 }, (_, i) =>
      db.sql.query('insert into t (n) values ($1)', [i + 1]),
    );
    // Then the server's thread busy with other work (a burst of lift messages, say) for half a second.
    await new Promise((r) => setImmediate(r));
    const busyUntil = Date.now() + 500;
    while (Date.now() < busyUntil);
    const busyEnded = new Date();
    await Promise.all(inserts);
    const rows = await db.sql.query<{ n: number; at: Date }>('select n, at from t order by n');
    expect(rows.map((r) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // Every one was stored while the thread was busy: none waited for it to pass the last answer on.
    expect(rows.filter((r) => new Date(r.at) > busyEnded)).toEqual([]);
  });

  it('keeps the statements of other callers out of an open transaction, and rolls back only the transaction', async () => {
    await db.sql.exec('truncate t');
    const failing = db.sql.transaction(async (tx) => {
      await tx.query('insert into t (n) values (1)');
      // Another caller's statement is queued meanwhile.
      await new Promise((r) => setTimeout(r, 50));
      await tx.query('insert into t (n) values (2)');
      throw new Error('the batch went wrong');
    });
    const outside = db.sql.query('insert into t (n) values (3)');
    await expect(failing).rejects.toThrow('the batch went wrong');
    await outside;
    expect(
      (await db.sql.query<{ n: number }>('select n from t order by n')).map((r) => r.n),
    ).toEqual([3]);
  });

  it('answers a transaction only after its commit, with what it returned, and reports a refused commit', async () => {
    await db.sql.exec('truncate t');
    const returned = await db.sql.transaction(
      async (tx) =>
        (await tx.query<{ n: number }>('insert into t (n) values (1) returning n'))[0]!.n,
    );
    expect(returned).toBe(1);
    expect(await db.sql.query('select n from t')).toHaveLength(1);
    // A deferred check fails at the commit: the caller hears of it, and nothing of the transaction stays.
    await db.sql.exec(
      'create table d (n int, constraint d_n unique (n) deferrable initially deferred)',
    );
    await expect(
      db.sql.transaction(async (tx) => {
        await tx.query('insert into d values (1), (1)');
        await tx.query('insert into t (n) values (2)');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(
      (await db.sql.query<{ n: number }>('select n from t order by n')).map((r) => r.n),
    ).toEqual([1]);
    // The session goes on.
    await db.sql.transaction((tx) => tx.query('insert into t (n) values (4)'));
    expect(
      (await db.sql.query<{ n: number }>('select n from t order by n')).map((r) => r.n),
    ).toEqual([1, 4]);
  });
});
