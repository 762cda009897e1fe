import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventText, initialLiftStatus } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/**
 * A server with `count` demo lifts, fed through the real ingest path: DEMO-0001 and DEMO-0002
 * online, DEMO-0001 having made one trip (RZGU, then RZD2).
 */
async function startFleet(kind: 'pglite' | 'postgres', count: number) {
  const t = await startTestApp(kind);
  const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
  const admin = client(t.app, adminToken);
  const ids: Record<string, string> = {};
  let seq = 1_000;
  const now = () => new Date().toISOString();
  // Every payload sent, by lift and seq, so a test can redeliver one exactly as a broker would.
  const sent = new Map<string, string>();
  const send = (deviceNo: string, topic: string, message: object) => {
    const payload = JSON.stringify({ seq: ++seq, ts: now(), ...message });
    sent.set(`${deviceNo}/${seq}`, payload);
    return t.app.ingest.handle(`lifts/${deviceNo}/${topic}`, payload);
  };
  await ensureDemoFleet(t.database.sql, count);
  for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
  for (const d of ['DEMO-0001', 'DEMO-0002']) await send(d, 'presence', { online: true, session: ++seq });
  await send('DEMO-0001', 'event', { code: 'RZGU' });
  await send('DEMO-0001', 'event', { code: 'RZD2', floor: 2 });
  return { t, adminToken, admin, ids, sent, send, lastSeq: () => seq };
}

/** Alerts, operation log and dashboards, fed through the real ingest path with lift messages. */
describe.each(DB_KINDS)('alerts, operation log and dashboards on %s', (kind) => {
  // Shared by the tests that each work on lifts of their own; the dashboards, which count
  // the whole fleet, get a server each.
  let fleet: Awaited<ReturnType<typeof startFleet>>;
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let adminToken: string;
  let ids: Record<string, string>;
  let sent: Map<string, string>;
  let send: (deviceNo: string, topic: string, message: object) => Promise<unknown>;

  beforeAll(async () => {
    fleet = await startFleet(kind, 4);
    ({ t, admin, adminToken, ids, sent, send } = fleet);
  }, 60_000);
  afterAll(() => t.close());

  it('raises a fault alert once, notifies and mails the users who chose it, and lets them acknowledge it', async () => {
    const op = body(await admin.post('/auth/access/system/orgs/create', { name: `Ops ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: [ids['DEMO-0001']] });
    const chooser = await userWithRole(t, adminToken, 'operator', undefined, op.id);
    const other = await userWithRole(t, adminToken, 'operator', undefined, op.id);
    const chooserApi = client(t.app, chooser.token);
    await chooserApi.post('/auth/access/account/bind/email', { email: `chooser.${kind}@example.test` });
    await chooserApi.post('/auth/access/account/notifications/update', { mailFaults: true, mailHelp: true, mailOffline: false, offlineMinutes: 60, liftIds: [] });
    await client(t.app, other.token).post('/auth/access/account/bind/email', { email: `other.${kind}@example.test` });

    await send('DEMO-0001', 'event', { code: 'EC' });
    await send('DEMO-0001', 'event', { code: 'EC' });
    const alerts = body(await chooserApi.get('/auth/access/alerts?state=open')).result;
    expect(alerts.list.filter((a: any) => a.code === 'EC')).toHaveLength(1);
    expect(alerts.list[0]).toMatchObject({ kind: 'fault', deviceNo: 'DEMO-0001' });
    const notes = body(await chooserApi.get('/auth/access/notifications')).result;
    expect(notes.unread).toBe(1);
    expect(body(await client(t.app, other.token).get('/auth/access/notifications')).result.unread).toBe(0);

    await t.app.jobs.run('alerts');
    const mail = t.mails.find((m) => m.to === `chooser.${kind}@example.test`)!;
    expect(mail.subject).toContain('DEMO-0001');
    expect(mail.text).toContain(eventText('EC', 'zh-CN'));
    expect(t.mails.some((m) => m.to === `other.${kind}@example.test`)).toBe(false);
    await t.app.jobs.run('alerts');
    expect(t.mails.filter((m) => m.to === `chooser.${kind}@example.test`)).toHaveLength(1);

    const id = alerts.list[0].id;
    expect((await chooserApi.post('/auth/access/alerts/ack', { id })).statusCode).toBe(200);
    const history = body(await chooserApi.get('/auth/access/alerts?state=acknowledged')).result.list;
    expect(history[0]).toMatchObject({ id, acknowledgedBy: chooser.username });
    await chooserApi.post('/auth/access/notifications/read', { ids: [id] });
    expect(body(await chooserApi.get('/auth/access/notifications')).result.unread).toBe(0);
    // Another organization's alert is not theirs to see or acknowledge.
    await send('DEMO-0002', 'event', { code: 'EA' });
    const foreign = body(await admin.get(`/auth/access/alerts?liftId=${ids['DEMO-0002']}`)).result.list[0];
    expect((await chooserApi.post('/auth/access/alerts/ack', { id: foreign.id })).statusCode).toBe(404);
  });

  it('raises a help alert when the help signal goes on and clears it when it goes off', async () => {
    const status = initialLiftStatus(1);
    await send('DEMO-0002', 'status', { status: { ...status, platform: { ...status.platform, helpSignal: true } } });
    const open = body(await admin.get(`/auth/access/alerts?state=open&liftId=${ids['DEMO-0002']}`)).result.list;
    expect(open.map((a: any) => a.kind)).toContain('help');
    await send('DEMO-0002', 'status', { status });
    const after = body(await admin.get(`/auth/access/alerts?state=open&liftId=${ids['DEMO-0002']}`)).result.list;
    expect(after.map((a: any) => a.kind)).not.toContain('help');
  });

  it('raises an offline alert for a lift silent past the threshold', async () => {
    // DEMO-0004: a lift no other test uses.
    await t.database.sql.query(`update lifts set last_seen_at = now() - interval '2 hours', online = false where device_no = 'DEMO-0004'`);
    await t.app.jobs.run('alerts');
    const open = body(await admin.get(`/auth/access/alerts?state=open&liftId=${ids['DEMO-0004']}`)).result.list;
    expect(open.map((a: any) => a.kind)).toEqual(['offline']);
  });

  it('lists audited commands and changes per lift and user, scoped, and exports them with the permission', async () => {
    await admin.post('/auth/access/lift/alias/update', { liftId: ids['DEMO-0001'], alias: 'Вход в метро' });
    await admin.post('/auth/access/lift/alias/update', { liftId: ids['DEMO-0002'], alias: 'Library' });
    const all = body(await admin.get('/auth/access/operation-log?action=lift.alias')).result;
    expect(all.total).toBe(2);
    const one = body(await admin.get(`/auth/access/operation-log?liftId=${ids['DEMO-0001']}&action=lift.alias`)).result;
    expect(one.list[0]).toMatchObject({ username: 'admin', deviceNo: 'DEMO-0001', result: 'ok', detail: { after: 'Вход в метро' } });
    const csv = await admin.get('/auth/access/operation-log/export?action=lift.alias');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Вход в метро');
    const viewer = await userWithRole(t, adminToken, 'viewer');
    expect((await client(t.app, viewer.token).get('/auth/access/operation-log/export')).statusCode).toBe(403);
    expect(body(await client(t.app, viewer.token).get('/auth/access/operation-log')).result.total).toBe(0);
  });

  it('counts the fleet, names the lifts needing attention and shows recent events in the user language', async () => {
    const { t, admin, send } = await startFleet(kind, 3);
    try {
      await send('DEMO-0001', 'event', { code: 'EC' });
      await send('DEMO-0001', 'event', { code: 'EC' });
      await send('DEMO-0002', 'event', { code: 'EA' });
      await t.database.sql.query(`update lifts set last_seen_at = now() - interval '2 hours', online = false where device_no = 'DEMO-0003'`);
      await t.app.jobs.run('alerts');
      const w = body(await admin.get('/auth/access/dashboard/workplace')).result;
      expect(w.counts).toEqual({ total: 3, online: 2, offline: 1, fault: 0 });
      expect(w.attention.map((a: any) => [a.deviceNo, a.reason])).toContainEqual(['DEMO-0003', 'offline']);
      expect(w.recentEvents[0]).toHaveProperty('text');
      expect(w.recentEvents.map((e: any) => e.code)).toContain('RZD2');
      const a = body(await admin.get('/auth/access/dashboard/analysis')).result;
      expect(a.tripsToday).toBe(1);
      expect(a.trips30d).toHaveLength(30);
      expect(a.onlineRatio).toBeCloseTo(2 / 3);
      expect(a.faults24h).toEqual(expect.arrayContaining([{ code: 'EC', count: 2 }, { code: 'EA', count: 1 }]));
      expect(a.topLifts.map((l: any) => [l.deviceNo, l.trips])).toEqual([['DEMO-0001', 1]]);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('takes trips older than 30 days off the top lifts when the rollup job runs', async () => {
    const { t, admin, ids } = await startFleet(kind, 3);
    try {
      // 40 days ago DEMO-0002 made 5 trips, which its 30-day count still holds.
      await t.database.sql.query(`insert into lift_daily_stats (lift_id, day, trips) values ($1, (now() at time zone 'utc')::date - 40, 5)`, [ids['DEMO-0002']]);
      await t.database.sql.query(`update lifts set trips_30d = trips_30d + 5 where id = $1`, [ids['DEMO-0002']]);
      const before = body(await admin.get('/auth/access/dashboard/analysis')).result;
      expect(before.topLifts.map((l: any) => [l.deviceNo, l.trips])).toEqual([['DEMO-0002', 5], ['DEMO-0001', 1]]);
      expect(await t.app.jobs.run('trips30d')).toEqual({ lifts: 1 });
      const after = body(await admin.get('/auth/access/dashboard/analysis')).result;
      expect(after.topLifts.map((l: any) => [l.deviceNo, l.trips])).toEqual([['DEMO-0001', 1]]);
    } finally {
      await t.close();
    }
  }, 60_000);
  it('pages the run log at any depth, newest first, a redelivered entry counted once', async () => {
    const liftId = ids['DEMO-0003']!;
    const first = fleet.lastSeq() + 1;
    for (let i = 0; i < 45; i++) await send('DEMO-0003', 'event', { code: i % 2 ? 'RZGD' : 'RZGU' });
    // The broker redelivers the first message (QoS 1 after a lost acknowledgement): same payload.
    await t.app.ingest.handle('lifts/DEMO-0003/event', sent.get(`DEMO-0003/${first}`)!);
    // 45 entries, and before them the lift's coming online: it was offline when it spoke.
    const page1 = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&pageSize=20&lang=en-US`)).result;
    expect(page1.total).toBe(46);
    const page3 = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&page=3&pageSize=20&lang=en-US`)).result;
    expect(page3.list).toHaveLength(6);
    expect(page3.list.at(-1)).toMatchObject({ code: 'ONLINE', text: 'Device online (message received)' });
    const all = [...page1.list, ...body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&page=2&pageSize=20`)).result.list, ...page3.list];
    expect(new Set(all.map((e: any) => e.id)).size).toBe(46);
    expect(all.map((e: any) => e.id)).toEqual([...all.map((e: any) => e.id)].sort((a, b) => b - a));
    const filtered = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&codes=RZGD&page=2&pageSize=20`)).result;
    expect(filtered.total).toBe(22);
    expect(filtered.list).toHaveLength(2);

    // The class filter's totals come from the counts ingest keeps: two faults (one sent
    // twice) among the lift's entries.
    await send('DEMO-0003', 'event', { code: 'EB' });
    await send('DEMO-0003', 'event', { code: 'EE' });
    await t.app.ingest.handle('lifts/DEMO-0003/event', sent.get(`DEMO-0003/${fleet.lastSeq()}`)!);
    const faults = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&class=fault&pageSize=20`)).result;
    expect(faults.total).toBe(2);
    expect(faults.list.map((e: any) => e.code)).toEqual(['EE', 'EB']);
    const normal = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&class=state&pageSize=20`)).result;
    expect(normal.total).toBe(46);
    expect(normal.list.every((e: any) => !e.fault)).toBe(true);
  });

});
