import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { initialLiftStatus, liftTopic, type LiftStatus } from '@liftlink/protocol';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, type TestApp } from './helpers.ts';

/**
 * A lift's status as users see it (the lift page, its voltage chart). Ingest writes the
 * snapshot only when it differs from the stored one and takes one voltage sample a minute
 * (docs/operations.md 7.1): neither may cost a user a change the lift reported.
 */
describe.each(DB_KINDS)('storing lift statuses on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let seq = 1_000;

  beforeAll(async () => {
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '600' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 2);
  }, 60_000);
  afterAll(async () => t?.close());

  const report = (lift: DemoLift, status: LiftStatus, ts: string, at = ++seq) =>
    t.app.ingest.handle(liftTopic(lift.deviceNo, 'status'), JSON.stringify({ seq: at, ts, status }));
  const shown = async (lift: DemoLift) => {
    const info = body(await admin.post('/auth/access/lift/getInfo', { liftId: lift.id })).result;
    return { status: info.status as LiftStatus, mode: info.lift.mode as string, floor: info.lift.floor as number | null };
  };
  const samples = async (lift: DemoLift) =>
    body<{ list: { ts: string; voltage: number }[] }>(await admin.get(`/auth/access/lift/samples?liftId=${lift.id}&hours=2`)).result.list;
  /** `second` seconds into the `minute`th minute after one that began half an hour ago. */
  const start = Math.floor((Date.now() - 30 * 60_000) / 60_000) * 60_000;
  const at = (minute: number, second: number) => new Date(start + minute * 60_000 + second * 1_000);

  it('shows a status that returns to an earlier one, and keeps the newest when the same one repeats', async () => {
    const lift = fleet[0]!;
    const standing = initialLiftStatus(1);
    const moved: LiftStatus = { ...standing, floor: 2, platform: { ...standing.platform, voltage: 23.1 } };
    const now = Date.now();
    await report(lift, standing, new Date(now - 3_000).toISOString());
    await report(lift, moved, new Date(now - 2_000).toISOString());
    expect(await shown(lift)).toMatchObject({ floor: 2, status: { floor: 2, platform: { voltage: 23.1 } } });
    // Back where it was: the same snapshot as two reports ago, which is not the stored one.
    await report(lift, standing, new Date(now - 1_000).toISOString());
    expect(await shown(lift)).toMatchObject({ floor: 1, status: standing });
    await report(lift, standing, new Date(now).toISOString());
    const [row] = await t.database.sql.query<{ status_seq: string; status_at: Date }>(`select status_seq, status_at from lifts where id = $1`, [lift.id]);
    expect([Number(row!.status_seq), new Date(row!.status_at).toISOString()]).toEqual([seq, new Date(now).toISOString()]);
    expect((await shown(lift)).status).toEqual(standing);
    // An older report than the stored one changes nothing, even a different snapshot.
    await report(lift, moved, new Date(now - 500).toISOString(), seq - 1);
    expect((await shown(lift)).status).toEqual(standing);
  });

  it('counts a repeated status as the lift heard: its time moves on, and a lift taken for offline is back online', async () => {
    const lift = fleet[0]!;
    const standing = initialLiftStatus(1);
    const now = Date.now();
    await report(lift, standing, new Date(now - 2_000).toISOString());
    const seenAt = async () => (await t.database.sql.query<{ last_seen_at: Date }>(`select last_seen_at from lifts where id = $1`, [lift.id]))[0]!.last_seen_at;
    const firstSeen = new Date(await seenAt()).getTime();
    // As the silence sweep leaves a lift it has not heard from.
    await t.database.sql.query(`update lifts set online = false, last_seen_at = now() - interval '1 hour' where id = $1`, [lift.id]);
    await report(lift, standing, new Date(now - 1_000).toISOString());
    const info = body(await admin.post('/auth/access/lift/getInfo', { liftId: lift.id })).result;
    expect(info.lift.online).toBe(true);
    expect(info.status).toEqual(standing);
    expect(new Date(await seenAt()).getTime()).toBeGreaterThanOrEqual(firstSeen);
    // A repeat of a lift that stayed online: its sequence, time and last-seen time are stored.
    await t.database.sql.query(`update lifts set last_seen_at = now() - interval '1 minute' where id = $1`, [lift.id]);
    await report(lift, standing, new Date(now).toISOString());
    const [row] = await t.database.sql.query<{ status_seq: string; status_at: Date; online: boolean; last_seen_at: Date }>(
      `select status_seq, status_at, online, last_seen_at from lifts where id = $1`,
      [lift.id],
    );
    expect([Number(row!.status_seq), new Date(row!.status_at).toISOString(), row!.online]).toEqual([seq, new Date(now).toISOString(), true]);
    expect(Date.now() - new Date(row!.last_seen_at).getTime()).toBeLessThan(30_000);
  });

  it('tells browsers of a status only when its snapshot changes', async () => {
    const lift = fleet[0]!;
    const pushed: number[] = [];
    const stop = t.app.live.on((msg) => {
      if (msg.type === 'status' && msg.liftId === lift.id) pushed.push(msg.seq);
    });
    try {
      const standing = initialLiftStatus(1);
      const moved: LiftStatus = { ...standing, floor: 2 };
      const now = Date.now();
      await report(lift, moved, new Date(now - 4_000).toISOString());
      const first = seq;
      await report(lift, moved, new Date(now - 3_000).toISOString());
      await report(lift, moved, new Date(now - 2_000).toISOString());
      await report(lift, standing, new Date(now - 1_000).toISOString());
      const last = seq;
      await vi.waitFor(() => expect(pushed).toContain(last));
      // The two repeats are stored (the newest sequence and time) but not pushed.
      expect(pushed).toEqual([first, last]);
      expect((await shown(lift)).status).toEqual(standing);
    } finally {
      stop();
    }
  });

  it('samples the voltage once a minute: the first status of each minute', async () => {
    const lift = fleet[1]!;
    const base = initialLiftStatus(1);
    const volts = (v: number): LiftStatus => ({ ...base, platform: { ...base.platform, voltage: v } });
    const minute = 0;
    await report(lift, volts(24.5), at(minute, 5).toISOString());
    await report(lift, volts(24.4), at(minute, 35).toISOString());
    await report(lift, volts(24.3), at(minute + 1, 2).toISOString());
    await report(lift, volts(24.3), at(minute + 1, 50).toISOString());
    await report(lift, volts(24.2), at(minute + 3, 0).toISOString());
    expect((await samples(lift)).map((s) => [s.ts, Math.round(s.voltage * 10) / 10])).toEqual([
      [at(minute, 0).toISOString(), 24.5],
      [at(minute + 1, 0).toISOString(), 24.3],
      [at(minute + 3, 0).toISOString(), 24.2],
    ]);
  });
});
