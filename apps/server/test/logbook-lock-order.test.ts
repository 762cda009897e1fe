import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeAnswers, storeBatch, type UplinkMessage } from '../src/modules/ingest/store.ts';
import type { Tx } from '../src/modules/ingest/appliers/uplink.ts';
import { lockLogbookHeads } from '../src/modules/logbook/index.ts';
import { takeLease } from '../src/modules/control/lease-service.ts';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { until } from './support/ports.ts';

/**
 * A lift's logbook is a chain: an append locks the lift's head row until its transaction
 * ends, and a transaction that appends for several lifts must take their heads in the one
 * order every other locker takes them in (logbook/append.ts), or two such transactions can
 * each hold a head the other waits for. PostgreSQL then aborts one after its deadlock timeout
 * (a second) and its batch is stored again: a person waiting for a command's answer waits
 * that second. The lifts' batch appends for faults (an incident opens), configurations,
 * answers and firmware updates, one applier after another; the answers lane locks the heads
 * of the answering lifts at once, in order.
 * PostgreSQL only: PGlite is one session, where a transaction never waits for another.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('logbook heads of several lifts locked by the lifts\' batch and by the answers at once', () => {
  let t: TestApp;
  /** Three lifts in the heads' order. */
  let a: string, b: string, c: string;

  beforeAll(async () => {
    t = await startTestApp('postgres');
    [a, b, c] = (await ensureDemoFleet(t.database.sql, 3)).map((l) => l.id).sort() as [string, string, string];
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Another session's transaction that runs `hold` and stays open until released. */
  async function holdOpen(hold: (tx: Tx) => Promise<unknown>): Promise<{ release: () => Promise<void> }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.database.sql.transaction(async (tx) => {
      await hold(tx);
      locked();
      await held;
    });
    await isLocked;
    return { release: async () => (release(), await holder) };
  }

  /** How many sessions wait for a row lock now. */
  async function waitingForLocks(): Promise<number> {
    const [row] = await t.database.sql.query<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return row!.n;
  }

  /** A command sent to the lift and not answered yet. */
  async function sentCommand(liftId: string): Promise<string> {
    const id = randomUUID();
    await t.database.sql.query(
      `insert into lift_commands (id, lift_id, kind, name, args, state, expires_at) values ($1, $2, 'cmd', 'stop', '{}'::jsonb, 'sent', now() + interval '1 minute')`,
      [id, liftId],
    );
    return id;
  }

  const entry = (liftId: string, seq: number, code: string): UplinkMessage => ({ kind: 'event', liftId, message: { seq, ts: new Date().toISOString(), code } as never });
  const done = (liftId: string, commandId: string): UplinkMessage => ({ kind: 'cmd/ack', liftId, message: { seq: 1, ts: new Date().toISOString(), commandId, state: 'done' } as never });
  const logbookKinds = async (liftId: string) =>
    (await t.database.sql.query<{ kind: string }>(`select kind from lift_logbook where lift_id = $1 order by seq`, [liftId])).map((r) => r.kind);

  /**
   * The lifts' batch and the answers of lifts A and C at once. Another transaction holds
   * something the batch needs (`hold`), so the batch stops there with what it locked before,
   * while the answers lock A's head and then C's; then the other transaction ends.
   */
  async function batchAndAnswersAtOnce(hold: (tx: Tx) => Promise<unknown>, batch: UplinkMessage[]): Promise<{ failures: string[]; commands: string[] }> {
    // The two answering lifts were heard just now: their answers go the answers lane's short way.
    await t.database.sql.query(`update lifts set online = true, online_since = now(), last_seen_at = now() where id = any($1::uuid[])`, [[a, c]]);
    const commandA = await sentCommand(a);
    const commandC = await sentCommand(c);
    const other = await holdOpen(hold);
    const failures: unknown[] = [];
    const work: Promise<void>[] = [];
    try {
      work.push(t.database.sql.transaction((tx) => storeBatch(tx, batch)).then(() => {}, (err: unknown) => void failures.push(err)));
      await until('the lifts\' batch waits for the other transaction', async () => (await waitingForLocks()) === 1, 10_000);
      work.push(t.database.sql.transaction((tx) => storeAnswers(tx, [done(a, commandA), done(c, commandC)], 60)).then(() => {}, (err: unknown) => void failures.push(err)));
      await until('the answers wait for a head', async () => (await waitingForLocks()) === 2, 10_000);
    } finally {
      await other.release();
      await Promise.all(work);
    }
    const states = await t.database.sql.query<{ state: string }>(`select state from lift_commands where id = any($1::text[])`, [[commandA, commandC]]);
    return { failures: failures.map((err) => (err instanceof Error ? err.message : String(err))), commands: states.map((s) => s.state) };
  }

  it('stores a batch opening incidents on three lifts and the answers of two of them without a deadlock', async () => {
    // A fault of each lift, C's first: each opens an incident, appended to the lift's logbook; the
    // batch waits at B's head, which the other transaction holds.
    const run = await batchAndAnswersAtOnce((tx) => lockLogbookHeads(tx, [b]), [entry(c, 101, 'EC'), entry(b, 102, 'EC'), entry(a, 103, 'EC')]);
    // Neither transaction was aborted (PostgreSQL's "deadlock detected", then a retry a second later).
    expect(run).toEqual({ failures: [], commands: ['done', 'done'] });
    expect(await logbookKinds(a)).toEqual(['incident', 'command']);
    expect(await logbookKinds(b)).toEqual(['incident']);
    expect(await logbookKinds(c)).toEqual(['incident', 'command']);
  }, 60_000);

  it('the same when use on site ends a lift\'s remote-control lease in the batch', async () => {
    const [admin] = await t.database.sql.query<{ id: string; username: string }>(`select id, username from users where username = 'admin'`);
    await takeLease(t.app, { userId: admin!.id, username: admin!.username, ip: null }, a, false);
    // C reports a new fault; a call on lift A's platform ends its lease, and the batch waits at
    // the lease's row, which the other transaction holds.
    const run = await batchAndAnswersAtOnce((tx) => tx.query(`select 1 from lift_leases where lift_id = $1 for update`, [a]), [entry(c, 201, 'EA'), entry(a, 202, 'RZM1')]);
    expect(run).toEqual({ failures: [], commands: ['done', 'done'] });
    expect((await logbookKinds(a)).slice(-3)).toEqual(['lease', 'lease', 'command']);
  }, 60_000);
});
