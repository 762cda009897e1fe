import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_COOKIE } from '@liftlink/protocol';
import { ConfigError, loadConfig } from '../src/config.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { completeProviderLogin, startOidcProvider, type OidcProviderProcess } from './support/oidc-provider.ts';

/** Sign-in with another provider: a real OpenID Connect provider (oidc-provider) and the server in process. */
const PUBLIC_URL = 'http://127.0.0.1:18080';
const CALLBACK = `${PUBLIC_URL}/auth/oidc/corp/callback`;

type Jar = Record<string, string>;
const keep = (jar: Jar, res: { cookies: { name: string; value: string }[] }) => {
  for (const c of res.cookies) jar[c.name] = c.value;
};

describe.each(DB_KINDS)('sign-in with another provider on %s', (kind) => {
  let provider: OidcProviderProcess;
  let t: TestApp;
  let adminToken: string;

  /** A browser's sign-in: start at LiftLink, log in at the provider as `login`, come back; returns where LiftLink sends the browser. */
  async function signInAs(login_: string, opts: { redirect?: string; jar?: Jar } = {}): Promise<{ location: URL; jar: Jar; back: URL }> {
    const jar = opts.jar ?? {};
    const query = opts.redirect === undefined ? '' : `?redirect=${encodeURIComponent(opts.redirect)}`;
    const start = await t.app.inject({ method: 'GET', url: `/auth/oidc/corp/start${query}`, cookies: jar });
    expect(start.statusCode, start.body).toBe(302);
    keep(jar, start);
    const back = await completeProviderLogin(start.headers.location as string, login_);
    expect(back.href.startsWith(CALLBACK)).toBe(true);
    const callback = await t.app.inject({ method: 'GET', url: back.pathname + back.search, cookies: jar });
    expect(callback.statusCode, callback.body).toBe(302);
    keep(jar, callback);
    return { location: new URL(callback.headers.location as string, PUBLIC_URL), jar, back };
  }

  /** What the login page does with `?sso=`: takes over the session; returns the user it belongs to. */
  async function takeOver(location: URL, jar: Jar) {
    const res = await t.app.inject({ method: 'POST', url: '/auth/oidc/session', cookies: jar, payload: { code: location.searchParams.get('sso') } });
    expect(res.statusCode, res.body).toBe(200);
    const { token } = body<{ token: string }>(res).result;
    const info = body(await client(t.app, token).get('/auth/access/info')).result;
    return { token, info };
  }

  const users = async () => (await t.database.sql.query<{ username: string }>('select username from users order by username')).map((r) => r.username);
  const audits = async (action: string) => t.database.sql.query<{ result: string; username: string | null; detail: Record<string, unknown> }>('select result, username, detail from audit_log where action = $1 order by id', [action]);

  beforeAll(async () => {
    provider = await startOidcProvider({
      redirectUri: CALLBACK,
      accounts: {
        'ann-sub': { email: 'ann.lee@example.com', emailVerified: true, name: 'Ann Lee' },
        'bob-sub': { email: 'bob@elsewhere.org', emailVerified: true },
        'carl-sub': { email: 'carl@example.com', emailVerified: false },
        'dora-sub': { email: 'dora@example.com', emailVerified: true },
        'eve-sub': { email: 'eve@acme.org', emailVerified: true },
      },
    });
    t = await startTestApp(kind, {
      PUBLIC_URL,
      OIDC_PROVIDERS: 'corp',
      OIDC_CORP_ISSUER: provider.issuer,
      OIDC_CORP_CLIENT_ID: provider.clientId,
      OIDC_CORP_CLIENT_SECRET: provider.clientSecret,
      OIDC_CORP_LABEL: 'Corp SSO',
      OIDC_CORP_DOMAINS: 'example.com=Acme Operators:operator; acme.org=No Such Org:viewer',
    });
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    expect(body(await client(t.app, adminToken).post('/auth/access/system/orgs/create', { name: 'Acme Operators', kind: 'operator' })).success).toBe(true);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await provider?.stop();
  });

  it('offers the configured providers on the login page, and none without configuration', async () => {
    expect(body(await client(t.app).get('/auth/public/site')).result.providers).toEqual([{ id: 'corp', label: 'Corp SSO' }]);
    const plain = await startTestApp(kind);
    try {
      expect(body(await client(plain.app).get('/auth/public/site')).result.providers).toEqual([]);
      const start = await plain.app.inject({ method: 'GET', url: '/auth/oidc/corp/start' });
      expect(start.headers.location).toBe('/user/login?ssoError=unknownProvider');
    } finally {
      await plain.close();
    }
  });

  it('sends the browser to the provider with PKCE, state and nonce', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/corp/start' });
    const target = new URL(start.headers.location as string);
    expect(target.origin).toBe(provider.issuer);
    expect(Object.fromEntries(['response_type', 'client_id', 'redirect_uri', 'code_challenge_method'].map((k) => [k, target.searchParams.get(k)]))).toEqual({ response_type: 'code', client_id: provider.clientId, redirect_uri: CALLBACK, code_challenge_method: 'S256' });
    for (const k of ['state', 'nonce', 'code_challenge']) expect(target.searchParams.get(k)).toMatch(/^[\w-]{20,}$/);
    expect(start.cookies.find((c) => c.name === 'liftlink_oidc')).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth/oidc' });
  });

  it('creates the account of a mapped domain at the first sign-in and signs it in like a password sign-in', async () => {
    const { location, jar } = await signInAs('ann-sub', { redirect: '/lifts?page=2' });
    expect(location.pathname).toBe('/user/login');
    expect(location.searchParams.get('redirect')).toBe('/lifts?page=2');
    expect(jar[TOKEN_COOKIE]).toBeTruthy();
    const { info } = await takeOver(location, jar);
    expect(info).toMatchObject({ username: 'ann.lee', name: 'Ann Lee', email: 'ann.lee@example.com', organization: { name: 'Acme Operators' }, role: { name: 'operator' } });
    // The cookie alone is a session too, as after a password sign-in.
    expect(body(await t.app.inject({ method: 'GET', url: '/auth/access/info', cookies: { [TOKEN_COOKIE]: jar[TOKEN_COOKIE]! } })).result.username).toBe('ann.lee');
    // The code is worth one take-over only.
    expect(body(await t.app.inject({ method: 'POST', url: '/auth/oidc/session', cookies: jar, payload: { code: location.searchParams.get('sso') } })).code).toBe('auth.tokenInvalid');
    expect(await audits('auth.oidcAccountCreated')).toEqual([{ result: 'ok', username: 'ann.lee', detail: { provider: 'corp', organization: 'Acme Operators', role: 'operator' } }]);
    expect((await audits('auth.login')).at(-1)).toEqual({ result: 'ok', username: 'ann.lee', detail: { method: 'oidc', provider: 'corp' } });
    const [row] = await t.database.sql.query<{ last_login_at: Date | null }>(`select last_login_at from users where username = 'ann.lee'`);
    expect(row!.last_login_at).not.toBeNull();
  });

  it('signs a known subject in again as the same user, even with a changed e-mail', async () => {
    provider.accounts.set('ann-sub', { email: 'ann@elsewhere.org', emailVerified: true });
    const again = await signInAs('ann-sub');
    const { info } = await takeOver(again.location, again.jar);
    expect(info.username).toBe('ann.lee');
    expect((await audits('auth.oidcAccountCreated')).length).toBe(1);
    expect((await users()).filter((u) => u.toLowerCase().startsWith('ann'))).toEqual(['ann.lee']);
  });

  it('refuses an unmapped domain, an unverified e-mail and a missing organization, and creates nothing', async () => {
    const before = await users();
    for (const [who, code] of [['bob-sub', 'domainNotMapped'], ['carl-sub', 'emailNotVerified'], ['eve-sub', 'notConfigured']] as const) {
      const { location, jar } = await signInAs(who);
      expect(`${location.pathname}${location.search}`).toBe(`/user/login?ssoError=${code}`);
      expect(jar[TOKEN_COOKIE]).toBeUndefined();
      expect((await audits('auth.login')).at(-1)).toEqual({ result: 'failed', username: null, detail: { method: 'oidc', provider: 'corp', reason: code } });
    }
    expect(await users()).toEqual(before);
  });

  it('does not link an e-mail a local account has: the administrator decides', async () => {
    expect(body(await client(t.app, adminToken).post('/auth/access/system/users/create', { username: 'dora', name: 'Dora', email: 'dora@example.com', password: 'Strong-Pass-dora1', roleId: (await t.database.sql.query<{ id: string }>(`select id from roles where name = 'viewer'`))[0]!.id })).success).toBe(true);
    const { location } = await signInAs('dora-sub');
    expect(location.searchParams.get('ssoError')).toBe('localAccountExists');
    expect(await t.database.sql.query(`select 1 from oidc_identities where subject = 'dora-sub'`)).toEqual([]);
  });

  it('refuses a frozen linked user as a password sign-in refuses it', async () => {
    const [ann] = await t.database.sql.query<{ id: string }>(`select id from users where username = 'ann.lee'`);
    await client(t.app, adminToken).post('/auth/access/system/users/freeze', { id: ann!.id });
    const { location, jar } = await signInAs('ann-sub');
    expect(location.searchParams.get('ssoError')).toBe('frozen');
    expect(jar[TOKEN_COOKIE]).toBeUndefined();
    expect((await audits('auth.login')).at(-1)).toEqual({ result: 'denied', username: 'ann.lee', detail: { method: 'oidc', provider: 'corp', reason: 'frozen' } });
    await client(t.app, adminToken).post('/auth/access/system/users/thaw', { id: ann!.id });
  });

  it('refuses a tampered, replayed or foreign state', async () => {
    // Replayed: the same callback a second time.
    const { back, jar } = await signInAs('ann-sub');
    const replay = await t.app.inject({ method: 'GET', url: back.pathname + back.search, cookies: jar });
    expect(replay.headers.location).toBe('/user/login?ssoError=stateInvalid');
    expect(replay.cookies.find((c) => c.name === TOKEN_COOKIE)).toBeUndefined();

    // Tampered: another state than the one the sign-in started with.
    const jar2: Jar = {};
    const start = await t.app.inject({ method: 'GET', url: '/auth/oidc/corp/start' });
    keep(jar2, start);
    const back2 = await completeProviderLogin(start.headers.location as string, 'ann-sub');
    back2.searchParams.set('state', `${back2.searchParams.get('state')}x`);
    expect((await t.app.inject({ method: 'GET', url: back2.pathname + back2.search, cookies: jar2 })).headers.location).toBe('/user/login?ssoError=stateInvalid');

    // A forged code with the right state: the provider does not redeem it.
    const jar4: Jar = {};
    const start4 = await t.app.inject({ method: 'GET', url: '/auth/oidc/corp/start' });
    keep(jar4, start4);
    const back4 = await completeProviderLogin(start4.headers.location as string, 'ann-sub');
    back4.searchParams.set('code', 'forged-code');
    const forged = await t.app.inject({ method: 'GET', url: back4.pathname + back4.search, cookies: jar4 });
    expect(forged.headers.location).toBe('/user/login?ssoError=providerFailed');
    expect(JSON.stringify(forged.headers)).not.toContain('forged-code');

    // Foreign: the right state in another browser (no flow cookie, or another one).
    const start3 = await t.app.inject({ method: 'GET', url: '/auth/oidc/corp/start' });
    const back3 = await completeProviderLogin(start3.headers.location as string, 'ann-sub');
    expect((await t.app.inject({ method: 'GET', url: back3.pathname + back3.search })).headers.location).toBe('/user/login?ssoError=stateInvalid');
    expect((await t.app.inject({ method: 'GET', url: back3.pathname + back3.search, cookies: { liftlink_oidc: 'A'.repeat(43) } })).headers.location).toBe('/user/login?ssoError=stateInvalid');
    expect((await audits('auth.login')).at(-1)).toEqual({ result: 'failed', username: null, detail: { method: 'oidc', provider: 'corp', reason: 'stateInvalid' } });
  });

  it('keeps a same-origin path as the destination and ignores any other', async () => {
    for (const [asked, kept] of [
      ['/lifts/1?tab=log#top', '/lifts/1?tab=log#top'],
      ['//evil.example/x', '/'],
      ['https://evil.example/', '/'],
      ['/\\evil.example', '/'],
      ['javascript:alert(1)', '/'],
    ]) {
      const { location } = await signInAs('ann-sub', { redirect: asked });
      expect(location.searchParams.get('redirect'), asked).toBe(kept);
    }
  });

  it('stops the start on a bad provider setting, naming the variable', () => {
    const base = { PUBLIC_URL, OIDC_PROVIDERS: 'corp', OIDC_CORP_ISSUER: 'https://id.example.com', OIDC_CORP_CLIENT_ID: 'c', OIDC_CORP_CLIENT_SECRET: 's' };
    expect(loadConfig(base).oidc.map((p) => [p.id, p.label, [...p.domains]])).toEqual([['corp', 'corp', []]]);
    const bad = (env: Record<string, string>, variable: string) => {
      expect(() => loadConfig({ ...base, ...env })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base, ...env })).toThrow(variable);
    };
    bad({ OIDC_CORP_CLIENT_SECRET: '' }, 'OIDC_CORP_CLIENT_SECRET');
    bad({ OIDC_CORP_ISSUER: 'http://id.example.com' }, 'OIDC_CORP_ISSUER');
    bad({ OIDC_CORP_DOMAINS: 'example.com=Acme' }, 'OIDC_CORP_DOMAINS');
    bad({ OIDC_CORP_DOMAINS: 'not a domain=Acme:viewer' }, 'OIDC_CORP_DOMAINS');
    bad({ OIDC_CORP_DOMAINS: 'a.com=A:viewer;A.com=B:viewer' }, 'OIDC_CORP_DOMAINS');
    bad({ OIDC_PROVIDERS: 'corp,Bad-Id' }, 'OIDC_PROVIDERS');
    bad({ PUBLIC_URL: '' }, 'PUBLIC_URL');
  });
});
