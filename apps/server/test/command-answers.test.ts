import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liftTopic, type LiveChange } from '@liftlink/protocol';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { insertCommand } from '../src/modules/commands/repository.ts';
import { verifyLogbook } from '../src/modules/logbook/verify.ts';
import { DB_KINDS, startTestApp, type TestApp } from './helpers.ts';
import { until } from './support/ports.ts';

/**
 * The lifts' answers to their commands, as the sender and the lift's logbook see them. Ingest
 * stores a batch of answers in a fixed number of statements (docs/operations.md 7.1): every
 * answer must still move its own command forward only, reach browsers in the order the lifts
 * sent them, and chain into its lift's logbook, however many lifts answer at once.
 */
describe.each(DB_KINDS)('command answers on %s', (kind) => {
  let t: TestApp;
  let fleet: DemoLift[];
  let admin: { id: string; username: string };
  let seq = 5_000;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '60' });
    fleet = await ensureDemoFleet(t.database.sql, 3);
    [admin] = (await t.database.sql.query<{ id: string; username: string }>(`select id, username from users where username = 'admin'`)) as [{ id: string; username: string }];
  }, 60_000);
  afterAll(async () => t?.close());

  const heardNow = (lifts: DemoLift[]) =>
    t.database.sql.query(`update lifts set online = true, online_since = now(), last_seen_at = now() where id = any($1::uuid[])`, [lifts.map((l) => l.id)]);
  const command = async (lift: DemoLift) => {
    const id = `answer-test-${++n}-${kind}`;
    await insertCommand(t.database.sql, {
      id, liftId: lift.id, kind: 'cmd', name: 'lock', args: { on: true }, userId: admin.id, username: admin.username,
      expiresAt: new Date(Date.now() + 60_000), idempotencyKey: null, leaseEpoch: null, approvalId: null, sentNow: true,
    });
    return id;
  };
  const answer = (lift: DemoLift, commandId: string, state: string, extra: Record<string, unknown> = {}) =>
    t.app.ingest.handle(liftTopic(lift.deviceNo, 'cmd/ack'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), commandId, state, ...extra }));
  const stateOf = async (id: string) =>
    (await t.database.sql.query<{ state: string; reason: string | null }>(`select state, reason from lift_commands where id = $1`, [id]))[0];
  const commandEntries = async (lift: DemoLift) =>
    t.database.sql.query<{ seq: string; command_id: string; state: string }>(
      `select seq, data->>'commandId' as command_id, data->>'state' as state from lift_logbook where lift_id = $1 and kind = 'command' order by seq`,
      [lift.id],
    );

  it('stores many lifts\' answers taken at once: each command its furthest state, each final one logged once in its lift\'s chain, browsers told in order', async () => {
    const [a, b, c] = fleet as [DemoLift, DemoLift, DemoLift];
    await heardNow([a, b, c]);
    const ids = { a1: await command(a), a2: await command(a), b1: await command(b), c1: await command(c) };
    const pushed: string[] = [];
    const stop = t.app.live.on((msg: LiveChange) => {
      if (msg.type === 'command' && Object.values(ids).includes(msg.commandId)) pushed.push(`${msg.commandId}:${msg.state}`);
    });
    try {
      // Handed to ingest in one go, as a busy broker delivers them: one batch.
      await Promise.all([
        answer(a, ids.a1, 'accepted'),
        answer(b, ids.b1, 'accepted'),
        answer(a, ids.a1, 'done'),
        answer(a, ids.a2, 'rejected', { reason: 'busy' }),
        answer(c, ids.c1, 'accepted'),
        answer(b, ids.b1, 'failed', { reason: 'interrupted' }),
      ]);
      expect(await stateOf(ids.a1)).toEqual({ state: 'done', reason: null });
      expect(await stateOf(ids.a2)).toEqual({ state: 'rejected', reason: 'busy' });
      expect(await stateOf(ids.b1)).toEqual({ state: 'failed', reason: 'interrupted' });
      expect(await stateOf(ids.c1)).toEqual({ state: 'accepted', reason: null });
      await until('the four changes pushed', () => pushed.length === 4, 5_000, 10);
      expect(pushed).toEqual([`${ids.a1}:done`, `${ids.b1}:failed`, `${ids.a2}:rejected`, `${ids.c1}:accepted`]);

      // Final answers only, one entry each, in the order the lift sent them; the chains hold.
      expect((await commandEntries(a)).filter((e) => [ids.a1, ids.a2].includes(e.command_id)).map((e) => [e.command_id, e.state])).toEqual([
        [ids.a1, 'done'],
        [ids.a2, 'rejected'],
      ]);
      expect((await commandEntries(b)).filter((e) => e.command_id === ids.b1).map((e) => e.state)).toEqual(['failed']);
      expect((await commandEntries(c)).filter((e) => e.command_id === ids.c1)).toEqual([]);
      for (const lift of [a, b, c]) expect((await verifyLogbook(t.database.sql, lift.id)).ok).toBe(true);

      // A late or repeated answer moves nothing back and logs nothing again; c's 'done' still moves it on.
      await Promise.all([answer(a, ids.a1, 'accepted'), answer(b, ids.b1, 'done'), answer(c, ids.c1, 'done')]);
      expect(await stateOf(ids.a1)).toEqual({ state: 'done', reason: null });
      expect(await stateOf(ids.b1)).toEqual({ state: 'failed', reason: 'interrupted' });
      expect(await stateOf(ids.c1)).toEqual({ state: 'done', reason: null });
      expect((await commandEntries(a)).filter((e) => e.command_id === ids.a1)).toHaveLength(1);
      expect((await commandEntries(b)).filter((e) => e.command_id === ids.b1)).toHaveLength(1);
      expect((await commandEntries(c)).filter((e) => e.command_id === ids.c1).map((e) => e.state)).toEqual(['done']);
      for (const lift of [a, b, c]) expect((await verifyLogbook(t.database.sql, lift.id)).ok).toBe(true);
    } finally {
      stop();
    }
  });

  it('brings a lift that answers while marked offline back online, and stores its answer', async () => {
    const lift = fleet[1]!;
    const id = await command(lift);
    await t.database.sql.query(`update lifts set online = false, last_seen_at = now() - interval '10 minutes' where id = $1`, [lift.id]);
    await answer(lift, id, 'done');
    expect(await stateOf(id)).toEqual({ state: 'done', reason: null });
    const [row] = await t.database.sql.query<{ online: boolean; seen_ago_s: number }>(
      `select online, extract(epoch from now() - last_seen_at)::float8 as seen_ago_s from lifts where id = $1`,
      [lift.id],
    );
    expect(row!.online).toBe(true);
    expect(row!.seen_ago_s).toBeLessThan(30);
    const [entry] = await t.database.sql.query<{ code: string; reason: string | null }>(`select code, reason from lift_events where lift_id = $1 order by n desc limit 1`, [lift.id]);
    expect(entry).toEqual({ code: 'ONLINE', reason: 'messageReceived' });
  });
});

