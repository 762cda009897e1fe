import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/lib/crypto.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

describe.each(DB_KINDS)('sign-in and sessions on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  it('gives a fresh random token per login, stored only as a hash', async () => {
    const a = await login(t.app, 'admin', ADMIN_PASSWORD);
    const b = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url').length).toBeGreaterThanOrEqual(16);
    const stored = await t.database.sql.query<{ token_hash: string }>('select token_hash from sessions');
    expect(stored.some((s) => s.token_hash === a || s.token_hash.includes(a))).toBe(false);
  });

  it('sets an HttpOnly session cookie that authenticates reads', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const cookie = res.cookies.find((c) => c.name === 'Access-Token')!;
    expect(cookie.httpOnly).toBe(true);
    const info = await t.app.inject({ method: 'GET', url: '/auth/access/info', cookies: { 'Access-Token': cookie.value } });
    expect(info.statusCode).toBe(200);
    expect(body(info).result.username).toBe('admin');
  });

  it('answers a wrong password with the spec error and writes no token', async () => {
    const res = await client(t.app).post('/auth/access/login', { username: 'admin', password: 'wrong-password' });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe('auth.badCredentials');
    expect(body(res).msg).toBe('Invalid username or password');
    const unknownUser = await client(t.app).post('/auth/access/login', { username: 'nobody-here', password: 'whatever1' });
    expect(body(unknownUser).code).toBe('auth.badCredentials');
  });

  it('returns user info with permissions in the spec shape and routes filtered by permission', async () => {
    const info = body(await client(t.app, adminToken).get('/auth/access/info')).result;
    expect(info.role.permissions.find((p: any) => p.permissionId === 'lift').actionList).toContain('query');
    expect(info.role.permissions[0].actionEntitySet[0]).toHaveProperty('action');
    expect(info.routes.map((r: any) => r.path)).toContain('/system');
    const viewer = await userWithRole(t, adminToken, 'viewer');
    const vinfo = body(await client(t.app, viewer.token).get('/auth/access/info')).result;
    expect(vinfo.routes.map((r: any) => r.path)).not.toContain('/system');
    expect(vinfo.routes.map((r: any) => r.path)).toContain('/lift');
  });

  it('refuses user info for a role without permissions (roles must be a non-null array)', async () => {
    const role = body(await client(t.app, adminToken).post('/auth/access/system/roles/create', { name: `empty-${kind}`, permissions: [] })).result;
    const password = 'Empty-Role-Pass-9';
    await client(t.app, adminToken).post('/auth/access/system/users/create', { username: `empty-${kind}`, name: 'E', password, roleId: role.id });
    const token = await login(t.app, `empty-${kind}`, password);
    const res = await client(t.app, token).get('/auth/access/info');
    expect(res.statusCode).toBe(403);
    expect(body(res).msg).toBe('roles must be a non-null array');
  });

  it('revokes the token on logout: reusing it gives 401', async () => {
    const token = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect((await client(t.app, token).post('/auth/access/logout')).statusCode).toBe(200);
    const res = await client(t.app, token).get('/auth/access/info');
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe('auth.unauthorized');
  });

  it('rejects an expired token with 401', async () => {
    const token = await login(t.app, 'admin', ADMIN_PASSWORD);
    // Only this session runs out: the others stay the other tests'.
    await t.database.sql.query(`update sessions set expires_at = now() - interval '1 second' where token_hash = $1`, [sha256(token)]);
    expect((await client(t.app, token).get('/auth/access/info')).statusCode).toBe(401);
    expect((await client(t.app, adminToken).get('/auth/access/info')).statusCode).toBe(200);
  });

  it('requires the CSRF header for cookie-authenticated writes, not for the Access-Token header', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const session = res.cookies.find((c) => c.name === 'Access-Token')!.value;
    const hi = await t.app.inject({ method: 'GET', url: '/auth/Hi' });
    const csrf = hi.cookies.find((c) => c.name === 'XSRF-TOKEN')!;
    expect(csrf.httpOnly).toBeFalsy();
    const payload = { name: 'Administrator' };
    const url = '/auth/access/account/profile/update';
    const without = await t.app.inject({ method: 'POST', url, payload, cookies: { 'Access-Token': session, 'XSRF-TOKEN': csrf.value } });
    expect(without.statusCode).toBe(403);
    expect(body(without).code).toBe('csrf.invalid');
    const wrong = await t.app.inject({ method: 'POST', url, payload, cookies: { 'Access-Token': session, 'XSRF-TOKEN': csrf.value }, headers: { 'x-xsrf-token': 'nope' } });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({ method: 'POST', url, payload, cookies: { 'Access-Token': session, 'XSRF-TOKEN': csrf.value }, headers: { 'x-xsrf-token': csrf.value } });
    expect(right.statusCode).toBe(200);
    expect((await client(t.app, session).post(url, payload)).statusCode).toBe(200);
  });

  it('enforces the password rules on the server and ends the other sessions on success', async () => {
    const u = await userWithRole(t, adminToken, 'operator');
    const other = await login(t.app, u.username, u.password);
    const api = client(t.app, u.token);
    const short = await api.post('/auth/access/pwd/update', { oldPassword: u.password, password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(body(short).result.issues).toEqual([{ path: 'password', message: 'validation.passwordShort' }]);
    const empty = await api.post('/auth/access/pwd/update', { oldPassword: '', password: '' });
    expect(body(empty).result.issues.map((i: any) => i.message)).toContain('validation.required');
    const common = await api.post('/auth/access/pwd/update', { oldPassword: u.password, password: 'password123' });
    expect(body(common).code).toBe('auth.passwordCommon');
    const wrongOld = await api.post('/auth/access/pwd/update', { oldPassword: 'not-the-old-one', password: 'A-Fine-New-Pass-1' });
    expect(body(wrongOld).code).toBe('auth.oldPasswordWrong');
    const done = await api.post('/auth/access/pwd/update', { oldPassword: u.password, password: 'A-Fine-New-Pass-1' });
    expect(done.statusCode).toBe(200);
    expect(body(done).msg).toBe('modification successful');
    expect((await client(t.app, other).get('/auth/access/info')).statusCode).toBe(401);
    expect((await api.get('/auth/access/info')).statusCode).toBe(200);
    await login(t.app, u.username, 'A-Fine-New-Pass-1');
  });

  it('refuses a frozen account with its own code and ends its sessions at once', async () => {
    const u = await userWithRole(t, adminToken, 'viewer');
    await client(t.app, adminToken).post('/auth/access/system/users/freeze', { id: u.id });
    expect((await client(t.app, u.token).get('/auth/access/info')).statusCode).toBe(401);
    const res = await client(t.app).post('/auth/access/login', { username: u.username, password: u.password });
    expect(res.statusCode).toBe(403);
    expect(body(res).code).toBe('auth.frozen');
    await client(t.app, adminToken).post('/auth/access/system/users/thaw', { id: u.id });
    await login(t.app, u.username, u.password);
  });

  it('slows and then refuses repeated failures (429), without locking the user out for good', async () => {
    const u = await userWithRole(t, adminToken, 'viewer');
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await client(t.app).post('/auth/access/login', { username: u.username, password: 'wrong-' + i })).statusCode);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[6]).toBe(429);
    const blocked = await client(t.app).post('/auth/access/login', { username: u.username, password: u.password });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // When the block runs out the right password works again and clears the count.
    await t.database.sql.query(`update auth_throttle set blocked_until = now() - interval '1 second'`);
    await login(t.app, u.username, u.password);
    const [row] = await t.database.sql.query(`select 1 from auth_throttle where key = $1`, [`account:${u.username.toLowerCase()}`]);
    expect(row).toBeUndefined();
  });

  it('signs in by mobile and a single-use SMS code valid 5 minutes', async () => {
    const u = await userWithRole(t, adminToken, 'operator');
    const mobile = `+861380000${Math.floor(1000 + Math.random() * 8999)}`;
    await client(t.app, adminToken).post('/auth/access/system/users/update', { id: u.id, mobile });
    expect((await client(t.app).post('/account/sms', { mobile })).statusCode).toBe(200);
    const again = await client(t.app).post('/account/sms', { mobile });
    expect(again.statusCode).toBe(429);
    expect(body(again).code).toBe('auth.smsTooSoon');
    const code = t.sms.at(-1)!.text.match(/\d{6}/)![0];
    const wrong = await client(t.app).post('/auth/access/login', { type: 'mobile', mobile, captcha: code === '000000' ? '111111' : '000000' });
    expect(body(wrong).code).toBe('auth.badCaptcha');
    const res = await client(t.app).post('/auth/access/login', { type: 'mobile', mobile, captcha: code });
    expect(res.statusCode).toBe(200);
    const reuse = await client(t.app).post('/auth/access/login', { type: 'mobile', mobile, captcha: code });
    expect(body(reuse).code).toBe('auth.badCaptcha');
  });

  it('asks a two-step account for an SMS code after the password', async () => {
    const u = await userWithRole(t, adminToken, 'operator');
    const mobile = `+861390000${Math.floor(1000 + Math.random() * 8999)}`;
    await client(t.app, adminToken).post('/auth/access/system/users/update', { id: u.id, mobile, twoStep: true });
    expect(body(await client(t.app).get(`/auth/2step-code?username=${u.username}`)).result.stepCode).toBe(true);
    const first = await client(t.app).post('/auth/access/login', { username: u.username, password: u.password });
    expect(first.statusCode).toBe(401);
    expect(body(first).result).toEqual({ stepCode: true });
    await client(t.app).post('/account/sms', { mobile });
    const code = t.sms.at(-1)!.text.match(/\d{6}/)![0];
    const second = await client(t.app).post('/auth/access/login', { username: u.username, password: u.password, captcha: code });
    expect(second.statusCode).toBe(200);
  });

  it('audits security events with UTC time, user and address, and never a secret', async () => {
    const [{ last }] = (await t.database.sql.query<{ last: string }>(`select coalesce(max(id), 0) as last from audit_log`)) as [{ last: string }];
    // Each event of its own: sign-in, a wrong password, sign-out, a password change refused
    // and done, a frozen account refused.
    const u = await userWithRole(t, adminToken, 'operator');
    await client(t.app).post('/auth/access/login', { username: u.username, password: 'Wrong-Secret-Xyz' });
    expect((await client(t.app, await login(t.app, u.username, u.password)).post('/auth/access/logout')).statusCode).toBe(200);
    expect(body(await client(t.app, u.token).post('/auth/access/pwd/update', { oldPassword: 'Wrong-Secret-Old', password: 'A-Fine-New-Pass-2' })).code).toBe('auth.oldPasswordWrong');
    expect((await client(t.app, u.token).post('/auth/access/pwd/update', { oldPassword: u.password, password: 'A-Fine-New-Pass-2' })).statusCode).toBe(200);
    await client(t.app, adminToken).post('/auth/access/system/users/freeze', { id: u.id });
    expect(body(await client(t.app).post('/auth/access/login', { username: u.username, password: 'A-Fine-New-Pass-2' })).code).toBe('auth.frozen');
    const rows = await t.database.sql.query<{ action: string; result: string; ip: string; detail: unknown; ts: Date; username: string }>(`select * from audit_log where id > $1`, [last]);
    const actions = new Set(rows.map((r) => `${r.action}:${r.result}`));
    for (const a of ['auth.login:ok', 'auth.login:failed', 'auth.logout:ok', 'auth.passwordChange:ok', 'auth.passwordChange:failed', 'auth.login:denied']) expect(actions).toContain(a);
    expect(rows.every((r) => r.ip === '127.0.0.1' && r.ts instanceof Date)).toBe(true);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Wrong-Secret-Xyz');
    expect(text).not.toContain(ADMIN_PASSWORD);
  });
});
