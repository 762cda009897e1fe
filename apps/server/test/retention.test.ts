import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { migrate, migrationNames } from '../src/db/migrate.ts';
import { storeBatch, type UplinkMessage } from '../src/modules/ingest/store.ts';
import {
  ensureRunLogPartitions,
  PARTITIONS_AHEAD,
  runLogPartitions,
  runLogRetention,
} from '../src/modules/jobs/retention.ts';
import { DB_KINDS, freshDatabase, startTestApp, type TestApp } from './helpers.ts';

const MIGRATIONS = path.join(import.meta.dirname, '../src/db/migrations');
const PARTITIONING = '0011_run_log_partitions.sql';
const DAY = 86_400_000;

/** Applies the migrations before 0011 only, as an installation of the previous version had. */
async function migrateBeforePartitions(database: Database): Promise<void> {
  await database.sql.exec(
    `create table schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
  );
  for (const name of migrationNames().filter((n) => n < PARTITIONING)) {
    await database.sql.transaction(async (tx) => {
      await tx.exec(readFileSync(path.join(MIGRATIONS, name), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
    });
  }
}

async function addLifts(database: Database, count: number): Promise<string[]> {
  const [org] = await database.sql.query<{ id: string }>(
    `insert into organizations (name, kind) values ('Maker', 'manufacturer') returning id`,
  );
  const rows = await database.sql.query<{ id: string }>(
    `insert into lifts (device_no, kind, floors, manufacturer_org_id) select 'RET-' || lpad(i::text, 4, '0'), 'inclinedStraightRack', 2, $1 from generate_series(1, $2) as i returning id`,
    [org!.id, count],
  );
  return rows.map((r) => r.id);
}

/** Run-log entries for each lift at the given times (seq and ordinal continue the lift's). */
async function addEntries(database: Database, liftIds: string[], times: Date[]): Promise<void> {
  for (const liftId of liftIds) {
    const [last] = await database.sql.query<{ n: string }>(
      'select events_total as n from lifts where id = $1',
      [liftId],
    );
    const from = Number(last!.n);
    await database.sql.query(
      `insert into lift_events (lift_id, seq, n, ts, code, fault, floor)
       select $1, 1000 + $2 + k, $2 + k, t, case when k % 7 = 0 then 'E1' else 'RZGU' end, k % 7 = 0, 1 from unnest($3::timestamptz[]) with ordinality as x(t, k)`,
      [liftId, from, times.map((t) => t.toISOString())],
    );
    // The counters ingest keeps beside the log.
    await database.sql.query(
      'update lifts set events_total = $2, faults_total = (select count(*) from lift_events where lift_id = $1 and fault) where id = $1',
      [liftId, from + times.length],
    );
  }
}

const count = async (database: Database, where = 'true', params: unknown[] = []) =>
  Number(
    (
      await database.sql.query<{ n: string }>(
        `select count(*) as n from lift_events where ${where}`,
        params,
      )
    )[0]!.n,
  );

const monthStart = (at: Date, k = 0) =>
  new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));

describe.each(DB_KINDS)('run-log partitions and retention on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  let lifts: string[];
  const now = new Date();
  // Every 5 days over the last 15 months, one entry per lift; a lift whose clock was far
  // off (1975) and one far ahead (2100) as well.
  const times = Array.from(
    { length: 92 },
    (_, i) => new Date(now.getTime() - i * 5 * DAY - 3_600_000),
  );
  const odd = [new Date('1975-06-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z')];
  let idsBefore: string[];

  /** A database of the previous version with three lifts' entries, upgraded: 0011 (and any later migration) on a database with rows. */
  async function upgraded() {
    const fresh = await freshDatabase(kind);
    await migrateBeforePartitions(fresh.database);
    const liftIds = await addLifts(fresh.database, 3);
    await addEntries(fresh.database, liftIds, [...times, ...odd]);
    const ids = (
      await fresh.database.sql.query<{ id: string }>('select id from lift_events order by id')
    ).map((r) => r.id);
    expect(ids).toHaveLength(3 * (times.length + 2));
    expect(await migrate(fresh.database.sql)).toContain(PARTITIONING);
    return { ...fresh, lifts: liftIds, idsBefore: ids };
  }

  beforeAll(async () => {
    ({ database, drop, lifts, idsBefore } = await upgraded());
  }, 300_000);
  afterAll(async () => drop?.());

  it('the migration keeps every entry with its id, in a partition of its month', async () => {
    // The migrated entries: other tests add entries, all with ids after these.
    const last = Math.max(...idsBefore.map(Number));
    const idsAfter = (
      await database.sql.query<{ id: string }>('select id from lift_events where id <= $1 order by id', [last])
    ).map((r) => r.id);
    expect(idsAfter).toEqual(idsBefore);
    const [kindRow] = await database.sql.query<{ relkind: string }>(
      `select relkind from pg_class where oid = 'lift_events'::regclass`,
    );
    expect(kindRow!.relkind).toBe('p');
    // Each entry of the last 15 months sits in its month's partition; 1975 and 2100 in the default one.
    const misplaced = await database.sql.query(
      `select tableoid::regclass::text as part, ts from lift_events
        where id <= $1 and tableoid::regclass::text <> case when ts < now() - interval '10 years' or ts > now() + interval '3 months' then 'lift_events_default'
                                                else 'lift_events_' || to_char(ts at time zone 'UTC', 'YYYY_MM') end`,
      [last],
    );
    expect(misplaced).toEqual([]);
    const parts = (await runLogPartitions(database.sql)).map((p) => p.from.toISOString());
    for (let k = 0; k <= PARTITIONS_AHEAD; k++)
      expect(parts).toContain(monthStart(now, k).toISOString());
  });

  it('keeps ingest exactly-once after the migration, with new ids after the old ones', async () => {
    const [lift] = await database.sql.query<{ device_no: string }>(
      'select device_no from lifts where id = $1',
      [lifts[0]],
    );
    expect(lift).toBeDefined();
    const msg: UplinkMessage = {
      kind: 'event',
      liftId: lifts[0]!,
      message: { seq: 9_000_000, ts: new Date().toISOString(), code: 'RZGD', floor: 1 },
    };
    const fresh: UplinkMessage = {
      kind: 'event',
      liftId: lifts[0]!,
      message: { seq: 9_000_001, ts: new Date().toISOString(), code: 'RZGU', floor: 2 },
    };
    await database.sql.transaction((tx) => storeBatch(tx, [msg]));
    // A redelivery alone, and a redelivery in one batch with a new message.
    await database.sql.transaction((tx) => storeBatch(tx, [msg]));
    await database.sql.transaction((tx) => storeBatch(tx, [msg, fresh, msg]));
    const rows = await database.sql.query<{ id: string; seq: string; n: string }>(
      'select id, seq, n from lift_events where lift_id = $1 and seq >= 9000000 order by seq',
      [lifts[0]],
    );
    expect(rows.map((r) => Number(r.seq))).toEqual([9_000_000, 9_000_001]);
    // Ordinals continue the lift's without a gap (the lift was offline, so its first message
    // brings it online: that entry comes first); ids come after every migrated one.
    const total = times.length + odd.length;
    const online = await database.sql.query<{ n: string; reason: string }>(
      `select n, reason from lift_events where lift_id = $1 and code = 'ONLINE'`,
      [lifts[0]],
    );
    expect(online.map((r) => [Number(r.n), r.reason])).toEqual([[total + 1, 'messageReceived']]);
    expect(rows.map((r) => Number(r.n))).toEqual([total + 2, total + 3]);
    expect(Number(rows[0]!.id)).toBeGreaterThan(Math.max(...idsBefore.map(Number)));
    const [l] = await database.sql.query<{ events_total: string }>(
      'select events_total from lifts where id = $1',
      [lifts[0]],
    );
    expect(Number(l!.events_total)).toBe(total + 3);
  });

  it('creates the partitions ahead and moves early entries out of the default partition', async () => {
    // An entry dated five months ahead waits in the default partition...
    const ahead = monthStart(now, 5);
    await addEntries(database, [lifts[1]!], [new Date(ahead.getTime() + 2 * DAY)]);
    const where = (part: string) =>
      [
        `tableoid = $1::regclass and ts >= $2 and ts < $3`,
        [part, ahead.toISOString(), monthStart(now, 6).toISOString()],
      ] as [string, unknown[]];
    expect(await count(database, ...where('lift_events_default'))).toBe(1);
    // ...until the server, four months on, creates that month's partition.
    expect(await ensureRunLogPartitions(database.sql, monthStart(now, 4))).toBeGreaterThanOrEqual(
      1,
    );
    const name = `lift_events_${ahead.toISOString().slice(0, 7).replace('-', '_')}`;
    expect(await count(database, ...where(name))).toBe(1);
    expect(await count(database, ...where('lift_events_default'))).toBe(0);
  });

  it('drops whole months older than the retention and keeps the recent ones', async () => {
    // A database of its own: the months it drops are no other test's to miss.
    const { database, drop, lifts } = await upgraded();
    try {
      const total = await count(database);
      const cutoff = new Date(now.getTime() - 400 * DAY);
      const gone = await count(database, 'ts < $1', [monthStart(cutoff).toISOString()]);
      const young = await count(database, 'ts >= $1', [cutoff.toISOString()]);
      expect(gone).toBeGreaterThan(3 * 5);
      const result = await runLogRetention(database.sql, 400, now);
      // Old months went as whole partitions (no row-by-row delete), the 1975 entries from the default one.
      expect(result.partitionsDropped).toBeGreaterThanOrEqual(1);
      expect(result.defaultRowsDeleted).toBe(3);
      expect(await count(database, 'ts < $1', [monthStart(cutoff).toISOString()])).toBe(0);
      expect(await count(database, 'ts >= $1', [cutoff.toISOString()])).toBe(young);
      // The month holding the cutoff stays whole until it has passed: kept at most a month longer.
      expect(await count(database)).toBe(total - gone);
      const parts = await runLogPartitions(database.sql);
      expect(parts.every((p) => p.to > cutoff)).toBe(true);
      // The far-future entries wait in the default partition.
      expect(await count(database, `ts >= '2100-01-01'`)).toBe(3);
      // Each lift's counters follow: the run log's page totals are what is left.
      const counters = await database.sql.query<{ kept: string; faults: string; entries: string; fault_entries: string }>(
        `select l.events_total - l.events_retired as kept, l.faults_total as faults,
                (select count(*) from lift_events e where e.lift_id = l.id) as entries,
                (select count(*) from lift_events e where e.lift_id = l.id and e.fault) as fault_entries
           from lifts l where l.id = any($1::uuid[]) order by l.id`,
        [lifts],
      );
      expect(counters.map((c) => [Number(c.kept), Number(c.faults)])).toEqual(counters.map((c) => [Number(c.entries), Number(c.fault_entries)]));
      // A second run finds nothing more to do.
      expect(await runLogRetention(database.sql, 400, now)).toMatchObject({
        partitionsDropped: 0,
        defaultRowsDeleted: 0,
      });
    } finally {
      await drop();
    }
  }, 300_000);
});

describe.each(DB_KINDS)('the retention job in the server on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { RUN_LOG_RETENTION_DAYS: '60' });
  }, 180_000);
  afterAll(async () => t?.close());

  it('runs through the job runner with RUN_LOG_RETENTION_DAYS', async () => {
    const lifts = await addLifts(t.database, 1);
    const now = new Date();
    await addEntries(t.database, lifts, [
      new Date(now.getTime() - 200 * DAY),
      new Date(now.getTime() - 100 * DAY),
      new Date(now.getTime() - DAY),
    ]);
    const result = await t.app.jobs.run('retention');
    expect(result).toMatchObject({ partitionsDropped: expect.any(Number) as number });
    expect(
      await count(t.database, 'lift_id = $1 and ts < $2', [
        lifts[0],
        monthStart(new Date(now.getTime() - 60 * DAY)).toISOString(),
      ]),
    ).toBe(0);
    expect(
      await count(t.database, 'lift_id = $1 and ts > $2', [
        lifts[0],
        new Date(now.getTime() - 2 * DAY).toISOString(),
      ]),
    ).toBe(1);
  });

  it.runIf(kind === 'postgres')(
    'runs on one instance at a time: another holding the job skips this run',
    async () => {
      const hold = t.database.sql.transaction(async (tx) => {
        await tx.query(`select pg_advisory_xact_lock(727275, hashtext('retention'))`);
        expect(await t.app.jobs.run('retention')).toBeNull();
      });
      await hold;
      expect(await t.app.jobs.run('retention')).not.toBeNull();
    },
  );
});
