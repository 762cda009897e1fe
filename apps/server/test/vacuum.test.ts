import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { vacuumWhereNeeded } from '../src/modules/jobs/vacuum.ts';
import { DB_KINDS, startTestApp, type TestApp } from './helpers.ts';

const size = async (t: TestApp, table: string) => Number((await t.database.sql.query<{ bytes: string }>(`select pg_relation_size($1::regclass) as bytes`, [table]))[0]!.bytes);
const fill = (t: TestApp, round: number) =>
  t.database.sql.query(`insert into rate_limit_hits (key, hits, reset_at) select 'vacuum-test-' || $1::int || '-' || g, 1, now() from generate_series(1, 20000) g`, [round]);

describe('the embedded database vacuums itself', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite');
  }, 180_000);
  afterAll(async () => t?.close());

  it('gives the room of deleted rows back to new ones, and the planner learns the table size', async () => {
    const { sql } = t.database;
    await fill(t, 1);
    const full = await size(t, 'rate_limit_hits');
    await sql.query(`delete from rate_limit_hits where key like 'vacuum-test-%'`);

    const result = await t.app.jobs.run('vacuum');
    await fill(t, 2);
    // Without the vacuum the deleted rows' room is never marked free: the table doubles.
    expect(await size(t, 'rate_limit_hits')).toBeLessThanOrEqual(full * 1.1);
    expect(result!.vacuumed).toBeGreaterThanOrEqual(1);

    await sql.query(`delete from rate_limit_hits where key like 'vacuum-test-1-%'`);
    await t.app.jobs.run('vacuum');
    const [stats] = await sql.query<{ reltuples: number; dead: string }>(
      `select c.reltuples, s.n_dead_tup as dead from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'rate_limit_hits'`,
    );
    expect(Number(stats!.dead)).toBe(0);
    expect(stats!.reltuples).toBeGreaterThanOrEqual(20000);
  });

  it('goes on with the other tables when one it listed is dropped before its turn (retention dropping a month)', async () => {
    const { sql } = t.database;
    // two tables with dead rows; the first in the list (most dead rows) is dropped once the list is read
    await sql.exec(`create table vacuum_test_gone (n int); insert into vacuum_test_gone select generate_series(1, 30000); delete from vacuum_test_gone;
                    create table vacuum_test_kept (n int); insert into vacuum_test_kept select generate_series(1, 10000); delete from vacuum_test_kept;`);
    let listed = false;
    const droppingAfterTheList = {
      ...sql,
      query: async <T,>(text: string, params?: unknown[]) => {
        const rows = await sql.query<T>(text, params);
        if (text.includes('pg_stat_user_tables') && !listed) {
          listed = true;
          await sql.exec('drop table vacuum_test_gone');
        }
        return rows;
      },
    };
    const result = await vacuumWhereNeeded(droppingAfterTheList);
    expect(listed).toBe(true);
    expect(result.vacuumed).toBeGreaterThanOrEqual(1);
    const [kept] = await sql.query<{ vacuums: string }>(`select vacuum_count as vacuums from pg_stat_user_tables where relname = 'vacuum_test_kept'`);
    expect(Number(kept!.vacuums)).toBe(1);
    await sql.exec('drop table vacuum_test_kept');
  });

  it('leaves a table with few changes alone', async () => {
    await t.app.jobs.run('vacuum');
    await t.database.sql.query(`insert into rate_limit_hits (key, hits, reset_at) values ('vacuum-test-one', 1, now())`);
    await t.database.sql.query(`delete from rate_limit_hits where key = 'vacuum-test-one'`);
    const [before] = await t.database.sql.query<{ vacuums: string }>(`select vacuum_count as vacuums from pg_stat_user_tables where relname = 'rate_limit_hits'`);
    await t.app.jobs.run('vacuum');
    const [after] = await t.database.sql.query<{ vacuums: string }>(`select vacuum_count as vacuums from pg_stat_user_tables where relname = 'rate_limit_hits'`);
    expect(after!.vacuums).toBe(before!.vacuums);
  });
});

describe.each(DB_KINDS.filter((kind) => kind === 'postgres'))('on %s', (kind) => {
  it('leaves vacuuming to PostgreSQL\'s own autovacuum', async () => {
    const t = await startTestApp(kind);
    try {
      expect(t.app.jobs.names()).not.toContain('vacuum');
    } finally {
      await t.close();
    }
  }, 180_000);
});
