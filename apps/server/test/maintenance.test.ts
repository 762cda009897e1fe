import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CHECKLISTS, initialLiftStatus, type ChecklistItemView } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { lastMailSlot } from '../src/modules/maintenance/job.ts';
import { createMailer } from '../src/plugins/messaging.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { startSmtp } from './support/smtp.ts';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

/**
 * Maintenance plans and visits (docs/service.md) through the API, with trips fed the way
 * lifts feed them (run-log messages through ingest) and the weekly mail sent through a real
 * SMTP listener. DEMO-0001..3 and DEMO-0005 (the hydraulic lift) belong to the operator
 * "Ops", DEMO-0004 to "Elsewhere".
 */
describe.each(DB_KINDS)('maintenance plans and visits on %s', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ReturnType<typeof client>;
  const ids: Record<string, string> = {};
  let seq = 1_000;
  const send = (deviceNo: string, topic: string, message: object) => t.app.ingest.handle(`lifts/${deviceNo}/${topic}`, JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...message }));
  /** Trips as a lift reports them: a start up (RZGU) and the arrival. */
  const trips = async (deviceNo: string, n: number) => {
    for (let i = 0; i < n; i++) {
      await send(deviceNo, 'event', { code: 'RZGU' });
      await send(deviceNo, 'event', { code: 'RZD2', floor: 2 });
    }
  };
  type U = { id: string; token: string; username: string };
  let op: U, tech: U, viewer: U, farOp: U, farTech: U;
  const api = (u: U) => client(t.app, u.token);
  const opMail = `maint.op.${kind}@example.test`;
  const farMail = `maint.far.${kind}@example.test`;
  const maintenance = async (u: U, liftId: string) => body(await api(u).get(`/auth/access/lift/maintenance?liftId=${liftId}`)).result;
  /** An answer for every item: pass/fail items pass, measured ones at a value within their limits unless `values` says otherwise. */
  const answers = (checklist: ChecklistItemView[], values: Record<string, number> = {}) =>
    checklist.map((i) => (i.type === 'passFail' ? { itemId: i.id, passed: true } : { itemId: i.id, value: values[i.id] ?? i.min ?? i.max ?? 0 }));
  const visit = async (u: U, liftId: string, extra: Record<string, unknown> = {}, values: Record<string, number> = {}) => {
    const { checklist } = await maintenance(u, liftId);
    return api(u).post('/auth/access/lift/maintenance/visits/record', { liftId, results: answers(checklist, values), ...extra });
  };
  const visitCount = async (liftId: string) => Number((await t.database.sql.query<{ n: string }>('select count(*) as n from maintenance_visits where lift_id = $1', [liftId]))[0]!.n);

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startTestApp(kind, { MAINTENANCE_MAIL_WEEKDAY: 'any', MAINTENANCE_MAIL_HOUR: '0', PUBLIC_URL: 'https://lifts.example.test' });
    (t.app as unknown as { mailer: unknown }).mailer = createMailer(`smtp://127.0.0.1:${smtp.port}`, 'LiftLink <no-reply@liftlink.test>', t.dataDir);
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    await ensureDemoFleet(t.database.sql, 5);
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
    for (const d of ['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004', 'DEMO-0005']) await send(d, 'presence', { online: true, session: ++seq });
    const ops = body(await admin.post('/auth/access/system/orgs/create', { name: `Maint ops ${kind}`, kind: 'operator' })).result;
    const far = body(await admin.post('/auth/access/system/orgs/create', { name: `Maint far ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: ops.id, liftIds: [ids['DEMO-0001'], ids['DEMO-0002'], ids['DEMO-0003'], ids['DEMO-0005']] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: far.id, liftIds: [ids['DEMO-0004']] });
    op = await userWithRole(t, adminToken, 'operator', `mop-${kind}`, ops.id);
    tech = await userWithRole(t, adminToken, 'technician', `mtech-${kind}`, ops.id);
    viewer = await userWithRole(t, adminToken, 'viewer', `mviewer-${kind}`, ops.id);
    farOp = await userWithRole(t, adminToken, 'operator', `mfarop-${kind}`, far.id);
    farTech = await userWithRole(t, adminToken, 'technician', `mfartech-${kind}`, far.id);
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('ships a checklist per lift kind that an organization may replace with its own, and only for its lifts', async () => {
    const list = body(await api(tech).get('/auth/access/lift/maintenance/templates')).result.list;
    const hydraulic = list.find((x: any) => x.kind === 'verticalHydraulic');
    expect(hydraulic).toMatchObject({ custom: false, updatedAt: null });
    expect(hydraulic.items.find((i: any) => i.id === 'oilLevel')).toMatchObject({ type: 'measured', unit: '%', min: 60, max: 100, label: '液压油位' });
    expect(list.find((x: any) => x.kind === 'inclinedStraightRack').items.map((i: any) => i.id)).toEqual(expect.arrayContaining(['emergencyStop', 'safetyEdges', 'brake', 'overspeedGovernor', 'rackWear', 'batteryVoltage', 'alarmDeviceTest']));

    // The organization's own checklist for its rack lifts: free text, one measured item.
    const own = [
      { id: 'seatBelt', labelText: 'Seat belt and buckle', type: 'passFail' },
      { id: 'travelTime', labelText: { 'zh-CN': '全程运行时间', 'en-US': 'Full travel time', 'ru-RU': 'Время полного хода' }, type: 'measured', unit: 's', min: 20, max: 40 },
    ];
    expect((await api(tech).post('/auth/access/lift/maintenance/templates/set', { kind: 'inclinedStraightRack', items: own })).statusCode).toBe(403);
    const bad = await api(op).post('/auth/access/lift/maintenance/templates/set', { kind: 'inclinedStraightRack', items: [{ ...own[1], min: 50 }] });
    expect([bad.statusCode, body(bad).code, body(bad).result.issues]).toEqual([400, 'validation.failed', [{ path: 'items.0.max', message: 'validation.min' }]]);
    const set = await api(op).post('/auth/access/lift/maintenance/templates/set', { kind: 'inclinedStraightRack', items: own });
    expect(body(set).result).toMatchObject({ kind: 'inclinedStraightRack', custom: true, updatedByName: op.username });
    expect((await maintenance(tech, ids['DEMO-0001']!)).checklist.map((i: any) => [i.id, i.label])).toEqual([['seatBelt', 'Seat belt and buckle'], ['travelTime', '全程运行时间']]);
    // Another organization still has the built-in one.
    const theirs = body(await api(farOp).get('/auth/access/lift/maintenance/templates')).result.list.find((x: any) => x.kind === 'inclinedStraightRack');
    expect(theirs.custom).toBe(false);
    expect(theirs.items).toHaveLength(DEFAULT_CHECKLISTS.inclinedStraightRack.length);

    const reset = await api(op).post('/auth/access/lift/maintenance/templates/reset', { kind: 'inclinedStraightRack' });
    expect(body(reset).result).toMatchObject({ custom: false });
    expect((await maintenance(tech, ids['DEMO-0001']!)).checklist.map((i: any) => i.id)).toEqual(DEFAULT_CHECKLISTS.inclinedStraightRack.map((i) => i.id));
  });

  it('refuses a plan with neither days nor trips and stores nothing; plans need the lift configuration right, within the scope', async () => {
    const liftId = ids['DEMO-0001']!;
    const none = await api(op).post('/auth/access/lift/maintenance/plan/set', { liftId });
    expect([none.statusCode, body(none).code, body(none).result.issues]).toEqual([400, 'validation.failed', [{ path: 'intervalDays', message: 'validation.planInterval' }]]);
    const nulls = await api(op).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: null, intervalTrips: null });
    expect(body(nulls).result.issues[0].message).toBe('validation.planInterval');
    expect(await maintenance(op, liftId)).toMatchObject({ plan: null, due: { status: 'noPlan' } });
    expect((await t.database.sql.query('select 1 from maintenance_plans where lift_id = $1', [liftId])).length).toBe(0);

    expect((await api(viewer).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 30 })).statusCode).toBe(403);
    expect((await api(tech).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 30 })).statusCode).toBe(403);
    const far = await api(farOp).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 30 });
    expect([far.statusCode, body(far).code]).toEqual([404, 'lift.notFound']);

    const ok = body(await api(op).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 180 })).result;
    expect(ok).toMatchObject({ plan: { intervalDays: 180, intervalTrips: null, updatedByName: op.username }, due: { status: 'ok', daysLeft: 179, lastVisitAt: null } });
    const audit = await t.database.sql.query<{ detail: unknown }>(`select detail from audit_log where action = 'maintenance.plan' and lift_id = $1`, [liftId]);
    expect(audit.map((a) => a.detail)).toEqual([{ intervalDays: 180, intervalTrips: null }]);
  });

  it('is due by days from the last visit: due soon within a week, overdue after', async () => {
    const liftId = ids['DEMO-0002']!;
    await api(op).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 30 });
    expect((await visit(tech, liftId, { startedAt: daysAgo(40.1), endedAt: daysAgo(40) })).statusCode).toBe(200);
    const overdue = (await maintenance(tech, liftId)).due;
    expect(overdue).toMatchObject({ status: 'overdue', dueBy: 'days', daysLeft: -10, tripsDue: null });
    expect(new Date(overdue.dueAt).getTime()).toBeCloseTo(Date.now() - 10 * DAY, -6);

    expect((await visit(tech, liftId, { endedAt: daysAgo(25) })).statusCode).toBe(200);
    expect((await maintenance(tech, liftId)).due).toMatchObject({ status: 'dueSoon', dueBy: 'days', daysLeft: 4 });
    // The visits, newest by when they happened first.
    const page = body(await api(viewer).get(`/auth/access/lift/maintenance/visits?liftId=${liftId}`)).result;
    expect(page.total).toBe(2);
    expect(new Date(page.list[0].endedAt).getTime()).toBeGreaterThan(new Date(page.list[1].endedAt).getTime());
  });

  it('is due by trips from the live trip counter when they come first', async () => {
    const liftId = ids['DEMO-0003']!;
    await api(op).post('/auth/access/lift/maintenance/plan/set', { liftId, intervalDays: 365, intervalTrips: 5 });
    await trips('DEMO-0003', 2); // before the visit: not counted
    expect((await visit(tech, liftId)).statusCode).toBe(200);
    expect((await maintenance(tech, liftId)).due).toMatchObject({ status: 'ok', tripsSinceVisit: 0, tripsLeft: 5 });
    await trips('DEMO-0003', 4);
    expect((await maintenance(tech, liftId)).due).toMatchObject({ status: 'dueSoon', dueBy: 'trips', tripsSinceVisit: 4, tripsLeft: 1, daysLeft: 364 });
    await trips('DEMO-0003', 2);
    const due = (await maintenance(tech, liftId)).due;
    expect(due).toMatchObject({ status: 'overdue', dueBy: 'trips', tripsSinceVisit: 6, tripsLeft: -1, daysLeft: 364 });
    expect((await maintenance(tech, liftId)).tripsTotal).toBe(8);
  });

  it('lists overdue and due-soon lifts in the caller\'s scope only', async () => {
    // The other organization's lift is overdue too.
    await api(farOp).post('/auth/access/lift/maintenance/plan/set', { liftId: ids['DEMO-0004'], intervalDays: 10 });
    expect((await visit(farTech, ids['DEMO-0004']!, { endedAt: daysAgo(20) })).statusCode).toBe(200);

    const ours = body(await api(viewer).get('/auth/access/lift/maintenance/due')).result.list;
    expect(ours.map((l: any) => [l.deviceNo, l.due.status])).toEqual([
      ['DEMO-0003', 'overdue'],
      ['DEMO-0002', 'dueSoon'],
    ]);
    expect(body(await api(tech).get('/auth/access/lift/maintenance/due?status=overdue')).result.list.map((l: any) => l.deviceNo)).toEqual(['DEMO-0003']);
    expect(body(await api(farTech).get('/auth/access/lift/maintenance/due')).result.list.map((l: any) => l.deviceNo)).toEqual(['DEMO-0004']);
    expect(body(await admin.get('/auth/access/lift/maintenance/due')).result.list.map((l: any) => l.deviceNo)).toEqual(['DEMO-0004', 'DEMO-0003', 'DEMO-0002']);
  });

  it('fails a measured item outside its limits and refuses answers that do not fit the checklist', async () => {
    const liftId = ids['DEMO-0005']!;
    const { checklist } = await maintenance(tech, liftId);
    expect(checklist.map((i: any) => i.id)).toEqual(expect.arrayContaining(['oilLevel', 'systemPressure', 'ruptureValve']));

    // An item missing, an unknown one, a pass/fail item given a value: refused, nothing stored.
    const partial = await api(tech).post('/auth/access/lift/maintenance/visits/record', { liftId, results: answers(checklist).slice(1) });
    expect([partial.statusCode, body(partial).code, body(partial).result.missing]).toEqual([400, 'validation.failed', [checklist[0].id]]);
    const unknown = await api(tech).post('/auth/access/lift/maintenance/visits/record', { liftId, results: [...answers(checklist), { itemId: 'teleport', passed: true }] });
    expect(body(unknown).result.issues).toEqual([{ path: `results.${checklist.length}.itemId`, message: 'validation.invalid' }]);
    expect(await visitCount(liftId)).toBe(0);

    const res = await visit(tech, liftId, { findings: 'Oil low, topped up next week', partsUsed: ['Seal kit'] }, { oilLevel: 40, systemPressure: 35 });
    expect(res.statusCode).toBe(200);
    const v = body(res).result;
    expect(v).toMatchObject({ technicianId: tech.id, technicianName: tech.username, failedItems: ['oilLevel'], findings: 'Oil low, topped up next week', partsUsed: ['Seal kit'], incidentIds: [] });
    expect(v.results.find((r: any) => r.itemId === 'oilLevel')).toMatchObject({ value: 40, min: 60, max: 100, passed: false });
    expect(v.results.find((r: any) => r.itemId === 'systemPressure')).toMatchObject({ value: 35, passed: true });
    expect(body(await api(viewer).get(`/auth/access/lift/maintenance/visits/get?id=${v.id}`)).result).toEqual(v);
  });

  it('closes the incidents a visit resolved, refuses another lift\'s incident with nothing stored, and the logbook records it and still verifies', async () => {
    const liftId = ids['DEMO-0001']!;
    // An alarm's incident (a fault reported by the lift) and one opened by hand.
    await send('DEMO-0001', 'event', { code: 'EC' });
    await send('DEMO-0001', 'status', { status: { ...initialLiftStatus(1), faults: ['EC'] } });
    const fault = body(await api(tech).get(`/auth/access/incidents?liftId=${liftId}`)).result.list.find((i: any) => i.cause === 'fault');
    expect(fault).toMatchObject({ state: 'open', code: 'EC' });
    const manual = body(await api(tech).post('/auth/access/incidents/create', { liftId, title: 'Seat squeaks' })).result;
    const other = body(await api(tech).post('/auth/access/incidents/create', { liftId: ids['DEMO-0002'], title: 'Not this lift' })).result;
    const far = body(await api(farTech).post('/auth/access/incidents/create', { liftId: ids['DEMO-0004'], title: 'Elsewhere' })).result;
    const logbookBefore = body(await admin.post('/auth/access/lift/logbook/page', { liftId })).result.total;

    for (const wrong of [other.id, far.id, 999_999]) {
      const res = await visit(tech, liftId, { incidentIds: [manual.id, wrong] });
      expect([res.statusCode, body(res).code, body(res).result]).toEqual([409, 'visit.incidentNotOnLift', { incidentIds: [wrong] }]);
    }
    expect(await visitCount(liftId)).toBe(0);
    expect(body(await api(tech).get(`/auth/access/incidents/get?id=${manual.id}`)).result.incident.state).toBe('open');
    expect(body(await admin.post('/auth/access/lift/logbook/page', { liftId })).result.total).toBe(logbookBefore);

    const res = await visit(tech, liftId, { incidentIds: [fault.id, manual.id], rootCause: 'sensor', findings: 'Limit switch replaced', partsUsed: ['Limit switch'] });
    expect(res.statusCode).toBe(200);
    const v = body(res).result;
    expect(v.incidentIds).toEqual([fault.id, manual.id]);
    for (const id of [fault.id, manual.id]) {
      const d = body(await api(tech).get(`/auth/access/incidents/get?id=${id}`)).result;
      expect(d.incident).toMatchObject({ state: 'closed', rootCause: 'sensor', resolutionText: 'Limit switch replaced', partsUsed: ['Limit switch'] });
      expect(d.steps.map((s: any) => [s.from, s.to, s.actorId, s.note])).toEqual([
        [null, 'open', id === fault.id ? null : tech.id, null],
        ['open', 'acknowledged', tech.id, `保养记录 ${v.id}`],
        ['acknowledged', 'resolved', tech.id, `保养记录 ${v.id}`],
        ['resolved', 'closed', tech.id, `保养记录 ${v.id}`],
      ]);
    }
    // The fault's alert is settled with it.
    expect(body(await admin.get(`/auth/access/alerts?state=open&liftId=${liftId}`)).result.list.filter((a: any) => a.code === 'EC')).toHaveLength(0);
    // Closed now: naming it again is refused.
    expect(body(await visit(tech, liftId, { incidentIds: [manual.id] })).code).toBe('visit.incidentNotOnLift');

    const visits = body(await admin.post('/auth/access/lift/logbook/page', { liftId, kinds: ['visit'] })).result.list;
    expect(visits).toEqual([
      expect.objectContaining({
        actorId: tech.id,
        data: expect.objectContaining({ visitId: v.id, checked: v.results.length, failed: 0, failedItems: [], findings: 'Limit switch replaced', partsUsed: ['Limit switch'], incidentIds: [fault.id, manual.id] }),
      }),
    ]);
    const closed = body(await admin.post('/auth/access/lift/logbook/page', { liftId, kinds: ['incident'] })).result.list.filter((e: any) => e.data.to === 'closed');
    expect(closed.map((e: any) => e.data.incidentId).sort()).toEqual([fault.id, manual.id].sort());
    expect(body(await admin.post('/auth/access/lift/logbook/verify', { liftId })).result).toMatchObject({ ok: true, broken: null });
    const audit = await t.database.sql.query<{ result: string; detail: Record<string, unknown> }>(`select result, detail from audit_log where action = 'maintenance.visit' and lift_id = $1 order by id`, [liftId]);
    expect(audit.map((a) => a.result)).toEqual(['denied', 'denied', 'denied', 'ok', 'denied']);
  });

  it('keeps visits from viewers and other organizations: 403 to record, 404 for a lift or visit out of reach', async () => {
    const liftId = ids['DEMO-0005']!;
    const res = await visit(tech, liftId);
    const id = body(res).result.id;
    const before = await visitCount(liftId);
    const { checklist } = await maintenance(tech, liftId);
    const asViewer = await api(viewer).post('/auth/access/lift/maintenance/visits/record', { liftId, results: answers(checklist) });
    expect([asViewer.statusCode, body(asViewer).code]).toEqual([403, 'forbidden']);
    const asFar = await api(farTech).post('/auth/access/lift/maintenance/visits/record', { liftId, results: answers(checklist) });
    expect([asFar.statusCode, body(asFar).code]).toEqual([404, 'lift.notFound']);
    expect(await visitCount(liftId)).toBe(before);
    const read = await api(farTech).get(`/auth/access/lift/maintenance?liftId=${liftId}`);
    expect([read.statusCode, body(read).code]).toEqual([404, 'lift.notFound']);
    const get = await api(farTech).get(`/auth/access/lift/maintenance/visits/get?id=${id}`);
    expect([get.statusCode, body(get).code]).toEqual([404, 'visit.notFound']);
    const page = await api(farOp).get(`/auth/access/lift/maintenance/visits?liftId=${liftId}`);
    expect(page.statusCode).toBe(404);
  });

  it('mails each user who chose it the lifts due in their scope, in their language, once even when the job runs twice', async () => {
    await api(op).post('/auth/access/account/bind/email', { email: opMail });
    await api(op).post('/auth/access/account/profile/update', { language: 'en-US' });
    await api(farOp).post('/auth/access/account/bind/email', { email: farMail });
    await api(farOp).post('/auth/access/account/profile/update', { language: 'ru-RU' });
    const settings = { mailFaults: false, mailHelp: false, mailOffline: false, offlineMinutes: 60, liftIds: [], mailMaintenance: true };
    for (const u of [op, farOp]) expect((await api(u).post('/auth/access/account/notifications/update', settings)).statusCode).toBe(200);
    expect(body(await api(op).get('/auth/access/account/notifications')).result.mailMaintenance).toBe(true);

    await t.app.jobs.run('maintenance-mail');
    await t.app.jobs.run('maintenance-mail');
    await Promise.all([t.app.jobs.run('maintenance-mail'), t.app.jobs.run('maintenance-mail')]);
    const ours = smtp.mails.filter((m) => m.to.includes(opMail));
    expect(ours).toHaveLength(1);
    expect(ours[0]!.subject).toBe('LiftLink maintenance: 1 overdue, 1 due soon');
    const lines = ours[0]!.text.split(/\r?\n/).filter((l) => l.startsWith('- '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^- DEMO-0003.*: overdue; due .* \(364 days left\); 6 trips since the last visit \(interval 5\)$/);
    expect(lines[1]).toContain('DEMO-0002');
    expect(ours[0]!.text).not.toContain('DEMO-0004');
    expect(ours[0]!.text).toContain('https://lifts.example.test/lift/maintenance');
    const theirs = smtp.mails.filter((m) => m.to.includes(farMail));
    expect(theirs).toHaveLength(1);
    expect(theirs[0]!.subject).toBe('LiftLink, обслуживание: просрочено 1, скоро срок 0');
    expect(theirs[0]!.text).toContain('DEMO-0004');
    expect(theirs[0]!.text).toContain('просрочено');
    // The same slot's claim holds across instances: a second claim of the mark changes nothing.
    const [mark] = await t.database.sql.query<{ n: string }>(`select count(*) as n from maintenance_mail_marks`);
    expect(Number(mark!.n)).toBe(2);
  });

  it('finds the weekly slot: the configured weekday from the hour on', () => {
    const monday6 = new Date('2026-11-23T06:00:00Z');
    expect(lastMailSlot(new Date('2026-11-25T10:00:00Z'), 1, 6)).toEqual(monday6);
    expect(lastMailSlot(new Date('2026-11-23T05:59:00Z'), 1, 6)).toEqual(new Date('2026-11-16T06:00:00Z'));
    expect(lastMailSlot(new Date('2026-11-23T06:00:00Z'), 1, 6)).toEqual(monday6);
    expect(lastMailSlot(new Date('2026-11-25T03:00:00Z'), null, 6)).toEqual(new Date('2026-11-24T06:00:00Z'));
  });

  it('records a visit once however often its form sends it: a retry answers the first visit, two at once make one, another request under the key is refused', async () => {
    const liftId = ids['DEMO-0003']!;
    const record = (request: object) => api(tech).post('/auth/access/lift/maintenance/visits/record', request);
    const door = body(await api(tech).post('/auth/access/incidents/create', { liftId, title: 'Door rattles' })).result;
    const display = body(await api(tech).post('/auth/access/incidents/create', { liftId, title: 'Display dark' })).result;
    const visitsBefore = await visitCount(liftId);
    const { checklist } = await maintenance(tech, liftId);
    /** What the logbook holds about a visit and its incidents: the visit's entries and each incident's closings. */
    const logged = async (visitId: number, incidentId: number) => {
      const list = body(await admin.post('/auth/access/lift/logbook/page', { liftId, pageSize: 200 })).result.list;
      return {
        visits: list.filter((e: any) => e.kind === 'visit' && e.data.visitId === visitId).length,
        closings: list.filter((e: any) => e.kind === 'incident' && e.data.incidentId === incidentId && e.data.to === 'closed').length,
      };
    };
    const closings = async (incidentId: number) => body(await api(tech).get(`/auth/access/incidents/get?id=${incidentId}`)).result.steps.filter((s: any) => s.to === 'closed').length;

    // The answer got lost; the technician presses "Try again": the same request, the same key.
    const sent = { liftId, startedAt: daysAgo(0.05), results: answers(checklist), findings: 'Door adjusted', incidentIds: [door.id], idempotencyKey: randomUUID() };
    const first = await record(sent);
    const again = await record(sent);
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    const visit1 = body(first).result;
    expect(body(again).result).toEqual(visit1);
    expect(await visitCount(liftId)).toBe(visitsBefore + 1);
    expect(await closings(door.id)).toBe(1);
    expect(await logged(visit1.id, door.id)).toEqual({ visits: 1, closings: 1 });

    // The same key with another request: refused as a command's click would be, nothing stored.
    const other = await record({ ...sent, findings: 'Something else' });
    expect([other.statusCode, body(other).code, body(other).result]).toEqual([409, 'conflict', { idempotencyKey: sent.idempotencyKey }]);
    expect(await visitCount(liftId)).toBe(visitsBefore + 1);

    // Two tries at once (a double tap, a retry racing a slow first answer): one visit, both answers name it.
    const racing = { liftId, results: answers(checklist), incidentIds: [display.id], idempotencyKey: randomUUID() };
    const [x, y] = await Promise.all([record(racing), record(racing)]);
    expect([x.statusCode, y.statusCode]).toEqual([200, 200]);
    const visit2 = body(x).result;
    expect(body(y).result.id).toBe(visit2.id);
    expect(visit2.id).not.toBe(visit1.id);
    expect(await visitCount(liftId)).toBe(visitsBefore + 2);
    expect(await closings(display.id)).toBe(1);
    expect(await logged(visit2.id, display.id)).toEqual({ visits: 1, closings: 1 });
    expect(body(await admin.post('/auth/access/lift/logbook/verify', { liftId })).result).toMatchObject({ ok: true, broken: null });
    const audited = await t.database.sql.query<{ n: string }>(`select count(*) as n from audit_log where action = 'maintenance.visit' and result = 'ok' and target_id = any($1::text[])`, [[String(visit1.id), String(visit2.id)]]);
    expect(Number(audited[0]!.n)).toBe(2);

    // A key is the technician's own: without one, every request is a visit of its own (older clients).
    const { idempotencyKey: _k, ...keyless } = racing;
    expect((await record({ ...keyless, incidentIds: [] })).statusCode).toBe(200);
    expect((await record({ ...keyless, incidentIds: [] })).statusCode).toBe(200);
    expect(await visitCount(liftId)).toBe(visitsBefore + 4);
  });
});
