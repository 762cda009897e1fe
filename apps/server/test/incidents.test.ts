import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CODES, BUILT_IN_ROLES, eventText, initialLiftStatus, type Permission } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { openLiveSocket } from './support/live-socket.ts';
import { until } from './support/ports.ts';

/** The fault settle time of these tests' server: short, so a test can wait it out. */
const SETTLE_SECONDS = 2;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const waitOutSettle = () => sleep(SETTLE_SECONDS * 1000 + 300);

/**
 * Incidents and alarm hygiene (docs/service.md) through the real ingest path: lift messages
 * go in as the broker hands them over, alert mails go out through the alert job to the test
 * mailer. Lifts DEMO-0001..3 belong to the operator "Ops", DEMO-0004 to "Elsewhere".
 */
describe.each(DB_KINDS)('incidents and alarm hygiene on %s', (kind) => {
  let t: TestApp;
  let httpUrl: string;
  let admin: ReturnType<typeof client>;
  const ids: Record<string, string> = {};
  let seq = 1_000;
  const send = (deviceNo: string, topic: string, message: object) => t.app.ingest.handle(`lifts/${deviceNo}/${topic}`, JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...message }));
  const status = (faults: string[], help = false) => {
    const s = initialLiftStatus(1);
    return { status: { ...s, faults, platform: { ...s.platform, helpSignal: help } } };
  };
  let op: { id: string; token: string; username: string };
  let tech: { id: string; token: string; username: string };
  let viewer: { id: string; token: string; username: string };
  let farTech: { id: string; token: string; username: string };
  const opMail = `op.${kind}@example.test`;
  const mailsTo = (deviceNo: string) => t.mails.filter((m) => m.to === opMail && m.subject.includes(deviceNo));
  const incidentsOf = async (liftId: string, token = op.token) => body(await client(t.app, token).get(`/auth/access/incidents?liftId=${liftId}`)).result;
  const openAlerts = async (liftId: string) => body(await admin.get(`/auth/access/alerts?state=open&liftId=${liftId}`)).result.list;
  const runLog = async (liftId: string) => body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&pageSize=50`)).result.list as { code: string; text: string }[];

  beforeAll(async () => {
    t = await startTestApp(kind, { FAULT_SETTLE_SECONDS: String(SETTLE_SECONDS) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    httpUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    await ensureDemoFleet(t.database.sql, 4);
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
    for (const d of ['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004']) await send(d, 'presence', { online: true, session: ++seq });
    const ops = body(await admin.post('/auth/access/system/orgs/create', { name: `Ops ${kind}`, kind: 'operator' })).result;
    const far = body(await admin.post('/auth/access/system/orgs/create', { name: `Elsewhere ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: ops.id, liftIds: [ids['DEMO-0001'], ids['DEMO-0002'], ids['DEMO-0003']] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: far.id, liftIds: [ids['DEMO-0004']] });
    op = await userWithRole(t, adminToken, 'operator', `op-${kind}`, ops.id);
    tech = await userWithRole(t, adminToken, 'technician', `tech-${kind}`, ops.id);
    viewer = await userWithRole(t, adminToken, 'viewer', `viewer-${kind}`, ops.id);
    farTech = await userWithRole(t, adminToken, 'technician', `far-${kind}`, far.id);
    const opApi = client(t.app, op.token);
    await opApi.post('/auth/access/account/bind/email', { email: opMail });
    await opApi.post('/auth/access/account/notifications/update', { mailFaults: true, mailHelp: true, mailOffline: true, offlineMinutes: 5, liftIds: [] });
  }, 60_000);
  afterAll(() => t.close());

  it('opens one incident for a fault; its repeats attach to it, with one alert and one mail', async () => {
    const liftId = ids['DEMO-0001']!;
    const socket = await openLiveSocket(httpUrl, tech.token);
    await socket.next('ready', (m) => m.type === 'ready');
    socket.send({ type: 'subscribeFleet' });
    await socket.next('fleet', (m) => m.type === 'fleetSubscribed');

    await send('DEMO-0001', 'event', { code: 'EC' });
    await send('DEMO-0001', 'status', status(['EC']));
    // The technician's open screen hears of it at once.
    expect((await socket.next('incident opened', (m) => m.type === 'incident' && m.liftId === liftId)).incident).toMatchObject({ cause: 'fault', code: 'EC', state: 'open', repeats: 0 });
    await send('DEMO-0001', 'event', { code: 'EC' });
    await send('DEMO-0001', 'event', { code: 'EC' });
    expect((await socket.next('repeat', (m) => m.type === 'incident' && m.incident.repeats === 2)).incident.liftId).toBe(liftId);
    socket.close();

    const page = await incidentsOf(liftId);
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ cause: 'fault', code: 'EC', priority: 'high', state: 'open', repeats: 2, openedById: null, deviceNo: 'DEMO-0001' });
    expect((await openAlerts(liftId)).filter((a: any) => a.code === 'EC')).toHaveLength(1);
    // Held for the settle time: nobody is notified yet.
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0001')).toHaveLength(0);
    expect(body(await client(t.app, op.token).get('/auth/access/notifications')).result.unread).toBe(0);

    await waitOutSettle();
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0001')).toHaveLength(1);
    expect(mailsTo('DEMO-0001')[0]!.text).toContain(eventText('EC', 'zh-CN'));
    await send('DEMO-0001', 'event', { code: 'EC' });
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0001')).toHaveLength(1);
    expect((await incidentsOf(liftId)).list[0].repeats).toBe(3);

    // The detail: opened by the system, with the lift's events since.
    const detail = body(await client(t.app, tech.token).get(`/auth/access/incidents/get?id=${page.list[0].id}`)).result;
    expect(detail.steps).toEqual([expect.objectContaining({ from: null, to: 'open', actorId: null })]);
    const opened = body(await admin.post('/auth/access/lift/logbook/page', { liftId, kinds: ['incident'] })).result.list;
    expect(opened).toEqual([expect.objectContaining({ actorId: null, data: { incidentId: page.list[0].id, cause: 'fault', code: 'EC', from: null, to: 'open' } })]);
    expect(detail.events.filter((e: any) => e.code === 'EC')).toHaveLength(4);
    expect(detail.next).toEqual(['acknowledged', 'cancelled']);
    expect(detail.rootCauses.map((c: any) => c.id)).toContain('rackWear');
    expect(detail.rootCauses.map((c: any) => c.id)).not.toContain('hydraulicLeak');
  });

  it('holds a fault for the settle time: one that clears within it mails nobody, one that keeps coming back mails once', async () => {
    const liftId = ids['DEMO-0002']!;
    await send('DEMO-0002', 'event', { code: 'EB' });
    await send('DEMO-0002', 'status', status(['EB']));
    await send('DEMO-0002', 'status', status([]));
    expect((await openAlerts(liftId)).filter((a: any) => a.code === 'EB')).toHaveLength(0);
    await waitOutSettle();
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0002')).toHaveLength(0);
    expect(body(await client(t.app, op.token).get('/auth/access/notifications')).result.list.filter((n: any) => n.code === 'EB')).toHaveLength(0);
    // The incident stays for a technician to look at.
    expect((await incidentsOf(liftId)).list[0]).toMatchObject({ code: 'EB', state: 'open', repeats: 0 });

    // Back after the settle time: it is flapping, not a blip; its alert is open again and mails once.
    await send('DEMO-0002', 'event', { code: 'EB' });
    await send('DEMO-0002', 'status', status(['EB']));
    expect((await openAlerts(liftId)).filter((a: any) => a.code === 'EB')).toHaveLength(1);
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0002')).toHaveLength(1);
    expect((await incidentsOf(liftId)).list).toEqual([expect.objectContaining({ code: 'EB', repeats: 1 })]);
  });

  it('gives a help signal the highest priority and counts it again only after it went off', async () => {
    const liftId = ids['DEMO-0002']!;
    await send('DEMO-0002', 'status', status([], true));
    await send('DEMO-0002', 'status', status([], true));
    const help = (await incidentsOf(liftId)).list.find((i: any) => i.cause === 'help');
    expect(help).toMatchObject({ priority: 'critical', repeats: 0 });
    // The most urgent comes first.
    expect((await incidentsOf(liftId)).list[0].id).toBe(help.id);
    await send('DEMO-0002', 'status', status([], false));
    await send('DEMO-0002', 'status', status([], true));
    expect((await incidentsOf(liftId)).list.filter((i: any) => i.cause === 'help')).toEqual([expect.objectContaining({ id: help.id, repeats: 1 })]);
    await t.app.jobs.run('alerts');
    expect(mailsTo('DEMO-0002').filter((m) => m.text.includes('求助'))).toHaveLength(1);
  });

  it('raises nothing in a maintenance window, and the run log shows the window', async () => {
    const liftId = ids['DEMO-0003']!;
    const techApi = client(t.app, tech.token);
    // Only a permission to open incidents declares one; another organization's lift is not found.
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    expect((await client(t.app, viewer.token).post('/auth/access/lift/maintenance-windows/declare', { liftIds: [liftId], endsAt, reason: 'Inspection' })).statusCode).toBe(403);
    const foreign = await techApi.post('/auth/access/lift/maintenance-windows/declare', { liftIds: [liftId, ids['DEMO-0004']], endsAt, reason: 'Inspection' });
    expect([foreign.statusCode, body(foreign).code]).toEqual([404, 'lift.notFound']);
    const bad = await techApi.post('/auth/access/lift/maintenance-windows/declare', { liftIds: [liftId], endsAt: new Date(Date.now() - 60_000).toISOString(), reason: 'Inspection' });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
    expect(body(await admin.get(`/auth/access/lift/maintenance-windows?liftId=${liftId}`)).result.list).toEqual([]);

    const declared = await techApi.post('/auth/access/lift/maintenance-windows/declare', { liftIds: [liftId], endsAt, reason: 'Yearly inspection' });
    expect(declared.statusCode).toBe(200);
    const window = body(declared).result;
    expect(window).toMatchObject({ liftIds: [liftId], reason: 'Yearly inspection', declaredById: tech.id, declaredByName: tech.username, endedByName: null });
    // Written by the declaration, or by the windows job when its run holds the window just then.
    await until('the window start in the run log', async () => (await runLog(liftId)).some((e) => e.code === 'MAINT_ON'), 20_000);

    await send('DEMO-0003', 'event', { code: 'EA' });
    await send('DEMO-0003', 'status', status(['EA'], true));
    await t.database.sql.query(`update lifts set online = false, last_seen_at = now() - interval '2 hours' where id = $1`, [liftId]);
    await t.app.jobs.run('alerts');
    expect(await openAlerts(liftId)).toEqual([]);
    expect((await incidentsOf(liftId)).total).toBe(0);

    // Another organization may not end it; the declarer's colleagues may, early.
    const far = await client(t.app, farTech.token).post('/auth/access/lift/maintenance-windows/end', { id: window.id });
    expect([far.statusCode, body(far).code]).toEqual([404, 'maintenance.notFound']);
    const ended = body(await client(t.app, op.token).post('/auth/access/lift/maintenance-windows/end', { id: window.id })).result;
    expect(ended.endedByName).toBe(op.username);
    expect(new Date(ended.endsAt).getTime()).toBeLessThanOrEqual(Date.now());
    const again = await client(t.app, op.token).post('/auth/access/lift/maintenance-windows/end', { id: window.id });
    expect([again.statusCode, body(again).code]).toEqual([409, 'maintenance.ended']);
    const log = await until('the window end in the run log', async () => {
      const entries = await runLog(liftId);
      return entries.some((e) => e.code === 'MAINT_OFF') && entries;
    }, 20_000);
    expect(log.map((e) => e.code)).toEqual(expect.arrayContaining(['MAINT_ON', 'MAINT_OFF', 'EA']));
    expect(log.find((e) => e.code === 'MAINT_OFF')!.text).toBe(eventText('MAINT_OFF', 'zh-CN'));

    // After the window, the lift alarms again.
    await t.app.jobs.run('alerts');
    expect((await openAlerts(liftId)).map((a: any) => a.kind)).toEqual(['offline']);
    expect((await incidentsOf(liftId)).list).toEqual([expect.objectContaining({ cause: 'offline', priority: 'normal' })]);
    const audited = body(await admin.get(`/auth/access/operation-log?liftId=${liftId}&action=maintenance.declare`)).result.list;
    expect(audited[0]).toMatchObject({ username: tech.username, result: 'ok' });
  });

  it('walks an incident through its lifecycle, recording who and when; refuses what the table does not allow and changes nothing', async () => {
    const liftId = ids['DEMO-0001']!;
    const techApi = client(t.app, tech.token);
    const created = await techApi.post('/auth/access/incidents/create', { liftId, title: 'Seat belt torn' });
    expect(created.statusCode).toBe(200);
    const incident = body(created).result;
    expect(incident).toMatchObject({ cause: 'manual', title: 'Seat belt torn', priority: 'normal', state: 'open', openedById: tech.id, openedByName: tech.username });
    const id = incident.id;
    const move = (to: string, extra: object = {}, api = techApi) => api.post('/auth/access/incidents/transition', { id, to, ...extra });

    // Open -> resolved skips the table: refused with a translated code, nothing changed.
    const skipped = await move('resolved', { rootCause: 'wornPart' });
    expect([skipped.statusCode, body(skipped).code]).toEqual([409, 'incident.transition']);
    // The web client words the code in each language (its locales test holds every code).
    expect(API_CODES['incident.transition'].status).toBe(409);
    const unchanged = body(await techApi.get(`/auth/access/incidents/get?id=${id}`)).result;
    expect(unchanged.incident.state).toBe('open');
    expect(unchanged.steps).toHaveLength(1);

    expect(body(await move('acknowledged', { note: 'Calling the site' })).result.state).toBe('acknowledged');
    const unassigned = await move('enRoute');
    expect([unassigned.statusCode, body(unassigned).code]).toEqual([409, 'incident.needsAssignee']);

    // Only a technician of the lift's organization with the right to work on incidents.
    const assignees = body(await techApi.get(`/auth/access/incidents/assignees?id=${id}`)).result.list.map((u: any) => u.id);
    expect(assignees).toEqual(expect.arrayContaining([tech.id, op.id]));
    expect(assignees).not.toContain(viewer.id);
    expect(assignees).not.toContain(farTech.id);
    for (const userId of [viewer.id, farTech.id]) {
      const refused = await techApi.post('/auth/access/incidents/assign', { id, userId });
      expect([refused.statusCode, body(refused).code]).toEqual([409, 'incident.assignee']);
    }
    expect(body(await techApi.post('/auth/access/incidents/assign', { id, userId: tech.id })).result).toMatchObject({ assigneeId: tech.id, assigneeName: tech.username });
    expect((await move('enRoute')).statusCode).toBe(200);
    expect((await move('onSite')).statusCode).toBe(200);
    expect(body(await techApi.post('/auth/access/incidents/notes/add', { id, text: 'Belt replaced, tested 3 trips' })).result.id).toBe(id);

    // Resolving needs a root cause of this lift's kind (a rack lift has no hydraulics).
    const noCause = await move('resolved', { resolutionText: 'Replaced' });
    expect([noCause.statusCode, body(noCause).code]).toEqual([400, 'validation.failed']);
    const wrongKind = await move('resolved', { rootCause: 'hydraulicLeak' });
    expect(body(wrongKind).result.issues).toEqual([{ path: 'rootCause', message: 'validation.invalid' }]);
    const resolved = body(await move('resolved', { rootCause: 'wornPart', resolutionText: 'Replaced the seat belt', partsUsed: ['Seat belt SB-2'] })).result;
    expect(resolved).toMatchObject({ state: 'resolved', rootCause: 'wornPart', resolutionText: 'Replaced the seat belt', partsUsed: ['Seat belt SB-2'] });
    expect(resolved.endedAt).not.toBeNull();
    expect(body(await move('closed', {}, client(t.app, op.token))).result.state).toBe('closed');
    const reopened = await move('open');
    expect([reopened.statusCode, body(reopened).code]).toEqual([409, 'incident.transition']);

    const detail = body(await techApi.get(`/auth/access/incidents/get?id=${id}`)).result;
    expect(detail.steps.map((s: any) => [s.from, s.to, s.actorName])).toEqual([
      [null, 'open', tech.username],
      ['open', 'acknowledged', tech.username],
      ['acknowledged', 'acknowledged', tech.username],
      ['acknowledged', 'enRoute', tech.username],
      ['enRoute', 'onSite', tech.username],
      ['onSite', 'resolved', tech.username],
      ['resolved', 'closed', op.username],
    ]);
    expect(detail.steps[1].note).toBe('Calling the site');
    expect(detail.steps[2].assigneeName).toBe(tech.username);
    for (const s of detail.steps) expect(Date.now() - new Date(s.at).getTime()).toBeLessThan(60_000);
    expect(detail.notes).toEqual([expect.objectContaining({ authorName: tech.username, text: 'Belt replaced, tested 3 trips' })]);
    expect(detail.next).toEqual([]);

    // The lift's logbook keeps the opening and each change of state, oldest last.
    const logbook = body(await admin.post('/auth/access/lift/logbook/page', { liftId, kinds: ['incident'], pageSize: 50 })).result.list.filter((e: any) => e.data.incidentId === id);
    expect(logbook.map((e: any) => [e.data.from, e.data.to, e.actorName]).reverse()).toEqual(detail.steps.filter((s: any) => s.from !== s.to).map((s: any) => [s.from, s.to, s.actorName]));
    expect(logbook[1].data).toMatchObject({ to: 'resolved', rootCause: 'wornPart', partsUsed: ['Seat belt SB-2'] });

    const log = body(await admin.get(`/auth/access/operation-log?liftId=${liftId}&action=incident.transition&pageSize=50`)).result.list;
    expect(log.filter((e: any) => e.result === 'ok')).toHaveLength(5);
    expect(log.filter((e: any) => e.result === 'denied')).toHaveLength(5);
  });

  it('acknowledging an alarm incident acknowledges its alert, so its pending mails are not sent', async () => {
    const liftId = ids['DEMO-0001']!;
    const [fault] = (await incidentsOf(liftId)).list.filter((i: any) => i.cause === 'fault');
    expect((await client(t.app, tech.token).post('/auth/access/incidents/transition', { id: fault.id, to: 'acknowledged' })).statusCode).toBe(200);
    expect((await openAlerts(liftId)).filter((a: any) => a.code === 'EC')).toEqual([]);
    const acked = body(await admin.get(`/auth/access/alerts?state=acknowledged&liftId=${liftId}`)).result.list;
    expect(acked[0]).toMatchObject({ code: 'EC', acknowledgedBy: tech.username });
  });

  it('lists incidents by state, cause, priority and assignee, a page at a time', async () => {
    const liftId = ids['DEMO-0001']!;
    const list = async (query: string) => body(await client(t.app, tech.token).get(`/auth/access/incidents?liftId=${liftId}&${query}`));
    expect((await list('state=active')).result.list.map((i: any) => [i.cause, i.state])).toEqual([['fault', 'acknowledged']]);
    expect((await list('cause=manual')).result.list.map((i: any) => i.state)).toEqual(['closed']);
    expect((await list('priority=high')).result.list.map((i: any) => i.cause)).toEqual(['fault']);
    expect((await list(`assigneeId=${tech.id}`)).result.list.map((i: any) => i.title)).toEqual(['Seat belt torn']);
    const second = (await list('pageSize=1&page=2')).result;
    expect([second.total, second.list.length]).toEqual([2, 1]);
    const bad = await list('state=sleeping');
    expect([bad.code, bad.result.issues?.[0]?.path]).toEqual(['validation.failed', 'querystring.state']);
  });

  it('keeps incidents within the lift scope: another organization finds nothing, a viewer only reads', async () => {
    const liftId = ids['DEMO-0001']!;
    const id = (await incidentsOf(liftId)).list[0].id;
    const farApi = client(t.app, farTech.token);
    expect((await incidentsOf(liftId, farTech.token)).total).toBe(0);
    for (const res of [await farApi.get(`/auth/access/incidents/get?id=${id}`), await farApi.post('/auth/access/incidents/transition', { id, to: 'cancelled' }), await farApi.post('/auth/access/incidents/notes/add', { id, text: 'x' })]) {
      expect([res.statusCode, body(res).code]).toEqual([404, 'incident.notFound']);
    }
    const created = await farApi.post('/auth/access/incidents/create', { liftId, title: 'Not mine' });
    expect([created.statusCode, body(created).code]).toEqual([404, 'lift.notFound']);

    const viewerApi = client(t.app, viewer.token);
    expect((await viewerApi.get(`/auth/access/incidents/get?id=${id}`)).statusCode).toBe(200);
    for (const res of [await viewerApi.post('/auth/access/incidents/transition', { id, to: 'cancelled' }), await viewerApi.post('/auth/access/incidents/create', { liftId, title: 'Noise' }), await viewerApi.post('/auth/access/incidents/assign', { id, userId: viewer.id })]) {
      expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
    }
    const bad = await client(t.app, tech.token).post('/auth/access/incidents/create', { liftId, title: '' });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
  });

  it('gives the built-in roles of a database seeded before incidents the incident permission (migration 0019)', async () => {
    const sql = t.database.sql;
    const byId = (p: Permission[]) => [...p].sort((a, b) => a.permissionId.localeCompare(b.permissionId));
    const roles = async () => Object.fromEntries((await sql.query<{ name: string; permissions: Permission[] }>(`select name, permissions from roles where built_in and name <> 'technician'`)).map((r) => [r.name, byId(r.permissions)]));
    // The roles as an earlier seed stored them: no `incident` entry.
    await sql.query(`update roles set permissions = coalesce((select jsonb_agg(e) from jsonb_array_elements(permissions) e where e->>'permissionId' <> 'incident'), '[]'::jsonb) where built_in`);
    const file = readFileSync(path.join(import.meta.dirname, '../src/db/migrations/0019_incidents.sql'), 'utf8');
    const roleUpdate = file.slice(file.indexOf('update roles'));
    await sql.exec(roleUpdate);
    const expected = Object.fromEntries((['administrator', 'manufacturerEngineer', 'operator', 'viewer'] as const).map((name) => [name, byId(BUILT_IN_ROLES[name].permissions as unknown as Permission[])]));
    expect(await roles()).toEqual(expected);
    // Run again: nothing changes.
    await sql.exec(roleUpdate);
    expect(await roles()).toEqual(expected);
  });
});
