import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, hasPermission } from '@liftlink/protocol';
import { ADMIN_PASSWORD, DB_KINDS, body, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/**
 * Walks every declared route with every built-in role: a route needing a permission the
 * role lacks answers 403 `forbidden`; any other answer may be 2xx or a 4xx about the
 * request itself, but never 401/403. Without a token every non-public route gives 401.
 */
describe.each(DB_KINDS)('route access matrix on %s', (kind) => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp(kind);
    const admin = await login(t.app, 'admin', ADMIN_PASSWORD);
    for (const role of Object.keys(BUILT_IN_ROLES)) tokens[role] = (await userWithRole(t, admin, role)).token;
  });
  afterAll(() => t.close());

  it('declares access on every route', () => {
    expect(t.app.declaredRoutes.length).toBeGreaterThan(20);
  });

  it('refuses exactly what each role lacks', async () => {
    // Side-effect free probes: ids that match no record, so nothing changes.
    const probeBody = { id: '00000000-0000-4000-8000-000000000000' };
    const checked: string[] = [];
    for (const route of t.app.declaredRoutes) {
      if (route.access === 'public' || route.url.includes('logout') || route.url.includes(':')) continue;
      for (const [role, token] of Object.entries(tokens)) {
        const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers: { 'access-token': token }, ...(route.method === 'POST' ? { payload: probeBody } : {}) });
        const perms = BUILT_IN_ROLES[role as keyof typeof BUILT_IN_ROLES].permissions;
        const allowed = route.access === 'authenticated' || hasPermission(perms, route.access);
        if (allowed) expect([401, 403].includes(res.statusCode) && body(res).code !== 'user.self', `${role} ${route.method} ${route.url}: ${res.body}`).toBe(false);
        else expect(body(res).code, `${role} ${route.method} ${route.url}`).toBe('forbidden');
        checked.push(`${role} ${route.method} ${route.url}`);
      }
      const anon = await t.app.inject({ method: route.method as 'GET', url: route.url });
      expect(anon.statusCode, `anonymous ${route.method} ${route.url}`).toBe(401);
    }
    expect(checked.length).toBeGreaterThan(60);
  });

  it('audits a denial', async () => {
    const rows = await t.database.sql.query<{ action: string }>(`select action from audit_log where action = 'access.denied'`);
    expect(rows.length).toBeGreaterThan(0);
  });
});
