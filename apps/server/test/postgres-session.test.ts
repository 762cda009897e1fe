import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/client.ts';
import { createDatabase } from './support/postgres.ts';

const adminUrl = process.env.TEST_DATABASE_URL;

// PostgreSQL's JIT compiled ingest's availability booking on every status batch (665 of 670 ms
// for 100 lifts), so a fleet reporting its status every 5 s outran the server at 400 a second.
describe.skipIf(!adminUrl)('the server\'s PostgreSQL sessions', () => {
  let scratch: Awaited<ReturnType<typeof createDatabase>>;
  const opened: Database[] = [];
  beforeAll(async () => {
    scratch = await createDatabase(adminUrl!);
  });
  afterAll(async () => {
    for (const db of opened) await db.close();
    await scratch?.drop();
  });
  const open = async (url: string) => {
    const db = await openPostgres(url);
    opened.push(db);
    return db;
  };
  const setting = async (db: Database, name: string, inTransaction = false) => {
    const read = (q: Pick<Database['sql'], 'query'>) => q.query<{ setting: string }>(`select current_setting($1) as setting`, [name]);
    const rows = inTransaction ? await db.sql.transaction((tx) => read(tx)) : await read(db.sql);
    return rows[0]!.setting;
  };

  it('run without JIT, in and out of transactions', async () => {
    const db = await open(scratch.url);
    expect(await setting(db, 'jit')).toBe('off');
    expect(await setting(db, 'jit', true)).toBe('off');
  });

  it('keep the session options an operator put in DATABASE_URL', async () => {
    const url = new URL(scratch.url);
    url.searchParams.set('options', '-c statement_timeout=12345 -c application_name=liftlink-eu');
    const db = await open(url.toString());
    expect(await setting(db, 'statement_timeout')).toBe('12345ms');
    expect(await setting(db, 'application_name')).toBe('liftlink-eu');
    expect(await setting(db, 'jit')).toBe('off');
  });
});
