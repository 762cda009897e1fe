import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/db/migrate.ts';
import type { Database } from '../src/db/client.ts';
import { postgresRateLimitStore } from '../src/plugins/rate-limit-store.ts';
import { freshDatabase } from './helpers.ts';
import { until } from './support/ports.ts';

/**
 * The shared request limit on PostgreSQL, as two server instances count one client: far
 * below the limit a request is answered without waiting for its count, and still the client
 * gets no more than the limit across both instances (docs/operations.md 7.1).
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the shared rate-limit count', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ database, drop } = await freshDatabase('postgres'));
    await migrate(database.sql);
  }, 60_000);
  afterAll(async () => drop?.());

  type Store = InstanceType<ReturnType<typeof postgresRateLimitStore>>;
  const incr = (store: Store, key: string, max: number) =>
    new Promise<{ err: Error | null; current?: number }>((resolve) => store.incr(key, (err, res) => resolve({ err, current: res?.current }), 60_000, max));
  const storedHits = async (key: string) =>
    Number((await database.sql.query<{ hits: number }>(`select hits from rate_limit_hits where key = $1`, [key]))[0]?.hits ?? 0);

  it('lets a client make no more requests than the limit across two instances, and counts every one', async () => {
    // Each instance has its own store and knows only what the database told it.
    const [one, two] = [new (postgresRateLimitStore(database.sql, 40))(), new (postgresRateLimitStore(database.sql, 40))()];
    const allowed: boolean[] = [];
    // One after the other, as a client's page makes them; a quick pair on both instances too.
    for (let i = 0; i < 30; i++) {
      for (const r of await Promise.all([incr(one, 'client-a', 40), incr(two, 'client-a', 40)])) {
        expect(r.err).toBeNull();
        allowed.push(r.current! <= 40);
      }
    }
    expect(allowed.filter(Boolean).length).toBe(40);
    expect(allowed.slice(-10)).toEqual(Array(10).fill(false));
    // The requests answered before their count are counted all the same.
    await until('every request counted', async () => (await storedHits('client-a')) === 60, 5_000, 20);
  });

  it('answers a request far below the limit while its count waits on the database, and counts it after', async () => {
    const Store = postgresRateLimitStore(database.sql, 100);
    const store = new Store();
    expect((await incr(store, 'client-b', 100)).current).toBe(1);
    // Another session holds the client's row: its count cannot be written until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.sql.transaction(async (tx) => {
      await tx.query(`select 1 from rate_limit_hits where key = 'client-b' for update`);
      locked();
      await held;
    });
    await isLocked;
    try {
      // Answered from what the instance knows, not after the store's timeout with an error.
      expect(await incr(store, 'client-b', 100)).toEqual({ err: null, current: 2 });
      expect(await storedHits('client-b')).toBe(1);
    } finally {
      release();
      await holder;
    }
    await until('the held count written', async () => (await storedHits('client-b')) === 2, 5_000, 20);
    // Near the limit each request waits for its count again: a first request of a client does too.
    const strict = new (postgresRateLimitStore(database.sql, 2))();
    expect((await incr(strict, 'client-c', 2)).current).toBe(1);
    expect((await incr(strict, 'client-c', 2)).current).toBe(2);
    expect((await incr(strict, 'client-c', 2)).current).toBe(3);
  });
});
