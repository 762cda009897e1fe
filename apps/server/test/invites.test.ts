import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, body, client, login, roleId, startTestApp, userWithRole, ADMIN_PASSWORD, type TestApp } from './helpers.ts';

/**
 * Organization invite codes (docs/product.md, "Invite codes"): a user administrator makes
 * them; a new account registers with one, or a signed-in account without organization
 * enters one, and joins the organization with the code's role. Accounts awaiting an
 * organization are told so in their user info, and an administrator can list and assign them.
 */
describe.each(DB_KINDS)('invite codes on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let admin: ReturnType<typeof client>;
  let operatorOrg: string;
  let operatorRole: string;
  let mobileSeq = 0;

  beforeAll(async () => {
    t = await startTestApp(kind);
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    const org = await admin.post('/auth/access/system/orgs/create', { name: `Metro ${kind}`, kind: 'operator' });
    operatorOrg = body(org).result.id;
    operatorRole = await roleId(t.database, 'operator');
    const [maker] = await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' limit 1`);
    // One lift the operator organization runs: what its members see.
    await t.database.sql.query(`insert into lifts (device_no, alias, kind, floors, manufacturer_org_id, operator_org_id) values ('LL-INV-1', 'Metro lift', 'inclinedStraightRack', 2, $1, $2)`, [maker!.id, operatorOrg]);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const createCode = async (extra: Partial<{ orgId: string; roleId: string; days: number; maxUses: number }> = {}) => {
    const res = await admin.post('/auth/access/system/invites/create', { orgId: operatorOrg, roleId: operatorRole, days: 7, maxUses: 1, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ id: string; code: string; prefix: string; expiresAt: string }>(res).result;
  };
  const listCodes = async () => body<{ list: { id: string; prefix: string; uses: number; maxUses: number; state: string; createdBy: string | null; organization: { name: string }; role: { name: string } }[] }>(await admin.get('/auth/access/system/invites')).result.list;
  const countRows = async (table: string) => Number((await t.database.sql.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n);

  async function registerForm(username: string, inviteCode?: string) {
    const mobile = `+7916${String(1_000_000 + ++mobileSeq).slice(1)}${kind === 'postgres' ? '1' : '2'}`;
    expect((await client(t.app).post('/account/sms', { mobile })).statusCode).toBe(200);
    const captcha = t.sms.filter((s) => s.mobile === mobile).at(-1)!.text.match(/\d{6}/)![0];
    return { email: `${username}@example.test`, username, password: 'Krepkiy-Parol-42', mobile, captcha, language: 'en-US' as const, ...(inviteCode !== undefined ? { inviteCode } : {}) };
  }
  /** Registers, follows the mailed activation link, signs in. */
  async function registerAndSignIn(username: string, inviteCode?: string) {
    const form = await registerForm(username, inviteCode);
    const res = await client(t.app).post('/auth/register', form);
    expect(res.statusCode, res.body).toBe(200);
    const link = t.mails.find((m) => m.to === form.email)!.text.match(/token=([\w-]+)/)![1];
    expect(body(await client(t.app).post('/auth/activate', { token: link })).success).toBe(true);
    const token = await login(t.app, username, form.password);
    const id = (body(await client(t.app, token).get('/auth/access/info')).result as { id: string }).id;
    return { ...form, id, token };
  }
  const info = async (token: string) => body<{ awaitingOrganization: boolean; organization: { id: string } | null; role: { name: string } }>(await client(t.app, token).get('/auth/access/info')).result;
  const liftCount = async (token: string) => body<{ total: number }>(await client(t.app, token).get('/auth/access/lift/get')).result.total;
  const audits = (action: string) => t.database.sql.query<{ result: string; detail: Record<string, unknown>; target_id: string | null; username: string | null }>('select result, detail, target_id, username from audit_log where action = $1 order by id', [action]);

  it('a user administrator creates a code shown whole once; the list shows its prefix, organization, role, uses and state', async () => {
    const created = await createCode({ maxUses: 3, days: 10 });
    expect(created.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{2}$/);
    expect(created.code.startsWith(created.prefix)).toBe(true);
    expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(9.9 * 86_400_000);
    const listed = (await listCodes()).find((c) => c.id === created.id)!;
    expect(listed).toMatchObject({ prefix: created.prefix, uses: 0, maxUses: 3, state: 'active', createdBy: 'admin', organization: { name: `Metro ${kind}` }, role: { name: 'operator' } });
    // The stored row holds no code, only its hash.
    const stored = JSON.stringify(await t.database.sql.query('select * from org_invites where id = $1', [created.id]));
    expect(stored).not.toContain(created.code.replace(/-/g, ''));
    expect(JSON.stringify(await admin.get('/auth/access/system/invites').then((r) => r.json()))).not.toContain(created.code.replace(/-/g, '').slice(4));
    const [entry] = (await audits('invite.create')).filter((a) => a.target_id === created.id);
    expect(entry!.detail).toMatchObject({ prefix: created.prefix, orgName: `Metro ${kind}`, roleName: 'operator', maxUses: 3, days: 10 });
    expect(JSON.stringify(entry!.detail)).not.toContain(created.code.replace(/-/g, ''));
  });

  it('a role without user.add can neither list, create nor revoke codes', async () => {
    const code = await createCode();
    const viewer = client(t.app, (await userWithRole(t, adminToken, 'operator', undefined, operatorOrg)).token);
    const before = await countRows('org_invites');
    expect(body(await viewer.get('/auth/access/system/invites')).code).toBe('forbidden');
    expect(body(await viewer.post('/auth/access/system/invites/create', { orgId: operatorOrg, roleId: operatorRole, days: 7, maxUses: 1 })).code).toBe('forbidden');
    expect(body(await viewer.post('/auth/access/system/invites/revoke', { id: code.id })).code).toBe('forbidden');
    expect(await countRows('org_invites')).toBe(before);
    expect((await listCodes()).find((c) => c.id === code.id)!.state).toBe('active');
  });

  it('refuses bad input with field errors and makes nothing', async () => {
    const before = await countRows('org_invites');
    const bad = await admin.post('/auth/access/system/invites/create', { orgId: operatorOrg, roleId: operatorRole, days: 0, maxUses: 100_000 });
    expect(body(bad).code).toBe('validation.failed');
    expect(body(bad).result.issues).toEqual(expect.arrayContaining([{ path: 'days', message: 'validation.inviteDays' }, { path: 'maxUses', message: 'validation.inviteUses' }]));
    const noOrg = await admin.post('/auth/access/system/invites/create', { orgId: '00000000-0000-4000-8000-000000000000', roleId: operatorRole, days: 7, maxUses: 1 });
    expect(body(noOrg).code).toBe('org.notFound');
    expect(body(await admin.post('/auth/access/system/invites/revoke', { id: '00000000-0000-4000-8000-000000000000' })).code).toBe('invite.notFound');
    expect(await countRows('org_invites')).toBe(before);
  });

  it('registering with a code (any case, spaces, dashes) joins its organization with its role; the user sees its lifts', async () => {
    const code = await createCode({ maxUses: 2 });
    const typed = ` ${code.code.toLowerCase().replace(/-/g, ' ')} `;
    const user = await registerAndSignIn(`reg_code_${kind}`, typed);
    const me = await info(user.token);
    expect(me.organization?.id).toBe(operatorOrg);
    expect(me.role.name).toBe('operator');
    expect(me.awaitingOrganization).toBe(false);
    expect(await liftCount(user.token)).toBe(1);
    expect((await listCodes()).find((c) => c.id === code.id)).toMatchObject({ uses: 1, state: 'active' });
    const [entry] = (await audits('auth.register')).filter((a) => a.username === user.username);
    expect(entry!.detail).toMatchObject({ invite: { id: code.id, prefix: code.prefix, orgName: `Metro ${kind}`, roleName: 'operator' } });
  });

  it('a wrong code refuses the registration with a field error and creates nothing (the SMS code stays usable)', async () => {
    const form = await registerForm(`reg_wrong_${kind}`, 'ZZZZ-ZZZZ-ZZ');
    const users = await countRows('users');
    const res = await client(t.app).post('/auth/register', form);
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ code: 'validation.failed', result: { issues: [{ path: 'inviteCode', message: 'validation.inviteCodeInvalid' }] } });
    const malformed = await client(t.app).post('/auth/register', { ...form, inviteCode: 'abc' });
    expect(body(malformed).result.issues).toEqual([{ path: 'inviteCode', message: 'validation.inviteCode' }]);
    expect(await countRows('users')).toBe(users);
    // Without the code the same form registers: nothing was spent.
    const { inviteCode: _dropped, ...withoutCode } = form;
    expect((await client(t.app).post('/auth/register', withoutCode)).statusCode).toBe(200);
    await t.database.sql.query('delete from auth_throttle');
  });

  it('without a code the account awaits an organization and sees no lift; entering a code later lets it in', async () => {
    const user = await registerAndSignIn(`later_${kind}`);
    const me = await info(user.token);
    expect(me).toMatchObject({ awaitingOrganization: true, organization: null, role: { name: 'viewer' } });
    expect(await liftCount(user.token)).toBe(0);

    const code = await createCode();
    const res = await client(t.app, user.token).post('/auth/access/account/invite/redeem', { code: code.code.toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res).result).toEqual({ organization: { id: operatorOrg, name: `Metro ${kind}` }, role: { id: operatorRole, name: 'operator' } });
    expect(await info(user.token)).toMatchObject({ awaitingOrganization: false, organization: { id: operatorOrg }, role: { name: 'operator' } });
    expect(await liftCount(user.token)).toBe(1);
    const [entry] = (await audits('invite.redeem')).filter((a) => a.username === user.username);
    expect(entry).toMatchObject({ result: 'ok', detail: { invite: { id: code.id, orgName: `Metro ${kind}` } } });

    // A member cannot redeem another code: a clear error, and the code is not counted.
    const other = await createCode();
    const again = await client(t.app, user.token).post('/auth/access/account/invite/redeem', { code: other.code });
    expect(body(again).code).toBe('user.hasOrganization');
    expect((await listCodes()).find((c) => c.id === other.id)!.uses).toBe(0);
  });

  it('an expired, used-up or revoked code is refused and changes nothing', async () => {
    const expired = await createCode();
    await t.database.sql.query(`update org_invites set expires_at = now() - interval '1 second' where id = $1`, [expired.id]);
    const usedUp = await createCode({ maxUses: 1 });
    await registerAndSignIn(`used_${kind}`, usedUp.code);
    const revoked = await createCode();
    expect(body(await admin.post('/auth/access/system/invites/revoke', { id: revoked.id })).success).toBe(true);
    const states = new Map((await listCodes()).map((c) => [c.id, c.state]));
    expect([states.get(expired.id), states.get(usedUp.id), states.get(revoked.id)]).toEqual(['expired', 'usedUp', 'revoked']);
    expect((await audits('invite.revoke')).filter((a) => a.target_id === revoked.id)).toHaveLength(1);

    const user = await registerAndSignIn(`refused_${kind}`);
    for (const code of [expired, usedUp, revoked]) {
      const res = await client(t.app, user.token).post('/auth/access/account/invite/redeem', { code: code.code });
      expect(body(res)).toMatchObject({ code: 'validation.failed', result: { issues: [{ path: 'code', message: 'validation.inviteCodeInvalid' }] } });
    }
    expect(await info(user.token)).toMatchObject({ awaitingOrganization: true, organization: null });
    expect((await listCodes()).find((c) => c.id === usedUp.id)!.uses).toBe(1);
    const form = await registerForm(`reg_revoked_${kind}`, revoked.code);
    expect(body(await client(t.app).post('/auth/register', form)).code).toBe('validation.failed');
    await t.database.sql.query('delete from auth_throttle');
  });

  it('concurrent redeems never pass the use count', async () => {
    const code = await createCode({ maxUses: 2 });
    const users = await Promise.all([0, 1, 2, 3, 4].map((i) => registerAndSignIn(`race${i}_${kind}`)));
    const answers = await Promise.all(users.map((u) => client(t.app, u.token).post('/auth/access/account/invite/redeem', { code: code.code })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(2);
    expect(answers.filter((a) => body(a).code === 'validation.failed')).toHaveLength(3);
    expect((await listCodes()).find((c) => c.id === code.id)).toMatchObject({ uses: 2, state: 'usedUp' });
    const joined = await t.database.sql.query('select 1 from users where org_id = $1 and username like $2', [operatorOrg, `race%_${kind}`]);
    expect(joined).toHaveLength(2);
    await t.database.sql.query('delete from auth_throttle');
  });

  it('wrong codes count in the sign-in throttle: guessing is blocked', async () => {
    const user = await registerAndSignIn(`guess_${kind}`);
    const guess = () => client(t.app, user.token).post('/auth/access/account/invite/redeem', { code: 'ABCD-EFGH-JK' });
    // Five failures are free (as for a password); the sixth blocks the account for a while.
    for (let i = 0; i < 6; i++) expect(body(await guess()).code).toBe('validation.failed');
    const blocked = await guess();
    expect(blocked.statusCode).toBe(429);
    expect(body(blocked).code).toBe('auth.tooManyAttempts');
    // Even the right code waits now.
    const code = await createCode();
    expect(body(await client(t.app, user.token).post('/auth/access/account/invite/redeem', { code: code.code })).code).toBe('auth.tooManyAttempts');
    expect((await audits('invite.redeem')).filter((a) => a.username === user.username && a.result === 'failed').length).toBeGreaterThanOrEqual(5);
    await t.database.sql.query('delete from auth_throttle');
  });

  it('an administrator lists the accounts awaiting an organization and assigns one (user.edit, audited)', async () => {
    const waiting = await registerAndSignIn(`waiting_${kind}`);
    const member = await userWithRole(t, adminToken, 'viewer', `member_${kind}`, operatorOrg);
    const page = body<{ list: { id: string; username: string }[]; total: number }>(await admin.get('/auth/access/system/users?awaiting=true&pageSize=200')).result;
    const names = page.list.map((u) => u.username);
    expect(names).toContain(waiting.username);
    expect(names).not.toContain(member.username);
    expect(names).not.toContain('admin');
    expect(page.total).toBe(page.list.length);
    expect(body(await admin.get('/auth/access/system/users?pageSize=200')).result.total).toBeGreaterThan(page.total);

    // A role with user.query but not user.edit cannot assign.
    const roleRes = await admin.post('/auth/access/system/roles/create', { name: `Auditors ${kind}`, permissions: [{ permissionId: 'user', actions: ['query'] }] });
    const auditor = await userWithRole(t, adminToken, 'viewer', `auditor_${kind}`, operatorOrg);
    await admin.post('/auth/access/system/users/update', { id: auditor.id, roleId: body(roleRes).result.id });
    const waitingId = waiting.id;
    const refused = await client(t.app, auditor.token).post('/auth/access/system/users/assign', { id: waitingId, orgId: operatorOrg, roleId: operatorRole });
    expect(body(refused).code).toBe('forbidden');

    expect(body(await admin.post('/auth/access/system/users/assign', { id: waitingId, orgId: operatorOrg, roleId: 'not-a-uuid' })).code).toBe('validation.failed');
    expect(await info(waiting.token)).toMatchObject({ awaitingOrganization: true });
    const res = await admin.post('/auth/access/system/users/assign', { id: waitingId, orgId: operatorOrg, roleId: operatorRole });
    expect(res.statusCode, res.body).toBe(200);
    expect(await info(waiting.token)).toMatchObject({ awaitingOrganization: false, organization: { id: operatorOrg }, role: { name: 'operator' } });
    expect(await liftCount(waiting.token)).toBe(1);
    const [entry] = (await audits('user.assign')).filter((a) => a.target_id === waitingId);
    expect(entry).toMatchObject({ result: 'ok', username: 'admin', detail: { orgName: `Metro ${kind}`, roleName: 'operator' } });
    // Assigned once: a second assignment is refused, and the list no longer names the account.
    expect(body(await admin.post('/auth/access/system/users/assign', { id: waitingId, orgId: operatorOrg, roleId: operatorRole })).code).toBe('user.hasOrganization');
    const after = body<{ list: { username: string }[] }>(await admin.get('/auth/access/system/users?awaiting=true&pageSize=200')).result.list.map((u) => u.username);
    expect(after).not.toContain(waiting.username);
  });
});
