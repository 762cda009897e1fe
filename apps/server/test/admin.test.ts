import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, roleId, startTestApp, userWithRole, type TestApp } from './helpers.ts';

describe.each(DB_KINDS)('administration on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
  });
  afterAll(() => t.close());

  it('creates, lists, edits users and refuses duplicates', async () => {
    const viewer = await roleId(t.database, 'viewer');
    const created = await admin.post('/auth/access/system/users/create', { username: 'olga', name: 'Ольга Петрова', email: 'olga@example.test', password: 'Olga-Strong-Pass-1', roleId: viewer });
    expect(created.statusCode).toBe(200);
    const dup = await admin.post('/auth/access/system/users/create', { username: 'OLGA', name: 'x', password: 'Olga-Strong-Pass-1', roleId: viewer });
    expect(dup.statusCode).toBe(409);
    expect(body(dup).result.fields).toContain('username');
    const list = body(await admin.get('/auth/access/system/users?keyword=olg')).result;
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({ username: 'olga', name: 'Ольга Петрова', status: 'active', role: { name: 'viewer' } });
    await admin.post('/auth/access/system/users/update', { id: list.list[0].id, name: 'Olga P.', roleId: await roleId(t.database, 'operator') });
    const after = body(await admin.get('/auth/access/system/users?keyword=olga')).result.list[0];
    expect(after).toMatchObject({ name: 'Olga P.', role: { name: 'operator' } });
  });

  it('resets a password and ends all sessions of a user', async () => {
    const u = await userWithRole(t, await login(t.app, 'admin', ADMIN_PASSWORD), 'operator');
    await admin.post('/auth/access/system/users/reset-password', { id: u.id, password: 'Reset-By-Admin-5' });
    expect((await client(t.app, u.token).get('/auth/access/info')).statusCode).toBe(401);
    const token = await login(t.app, u.username, 'Reset-By-Admin-5');
    const ended = body(await admin.post('/auth/access/system/users/end-sessions', { id: u.id })).result.ended;
    expect(ended).toBe(1);
    expect((await client(t.app, token).get('/auth/access/info')).statusCode).toBe(401);
  });

  it('keeps the administrator from freezing themself', async () => {
    const me = body(await admin.get('/auth/access/info')).result;
    expect(body(await admin.post('/auth/access/system/users/freeze', { id: me.id })).code).toBe('user.self');
  });

  it('edits role permissions, which change what the role may do at once', async () => {
    const created = body(await admin.post('/auth/access/system/roles/create', { name: 'auditor', permissions: [{ permissionId: 'user', actions: ['query'] }] })).result;
    const password = 'Auditor-Pass-123';
    await admin.post('/auth/access/system/users/create', { username: `auditor`, name: 'A', password, roleId: created.id });
    const auditor = client(t.app, await login(t.app, 'auditor', password));
    expect((await auditor.get('/auth/access/system/users')).statusCode).toBe(200);
    expect((await auditor.get('/auth/access/system/roles')).statusCode).toBe(403);
    await admin.post('/auth/access/system/roles/update', { id: created.id, permissions: [{ permissionId: 'role', actions: ['query'] }, { permissionId: 'role', actions: ['query'] }] });
    expect((await auditor.get('/auth/access/system/users')).statusCode).toBe(403);
    expect((await auditor.get('/auth/access/system/roles')).statusCode).toBe(200);
    const roles = body(await admin.get('/auth/access/system/roles')).result.list;
    expect(roles.find((r: any) => r.name === 'auditor')).toMatchObject({ userCount: 1, permissions: [{ permissionId: 'role', actions: ['query'] }] });
    expect(body(await admin.post('/auth/access/system/roles/delete', { id: created.id })).code).toBe('role.inUse');
    const builtIn = roles.find((r: any) => r.name === 'viewer');
    expect(body(await admin.post('/auth/access/system/roles/delete', { id: builtIn.id })).code).toBe('role.builtIn');
    const unknownAction = await admin.post('/auth/access/system/roles/create', { name: 'bad', permissions: [{ permissionId: 'lift', actions: ['fly'] }] });
    expect(unknownAction.statusCode).toBe(400);
  });

  it('creates organizations and assigns lifts only to operators; users see only their organization', async () => {
    const op = body(await admin.post('/auth/access/system/orgs/create', { name: 'Городской лифт-сервис', kind: 'operator' })).result;
    const maker = body(await admin.get('/auth/access/system/orgs')).result.list.find((o: any) => o.kind === 'manufacturer');
    const [lift] = await t.database.sql.query<{ id: string }>(
      `insert into lifts (device_no, kind, floors, manufacturer_org_id) values ('LL-0001', 'verticalHydraulic', 2, $1) returning id`,
      [maker.id],
    );
    expect(body(await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: maker.id, liftIds: [lift!.id] })).code).toBe('org.notOperator');
    expect(body(await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: ['00000000-0000-4000-8000-000000000000'] })).code).toBe('lift.notFound');
    expect((await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: [lift!.id] })).statusCode).toBe(200);
    const lifts = body(await admin.get(`/auth/access/system/orgs/lifts?orgId=${op.id}`)).result.list;
    expect(lifts.map((l: any) => l.deviceNo)).toEqual(['LL-0001']);
    expect(body(await admin.post('/auth/access/system/orgs/delete', { id: op.id })).code).toBe('org.inUse');
    const audit = await t.database.sql.query<{ action: string }>(`select action from audit_log where action like 'org.%'`);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['org.create', 'org.assignLifts']));
  });
});
