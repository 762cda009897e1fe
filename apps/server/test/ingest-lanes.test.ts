import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liftTopic } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { until } from './support/ports.ts';

/**
 * A person waits for a command's answer; nobody waits for a lift's periodic status. At
 * 20,000 lifts reporting every 5 s the batch in hand holds hundreds of statuses, and an
 * answer queued behind it waited for that batch and the next (docs/operations.md 7.1).
 * Answers are stored in a lane of their own. Shown here with the batch in hand held up
 * outright: another session holds the row of the lift whose run-log entry it stores.
 * PostgreSQL only: PGlite is one session, where a held transaction holds everything.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('a command answer while the lifts\' batch waits on the database', () => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator>;

  beforeAll(async () => {
    t = await startTestApp('postgres', { COMMAND_WAIT_MS: '8000', HEARTBEAT_SECONDS: '60' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 2);
    // Lift B is a simulated lift that answers its commands; lift A only has its row held.
    sim = spawnSimulator(fleet.slice(1), `mqtt://127.0.0.1:${t.app.mqtt.options.port}`, () => {}, ['--activity', '0']);
    await sim.ready;
    await until('lift B online', async () => {
      const [row] = await t.database.sql.query<{ online: boolean }>(`select online from lifts where id = $1`, [fleet[1]!.id]);
      return row?.online === true;
    }, 30_000);
  }, 90_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    await t?.close();
  });

  /** Another session's transaction that runs `statement` and stays open until released. */
  async function holdOpen(statement: string, params: unknown[]): Promise<{ release: () => Promise<void> }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const holder = t.database.sql.transaction(async (tx) => {
      await tx.query(statement, params);
      opened();
      await held;
    });
    await isOpen;
    return { release: async () => (release(), await holder) };
  }

  /** One run-log entry of the lift handed to ingest: `stored()` turns true once its batch has committed. */
  function sendEntry(lift: DemoLift, seq: number) {
    let stored = false;
    const done = t.app.ingest.handle(liftTopic(lift.deviceNo, 'event'), JSON.stringify({ seq, ts: new Date().toISOString(), code: 'RZGU' })).then(() => (stored = true));
    return {
      stored: () => stored,
      /** After it is stored: how many times the entry is in the run log. */
      count: async () => {
        await done;
        const [row] = await t.database.sql.query<{ n: number }>(`select count(*)::int as n from lift_events where lift_id = $1 and seq = $2`, [lift.id, seq]);
        return row!.n;
      },
    };
  }

  /**
   * Holds lift `held`'s row with `lock` while ingest has a run-log entry of it in hand, and
   * pauses lift `commanded`: the user gets the lift's answer while that entry's batch still
   * cannot commit (a 504 after the 8 s command wait otherwise), and the entry is stored once
   * the row is let go.
   */
  async function answeredWhileHeld(held: DemoLift, lock: string, commanded: DemoLift, seq: number, whenWaiting: () => Promise<unknown> = async () => {}) {
    const holder = await holdOpen(`select 1 from lifts where id = $1 ${lock}`, [held.id]);
    try {
      const entry = sendEntry(held, seq);
      await whenWaiting();
      const paused = await admin.post('/auth/access/lift/control', { liftId: commanded.id, command: 'pause', args: {} });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(['accepted', 'done']).toContain(body(paused).result.state);
      expect(entry.stored()).toBe(false);
      await holder.release();
      expect(await entry.count()).toBe(1);
    } finally {
      await holder.release();
    }
  }

  it('is stored and answers the user while the batch in hand cannot commit, and that batch is stored after', async () => {
    await answeredWhileHeld(fleet[0]!, 'for update', fleet[1]!, 7_000_001, () =>
      until('lift A\'s batch waiting for its row', async () => {
        const [row] = await t.database.sql.query<{ n: number }>(
          `select count(*)::int as n from pg_locks l join pg_stat_activity s on s.pid = l.pid where not l.granted and s.datname = current_database()`,
        );
        return row!.n > 0;
      }, 10_000),
    );
  }, 60_000);

  it('answers a command while the batch in hand holds the commanded lift\'s own row, and stores that batch after', async () => {
    // The lift's periodic status in the bulk batch holds its row (\`for no key update\`) for
    // the batch's length; an answer of a lift heard moments ago needs nothing of that row.
    const b = fleet[1]!;
    await until('lift B heard within the sweep period', async () => {
      const [row] = await t.database.sql.query<{ fresh: boolean }>(`select online and last_seen_at > now() - interval '15 seconds' as fresh from lifts where id = $1`, [b.id]);
      return row?.fresh === true;
    }, 20_000);
    await answeredWhileHeld(b, 'for no key update', b, 7_000_201);
  }, 60_000);

  it('stores a lift\'s messages while another transaction writes a row that refers to the lift', async () => {
    // A command's record, an alert, the condition job's scores: each insert referring to a lift
    // takes a key-share lock on its row until its transaction ends. Ingest changes no key of
    // the row, so it must not wait for them (and a job that writes for many lifts must not
    // deadlock with it: it did, at 20,000 lifts, stalling a batch for the deadlock timeout).
    const a = fleet[0]!;
    const writer = await holdOpen(`insert into lift_samples (lift_id, ts, voltage, load_value) values ($1, now() - interval '2 days', 24, 0)`, [a.id]);
    try {
      const entry = sendEntry(a, 7_000_101);
      await until('lift A\'s entry stored while the other transaction is open', () => entry.stored(), 5_000).catch(() => undefined);
      expect(entry.stored()).toBe(true);
      expect(await entry.count()).toBe(1);
    } finally {
      await writer.release();
    }
  }, 30_000);
});
