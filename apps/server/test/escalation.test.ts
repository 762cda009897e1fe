import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CODES, auditReasonText } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { escalateDue } from '../src/modules/escalation/escalate.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { openLiveSocket } from './support/live-socket.ts';

type User = { id: string; token: string; username: string };

/**
 * Escalation (docs/service.md): an organization's on-call list asked in turn when nobody
 * acknowledges an incident, then its manager, by mail (the test mailer) and in the app (the
 * notifications route and the live socket); once acknowledged the others learn who took it.
 * The time passing is the escalation row's due time moved into the past; the job runs on call.
 */
describe.each(DB_KINDS)('escalation on %s', (kind) => {
  let t: TestApp;
  let httpUrl: string;
  let admin: ReturnType<typeof client>;
  let adminToken: string;
  const lifts: Record<string, string> = {};
  let ops: string;
  let far: string;
  let first: User;
  let second: User;
  let manager: User;
  let viewer: User;
  let farTech: User;
  let farOrgAdmin: User;
  const mail = (u: User) => `${u.username}@example.test`;
  const mailsTo = (u: User) => t.mails.filter((m) => m.to === mail(u));
  const policyUrl = (orgId: string) => `/auth/access/system/orgs/escalation?orgId=${orgId}`;
  const notifications = async (u: User) => body(await client(t.app, u.token).get('/auth/access/notifications/incidents')).result as { list: { kind: string; incidentId: number; manager: boolean; actorName: string | null; read: boolean; id: number }[]; unread: number };
  const runJob = () => t.app.jobs.run('escalation');
  /** The acknowledge time of the incident's current step passes. */
  const timePasses = (incidentId: number) => t.database.sql.query(`update incident_escalations set next_due_at = now() - interval '1 second' where incident_id = $1 and next_due_at is not null`, [incidentId]);
  const open = async (title: string, priority?: string) => {
    const res = await admin.post('/auth/access/incidents/create', { liftId: lifts['DEMO-0001'], title, ...(priority ? { priority } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ id: number }>(res).result.id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    httpUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    await ensureDemoFleet(t.database.sql, 2);
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) lifts[l.deviceNo] = l.id;
    ops = body(await admin.post('/auth/access/system/orgs/create', { name: `Ops ${kind}`, kind: 'operator' })).result.id;
    far = body(await admin.post('/auth/access/system/orgs/create', { name: `Far ${kind}`, kind: 'operator' })).result.id;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: ops, liftIds: [lifts['DEMO-0001']] });
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: far, liftIds: [lifts['DEMO-0002']] });
    first = await userWithRole(t, adminToken, 'technician', `first-${kind}`, ops);
    second = await userWithRole(t, adminToken, 'technician', `second-${kind}`, ops);
    manager = await userWithRole(t, adminToken, 'operator', `manager-${kind}`, ops);
    viewer = await userWithRole(t, adminToken, 'viewer', `viewer-${kind}`, ops);
    farTech = await userWithRole(t, adminToken, 'technician', `fartech-${kind}`, far);
    // A user of the other organization who may administer organizations.
    const role = body(await admin.post('/auth/access/system/roles/create', { name: `org-admin-${kind}`, roleType: 'admin', permissions: [{ permissionId: 'org', actions: ['query', 'edit'], scope: 'all' }] })).result.id;
    const password = 'Strong-Pass-' + Math.random().toString(36).slice(2, 8);
    const created = await admin.post('/auth/access/system/users/create', { username: `farorg-${kind}`, name: `farorg-${kind}`, password, roleId: role, orgId: far });
    expect(created.statusCode, created.body).toBe(200);
    farOrgAdmin = { id: body(created).result.id, token: await login(t.app, `farorg-${kind}`, password), username: `farorg-${kind}` };
    const languages: [User, string][] = [[first, 'en-US'], [second, 'ru-RU'], [manager, 'zh-CN']];
    for (const [u, language] of languages) {
      const api = client(t.app, u.token);
      expect((await api.post('/auth/access/account/bind/email', { email: mail(u) })).statusCode).toBe(200);
      expect((await api.post('/auth/access/account/profile/update', { language })).statusCode).toBe(200);
    }
  }, 60_000);
  afterAll(() => t?.close());

  it('refuses a bad policy with a clear error and changes nothing', async () => {
    const good = { orgId: ops, onCall: [first.id, second.id], managerId: manager.id, ackMinutes: 5 };
    const tries: [object, number, string][] = [
      [{ ...good, ackMinutes: 0 }, 400, 'validation.failed'],
      [{ ...good, ackMinutes: 1441 }, 400, 'validation.failed'],
      [{ ...good, ackMinutesByPriority: { critical: 0 } }, 400, 'validation.failed'],
      [{ ...good, onCall: [first.id, first.id] }, 400, 'validation.failed'],
      // A viewer may not acknowledge; a user of another organization is not ours.
      [{ ...good, onCall: [first.id, viewer.id] }, 400, 'escalation.notCandidate'],
      [{ ...good, onCall: [farTech.id] }, 400, 'escalation.notCandidate'],
      [{ ...good, managerId: farOrgAdmin.id }, 400, 'escalation.notCandidate'],
    ];
    for (const [payload, status, code] of tries) {
      const res = await admin.post('/auth/access/system/orgs/escalation/update', payload);
      expect([res.statusCode, body(res).code], JSON.stringify(payload)).toEqual([status, code]);
    }
    const refused = await admin.post('/auth/access/system/orgs/escalation/update', { ...good, onCall: [farTech.id] });
    expect(body(refused).result).toEqual({ userIds: [farTech.id] });
    expect(body(refused).msg).toBe(API_CODES['escalation.notCandidate'].msg);
    // The reason reads in every language (the audit log; the web client has its errors.* texts).
    expect(auditReasonText('escalation.notCandidate', 'ru-RU')).toContain('Дежурными');
    const res = await admin.get(policyUrl(ops));
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).result).toMatchObject({ onCall: [], managerId: null, ackMinutes: 10, updatedAt: null });
    // The candidates: the organization's active users who may work on incidents.
    expect(body(res).result.candidates.map((c: { id: string }) => c.id).sort()).toEqual([first.id, second.id, manager.id].sort());
  });

  it('keeps another organization out of the policy', async () => {
    const api = client(t.app, farOrgAdmin.token);
    const read = await api.get(policyUrl(ops));
    expect([read.statusCode, body(read).code]).toEqual([404, 'org.notFound']);
    const write = await api.post('/auth/access/system/orgs/escalation/update', { orgId: ops, onCall: [], managerId: null, ackMinutes: 3 });
    expect([write.statusCode, body(write).code]).toEqual([404, 'org.notFound']);
    expect(body(await admin.get(policyUrl(ops))).result.ackMinutes).toBe(10);
    // Its own organization it reaches; a technician (no org permission) reaches none.
    expect((await api.get(policyUrl(far))).statusCode).toBe(200);
    const tech = await client(t.app, first.token).get(policyUrl(ops));
    expect([tech.statusCode, body(tech).code]).toEqual([403, 'forbidden']);
  });

  it('asks the on-call list in turn, then the manager; the others learn who took it', async () => {
    const saved = await admin.post('/auth/access/system/orgs/escalation/update', { orgId: ops, onCall: [first.id, second.id], managerId: manager.id, ackMinutes: 5, ackMinutesByPriority: { critical: 2 } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(body(saved).result).toMatchObject({ onCall: [first.id, second.id], managerId: manager.id, ackMinutes: 5, ackMinutesByPriority: { critical: 2 }, updatedByName: 'admin' });

    const socket = await openLiveSocket(httpUrl, first.token);
    await socket.next('ready', (m) => m.type === 'ready');
    const id = await open('Door sensor stuck');

    // At the job's next run the first on call is asked: in the app, live, and by mail in English.
    expect(await runJob()).toMatchObject({ started: 1, escalated: 1 });
    const live = await socket.next('notification', (m) => m.type === 'notification');
    expect(live.notification).toMatchObject({ kind: 'escalated', incidentId: id, manager: false, title: 'Door sensor stuck' });
    socket.close();
    const mine = await notifications(first);
    expect(mine.unread).toBe(1);
    expect(mine.list[0]).toMatchObject({ kind: 'escalated', incidentId: id, read: false });
    expect(mailsTo(first)).toHaveLength(1);
    expect(mailsTo(first)[0]!.subject).toContain('incident waiting for you');
    expect(mailsTo(first)[0]!.text).toContain(`/lift/incidents/${id}`);
    const [row] = await t.database.sql.query<{ late: boolean; early: boolean }>(
      `select next_due_at > now() + interval '4 minutes' as late, next_due_at < now() + interval '6 minutes' as early from incident_escalations where incident_id = $1`,
      [id],
    );
    expect(row).toEqual({ late: true, early: true });

    // Before the acknowledge time passes nobody else is asked.
    expect(await runJob()).toMatchObject({ escalated: 0, mails: 0 });
    expect(mailsTo(second)).toHaveLength(0);

    // It passes: two instances at once ask the second on call once (in Russian).
    await timePasses(id);
    const [a, b] = await Promise.all([escalateDue(t.app), escalateDue(t.app)]);
    expect(a + b).toBe(1);
    expect(await runJob()).toMatchObject({ escalated: 0, mails: 1 });
    expect(mailsTo(second)).toHaveLength(1);
    expect(mailsTo(second)[0]!.subject).toContain('инцидент ждёт вас');
    expect((await notifications(second)).list.map((n) => n.kind)).toEqual(['escalated']);

    // Then the manager (in Chinese), and after the manager nobody more.
    await timePasses(id);
    expect(await runJob()).toMatchObject({ escalated: 1, mails: 1 });
    expect(mailsTo(manager)[0]!.subject).toContain('事件无人确认');
    expect((await notifications(manager)).list[0]).toMatchObject({ kind: 'escalated', manager: true });
    await timePasses(id);
    expect(await runJob()).toMatchObject({ escalated: 0 });
    expect(mailsTo(first)).toHaveLength(1);

    // The incident's timeline names whom each step asked.
    const detail = body(await admin.get(`/auth/access/incidents/get?id=${id}`)).result;
    const escalations = detail.steps.filter((s: { escalatedTo?: string | null }) => s.escalatedTo);
    expect(escalations.map((s: { escalatedTo: string; escalatedManager: boolean }) => [s.escalatedTo, s.escalatedManager])).toEqual([
      [first.username, false],
      [second.username, false],
      [manager.username, true],
    ]);
    const audited = await t.database.sql.query<{ n: string }>(`select count(*) as n from audit_log where action = 'incident.escalate' and target_id = $1`, [String(id)]);
    expect(Number(audited[0]!.n)).toBe(3);

    // The second on call takes it: the first and the manager are told who, by mail and in the app, at once.
    const before = t.mails.length;
    const ack = await client(t.app, second.token).post('/auth/access/incidents/transition', { id, to: 'acknowledged' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(t.mails.length - before).toBe(2);
    expect(mailsTo(first)[1]!.subject).toContain(`LiftLink incident taken by ${second.username}: DEMO-0001`);
    expect(mailsTo(manager)[1]!.subject).toContain(`已由 ${second.username} 接手`);
    expect((await notifications(first)).list[0]).toMatchObject({ kind: 'taken', incidentId: id, actorName: second.username });
    expect((await notifications(manager)).list[0]).toMatchObject({ kind: 'taken', actorName: second.username });
    expect((await notifications(second)).list.map((n) => n.kind)).toEqual(['escalated']);
    // Nothing is told twice, and nobody more is asked.
    await timePasses(id);
    expect(await runJob()).toMatchObject({ escalated: 0, told: 0, mails: 0 });

    // Read: the bell's count goes down.
    const firstList = await notifications(first);
    expect(firstList.unread).toBe(2);
    expect((await client(t.app, first.token).post('/auth/access/notifications/incidents/read', { ids: firstList.list.map((n) => n.id) })).statusCode).toBe(200);
    expect((await notifications(first)).unread).toBe(0);
    // Nobody reads another's: the manager's stay unread.
    expect((await notifications(manager)).unread).toBe(2);
  });

  it('waits the acknowledge time of the priority, skips who may no longer be asked, and tells nobody of a cancelled incident', async () => {
    // The first on call left the role that may work on incidents.
    await t.database.sql.query(`update users set role_id = (select role_id from users where id = $2) where id = $1`, [first.id, viewer.id]);
    const id = await open('Rope frayed', 'critical');
    expect(await runJob()).toMatchObject({ started: 1, escalated: 1 });
    expect((await notifications(second)).list[0]).toMatchObject({ kind: 'escalated', incidentId: id });
    expect((await notifications(first)).list.every((n) => n.incidentId !== id)).toBe(true);
    const [row] = await t.database.sql.query<{ ok: boolean }>(
      `select next_due_at between now() + interval '1 minute' and now() + interval '3 minutes' as ok from incident_escalations where incident_id = $1`,
      [id],
    );
    expect(row!.ok).toBe(true);
    const cancelled = await admin.post('/auth/access/incidents/transition', { id, to: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await timePasses(id);
    const count = (await notifications(second)).list.length;
    expect(await runJob()).toMatchObject({ escalated: 0, told: 0 });
    expect((await notifications(second)).list).toHaveLength(count);
  });

  it('leaves incidents of a lift without a policy and those opened before it alone', async () => {
    const res = await admin.post('/auth/access/incidents/create', { liftId: lifts['DEMO-0002'], title: 'Far away' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await runJob()).toMatchObject({ started: 0, escalated: 0 });
  });
});
