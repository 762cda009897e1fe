import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { BUILT_IN_ROLES, defaultConfig, hasPermission, type LiftInfo, type Permission, type PermissionCheck } from '@liftlink/protocol';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/**
 * The authorization model end to end. Three lifts stand in three relations to the users:
 * - `assigned`: made by maker M, assigned to operator O (O's own lift, a lift M serves);
 * - `stock`: made by M, assigned to nobody (a lift M serves);
 * - `foreign`: made by maker M2, assigned to operator O2 (nobody's here but the administrator's).
 * Every built-in role is placed in an organization of each kind. The expectations below
 * are written from the model's definition, not computed by the server's policy.
 */
type LiftKey = 'assigned' | 'stock' | 'foreign';
type Org = 'M' | 'M2' | 'O' | 'O2';
const LIFTS: Record<LiftKey, { maker: Org; operator: Org | null; deviceNo: string }> = {
  assigned: { maker: 'M', operator: 'O', deviceNo: 'MX-ASSIGNED' },
  stock: { maker: 'M', operator: null, deviceNo: 'MX-STOCK' },
  foreign: { maker: 'M2', operator: 'O2', deviceNo: 'MX-FOREIGN' },
};
const BUILT_IN = Object.keys(BUILT_IN_ROLES) as (keyof typeof BUILT_IN_ROLES)[];
/** Each built-in role in a maker's and an operator's organization (the administrator in none). */
const PLACEMENTS = BUILT_IN.flatMap((role): { role: keyof typeof BUILT_IN_ROLES; org: Org | null }[] =>
  role === 'administrator' ? [{ role, org: null }] : [{ role, org: 'M' }, { role, org: 'O' }],
);

/** Served scope (every non-administrator built-in role): the lifts its organization made or operates. */
function serves(org: Org | null, lift: LiftKey): boolean {
  return org !== null && (LIFTS[lift].maker === org || LIFTS[lift].operator === org);
}
function reaches(p: { role: string; org: Org | null }, lift: LiftKey, route: string): boolean {
  if (p.role === 'administrator') return true;
  // The factory bench is the maker's tool: below scope `all`, only lifts the organization made.
  if (route.startsWith('/manufacture/')) return p.org !== null && LIFTS[lift].maker === p.org;
  return serves(p.org, lift);
}

interface Probe {
  route: `${'GET' | 'POST'} ${string}`;
  /** The request for one lift (valid for the route's schema, so only access decides). */
  request: (lift: { id: string; deviceNo: string; alertId: number }) => { url?: string; payload?: object };
  /** The answer when the lift is out of reach (404 for a lift that "does not exist"). */
  outOfReach?: (res: LightMyRequestResponse) => void;
  /** The answer in reach, when it is not a success (the record the probe names does not exist). */
  inReach?: (res: LightMyRequestResponse) => void;
}

const notFound = (code: string) => (res: LightMyRequestResponse) => {
  expect(res.statusCode).toBe(404);
  expect(body(res).code).toBe(code);
};

/** Every route that works on one lift. A route taking a lift that is missing here fails the test. */
const LIFT_PROBES: Probe[] = [
  { route: 'POST /auth/access/lift/getInfo', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'GET /auth/access/lift/run/logs/get', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/lift/run/logs/export', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'POST /auth/access/lift/logbook/page', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /auth/access/lift/logbook/verify', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /auth/access/lift/logbook/export', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /auth/access/lift/alias/update', request: (l) => ({ payload: { liftId: l.id, alias: 'Matrix' } }) },
  { route: 'POST /auth/access/lift/setting/update', request: (l) => ({ payload: { liftId: l.id, location: { address: '1 Matrix Road' } } }) },
  { route: 'POST /auth/access/lift/iot/update', request: (l) => ({ payload: { liftId: l.id, iotInfo: { notes: 'matrix' } } }) },
  { route: 'POST /auth/access/lift/control', request: (l) => ({ payload: { liftId: l.id, command: 'pause', args: {} } }) },
  { route: 'GET /auth/access/lift/lease', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'POST /auth/access/lift/lease/take', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /auth/access/lift/lease/renew', request: (l) => ({ payload: { liftId: l.id, epoch: 1 } }) },
  { route: 'POST /auth/access/lift/lease/release', request: (l) => ({ payload: { liftId: l.id, epoch: 1 } }) },
  // No command of that click: the lift is found, the command is not.
  { route: 'POST /auth/access/lift/command/cancel', request: (l) => ({ payload: { liftId: l.id, idempotencyKey: 'matrix-0000000000000000' } }), inReach: notFound('command.notFound') },
  { route: 'POST /auth/access/lift/config/read', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /auth/access/lift/run/setting/update', request: (l) => ({ payload: { liftId: l.id, config: {}, version: 0 } }) },
  { route: 'GET /auth/access/lift/config/logs', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/lift/commands', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/lift/stats/daily', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/lift/samples', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/dashboard/availability', request: (l) => ({ url: `?level=lift&liftId=${l.id}&from=2026-01&to=2026-02` }) },
  { route: 'POST /auth/access/alerts/ack', request: (l) => ({ payload: { id: l.alertId } }), outOfReach: notFound('notFound') },
  { route: 'GET /manufacture/lift/getNewIot', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'POST /manufacture/lift/resetIot', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'POST /manufacture/lift/setLiftConfig', request: (l) => ({ payload: { liftId: l.id, config: defaultConfig('inclinedStraightRack', 2), version: 0 } }) },
  { route: 'POST /manufacture/lift/run/config/set', request: (l) => ({ payload: { liftId: l.id, config: {}, version: 0 } }) },
  { route: 'GET /manufacture/lift/getConfigLogs', request: (l) => ({ url: `?liftId=${l.id}` }) },
  {
    route: 'GET /manufacture/lift/lookup',
    request: (l) => ({ url: `?deviceNo=${l.deviceNo}` }),
    // Looking a number up is not an error: another maker's lift is simply not found.
    outOfReach: (res) => {
      expect(res.statusCode).toBe(200);
      expect(body(res).result.lift).toBeNull();
    },
  },
  // Two-person approval (approvals.test.ts): a new click's key each time, so every call is a request of its own.
  { route: 'POST /auth/access/lift/approval/request', request: (l) => ({ payload: { liftId: l.id, command: 'aging', args: { target: 'overall' }, reason: 'Matrix', idempotencyKey: `matrix-${Math.random().toString(36).slice(2, 14)}` } }) },
  { route: 'GET /auth/access/lift/approval/list', request: (l) => ({ url: `?liftId=${l.id}` }) },
  // Incidents (incidents.test.ts): opened by hand on the lift; a lift's maintenance windows, none out of reach.
  { route: 'POST /auth/access/incidents/create', request: (l) => ({ payload: { liftId: l.id, title: 'Matrix' } }) },
  {
    route: 'GET /auth/access/lift/maintenance-windows',
    request: (l) => ({ url: `?liftId=${l.id}` }),
    outOfReach: (res) => {
      expect(res.statusCode).toBe(200);
      expect(body(res).result.list).toEqual([]);
    },
  },
  // Maintenance plans and visits (maintenance.test.ts); an empty checklist answer is refused for the lift's checklist, after the scope.
  { route: 'GET /auth/access/lift/maintenance', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'GET /auth/access/lift/condition', request: (l) => ({ url: `?liftId=${l.id}` }) },
  // A lift's firmware updates (firmware-campaigns.test.ts): none here, but one out of reach is not found.
  { route: 'GET /auth/access/lift/firmware-updates', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'POST /auth/access/lift/maintenance/plan/set', request: (l) => ({ payload: { liftId: l.id, intervalDays: 90 } }) },
  { route: 'POST /auth/access/lift/maintenance/plan/delete', request: (l) => ({ payload: { liftId: l.id } }) },
  { route: 'GET /auth/access/lift/maintenance/visits', request: (l) => ({ url: `?liftId=${l.id}` }) },
  { route: 'POST /auth/access/lift/maintenance/visits/record', request: (l) => ({ payload: { liftId: l.id, results: [] } }) },
];

/** Routes that list lifts' records: what each placement sees of the three lifts. */
const LIST_PROBES: { route: `GET ${string}`; query: string; liftIds: (res: LightMyRequestResponse) => string[] }[] = [
  { route: 'GET /auth/access/lift/get', query: '?pageSize=100', liftIds: (res) => body(res).result.list.map((l: { id: string }) => l.id) },
  { route: 'GET /auth/access/alerts', query: '?pageSize=100', liftIds: (res) => body(res).result.list.map((a: { liftId: string }) => a.liftId) },
  { route: 'GET /auth/access/incidents', query: '?pageSize=200', liftIds: (res) => body(res).result.list.map((i: { liftId: string }) => i.liftId) },
  { route: 'GET /auth/access/operation-log', query: '?pageSize=100', liftIds: (res) => body(res).result.list.map((e: { liftId: string }) => e.liftId) },
  { route: 'GET /auth/access/dashboard/workplace', query: '', liftIds: (res) => body(res).result.attention.map((a: { liftId: string }) => a.liftId) },
];

/**
 * Routes that name a lift but answer for it otherwise: the operation log's export takes a
 * lift as a filter of the same query as the list above; registering a number and the
 * bench's serial steps treat another maker's lift as "registered" (manufacture.test.ts).
 */
const NAMES_A_LIFT_OTHERWISE = new Set(['GET /auth/access/operation-log/export', 'POST /manufacture/lift/updateLiftIotInfo', 'POST /manufacture/lift/serial/log']);

const key = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe.each(DB_KINDS)('authorization model on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  const orgs = {} as Record<Org, string>;
  const lifts = {} as Record<LiftKey, { id: string; deviceNo: string; alertId: number }>;
  const users: { role: keyof typeof BUILT_IN_ROLES; org: Org | null; token: string; label: string }[] = [];

  async function addOrg(name: string, orgKind: 'manufacturer' | 'operator'): Promise<string> {
    const [row] = await t.database.sql.query<{ id: string }>(`insert into organizations (name, kind) values ($1, $2) returning id`, [name, orgKind]);
    return row!.id;
  }
  /** Each lift offline, unconfigured, with one open alert. */
  async function resetLifts(): Promise<void> {
    await t.database.sql.query(`update alerts set acknowledged_at = null, acknowledged_by = null, acknowledged_by_name = null`);
    await t.database.sql.query(`update lifts set config = null, config_version = 0, online = false`);
  }

  beforeAll(async () => {
    // The walk sends more requests from one address than the default limit allows in a minute.
    t = await startTestApp(kind, { RATE_LIMIT_MAX: '100000' });
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const [maker] = await t.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
    orgs.M = maker!.id;
    orgs.M2 = await addOrg('Other Maker', 'manufacturer');
    orgs.O = await addOrg('Operator One', 'operator');
    orgs.O2 = await addOrg('Operator Two', 'operator');
    for (const [name, l] of Object.entries(LIFTS) as [LiftKey, (typeof LIFTS)[LiftKey]][]) {
      const [row] = await t.database.sql.query<{ id: string }>(
        `insert into lifts (device_no, kind, floors, manufacturer_org_id, operator_org_id) values ($1, 'inclinedStraightRack', 2, $2, $3) returning id`,
        [l.deviceNo, orgs[l.maker], l.operator ? orgs[l.operator] : null],
      );
      const [alert] = await t.database.sql.query<{ id: string }>(`insert into alerts (lift_id, kind, code) values ($1, 'help', null) returning id`, [row!.id]);
      await t.database.sql.query(`insert into incidents (lift_id, cause, priority) values ($1, 'manual', 'normal')`, [row!.id]);
      // The lift needs attention on the dashboard (an active fault) and has an audited change.
      await t.database.sql.query(`update lifts set active_fault = 'E01' where id = $1`, [row!.id]);
      await t.app.audit({ action: 'lift.alias', result: 'ok', userId: null, username: 'matrix', ip: '127.0.0.1', liftId: row!.id, detail: {} });
      lifts[name] = { id: row!.id, deviceNo: l.deviceNo, alertId: Number(alert!.id) };
    }
    for (const p of PLACEMENTS) {
      const label = `${p.role}@${p.org ?? 'none'}`;
      const { token } = await userWithRole(t, adminToken, p.role, undefined, p.org ? orgs[p.org] : undefined);
      users.push({ ...p, token, label });
    }
  }, 240_000);
  afterAll(() => t?.close());

  it('walks every route × built-in role × lift in and out of scope', async () => {
    const declared = t.app.declaredRoutes;
    const probes = new Map<string, Probe>(LIFT_PROBES.map((p) => [p.route, p]));
    // Every probe names a declared route, so a renamed route cannot drop out of the walk.
    for (const p of [...LIFT_PROBES, ...LIST_PROBES]) expect(declared.some((r) => key(r) === p.route), p.route).toBe(true);
    const checked: string[] = [];
    for (const route of declared) {
      if (route.access === 'public' || route.url.includes('logout') || route.url.includes(':')) continue;
      const probe = probes.get(key(route));
      for (const u of users) {
        const perms = BUILT_IN_ROLES[u.role].permissions as readonly Permission[];
        const granted = route.access === 'authenticated' || hasPermission(perms, route.access);
        const where = `${u.label} ${key(route)}`;
        if (!probe) {
          // Side-effect free probe: an id that matches no record, so nothing changes.
          const res = await t.app.inject({ method: route.method as 'GET', url: route.url, headers: { 'access-token': u.token }, ...(route.method === 'POST' ? { payload: { id: '00000000-0000-4000-8000-000000000000' } } : {}) });
          if (granted) expect([401, 403].includes(res.statusCode) && body(res).code !== 'user.self', `${where}: ${res.body}`).toBe(false);
          else expect([res.statusCode, body(res).code], where).toEqual([403, 'forbidden']);
          checked.push(where);
          continue;
        }
        for (const liftKey of Object.keys(LIFTS) as LiftKey[]) {
          if (route.method !== 'GET') await resetLifts();
          const req = probe.request(lifts[liftKey]);
          const res = await t.app.inject({ method: route.method as 'GET', url: route.url + (req.url ?? ''), headers: { 'access-token': u.token }, ...(req.payload ? { payload: req.payload } : {}) });
          const at = `${where} on the ${liftKey} lift: ${res.statusCode} ${res.body.slice(0, 200)}`;
          if (!granted) expect([res.statusCode, body(res).code], at).toEqual([403, 'forbidden']);
          else if (reaches(u, liftKey, route.url)) {
            // In reach: success, or an answer about the lift itself (offline, no configuration), never 401/403/404.
            if (probe.inReach) probe.inReach(res);
            else expect([401, 403, 404].includes(res.statusCode), at).toBe(false);
            if (probe.outOfReach && res.statusCode === 200 && route.url.endsWith('/lookup')) expect(body(res).result.lift?.id, at).toBe(lifts[liftKey].id);
          } else if (probe.outOfReach) probe.outOfReach(res);
          else expect([res.statusCode, body(res).code], at).toEqual([404, 'lift.notFound']);
          checked.push(`${where} ${liftKey}`);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(declared.length * users.length);
  }, 300_000);

  it('has a probe for every route that works on one lift', () => {
    // The routes whose request names a lift (`liftId`, `deviceNo`), as the auth plugin records them.
    const naming = t.app.declaredRoutes.filter((r) => r.namesLift && r.access !== 'public').map(key);
    const covered = new Set([...LIFT_PROBES.map((p) => p.route), ...LIST_PROBES.map((p) => p.route), ...NAMES_A_LIFT_OTHERWISE]);
    expect(naming.length).toBeGreaterThan(15);
    expect(naming.filter((r) => !covered.has(r))).toEqual([]);
  });

  it('lists exactly the lifts in scope', async () => {
    await resetLifts();
    await t.database.sql.query(`update lifts set active_fault = 'E01'`);
    const ours = new Set(Object.values(lifts).map((l) => l.id));
    for (const probe of LIST_PROBES) {
      const url = probe.route.slice('GET '.length);
      for (const u of users) {
        const perms = BUILT_IN_ROLES[u.role].permissions as readonly Permission[];
        const check = t.app.declaredRoutes.find((r) => key(r) === probe.route)!.access as PermissionCheck;
        if (!hasPermission(perms, check)) continue;
        const res = await t.app.inject({ method: 'GET', url: url + probe.query, headers: { 'access-token': u.token } });
        expect(res.statusCode, `${u.label} ${probe.route}: ${res.body}`).toBe(200);
        const seen = new Set(probe.liftIds(res).filter((id) => ours.has(id)));
        const expected = (Object.keys(LIFTS) as LiftKey[]).filter((l) => reaches(u, l, url)).map((l) => lifts[l].id);
        expect([...seen].sort(), `${u.label} ${probe.route}`).toEqual(expected.sort());
      }
    }
  });

  it("sends each lift's allowed actions with the lift", async () => {
    const info = async (label: string, lift: LiftKey) => {
      const u = users.find((x) => x.label === label)!;
      const res = await client(t.app, u.token).post('/auth/access/lift/getInfo', { liftId: lifts[lift].id });
      expect(res.statusCode, res.body).toBe(200);
      return body<LiftInfo>(res).result.lift.access;
    };
    const engineer = await info('manufacturerEngineer@M', 'assigned');
    expect(engineer.allowed).toEqual(expect.arrayContaining(['liftControl.enable', 'liftConfig.edit', 'manufacture.edit']));
    expect(engineer.configRole).toBe('manufacturer');
    const operator = await info('operator@O', 'assigned');
    expect(operator.allowed).toContain('liftControl.enable');
    expect(operator.allowed).not.toContain('manufacture.edit');
    expect(operator.configRole).toBe('operator');
    const viewer = await info('viewer@O', 'assigned');
    expect(viewer.allowed).toEqual(expect.arrayContaining(['lift.get', 'liftConfig.get']));
    expect(viewer.allowed).not.toContain('liftControl.enable');
    expect(viewer.allowed).not.toContain('lift.edit');
    const admin = await info('administrator@none', 'foreign');
    expect(admin.configRole).toBe('manufacturer');
    expect(admin.allowed).toContain('liftConfig.edit');
    // The list carries the same answer per row.
    const list = await client(t.app, users.find((x) => x.label === 'operator@O')!.token).get('/auth/access/lift/get?pageSize=100');
    const row = body(list).result.list.find((l: { id: string }) => l.id === lifts.assigned.id);
    expect(row.access).toEqual(operator);
  });

  it('audits a denial', async () => {
    // A viewer of its own, refused a change it has no permission for.
    const viewer = await userWithRole(t, adminToken, 'viewer', undefined, orgs.O);
    const res = await client(t.app, viewer.token).post('/auth/access/lift/alias/update', { liftId: lifts.assigned.id, alias: 'Denied' });
    expect([res.statusCode, body(res).code]).toEqual([403, 'forbidden']);
    const rows = await t.database.sql.query<{ username: string; result: string; detail: { url: string } }>(`select username, result, detail from audit_log where action = 'access.denied' and user_id = $1`, [viewer.id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ username: viewer.username, result: 'denied', detail: { url: '/auth/access/lift/alias/update' } });
  });
});

describe.each(DB_KINDS)('only permissions grant anything, on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let operatorOrg: string;
  let makerOrg: string;
  const ids: Record<'mine' | 'theirs' | 'made', string> = { mine: '', theirs: '', made: '' };

  async function customRole(name: string, roleType: string, permissions: object[]): Promise<string> {
    const res = await client(t.app, adminToken).post('/auth/access/system/roles/create', { name, roleType, permissions });
    expect(res.statusCode, res.body).toBe(200);
    return body<{ id: string }>(res).result.id;
  }
  async function userOf(roleId: string, orgId: string): Promise<string> {
    const username = `u${Math.random().toString(36).slice(2, 9)}`;
    const password = 'Strong-Pass-' + Math.random().toString(36).slice(2, 8);
    const res = await client(t.app, adminToken).post('/auth/access/system/users/create', { username, name: username, password, roleId, orgId });
    expect(res.statusCode, res.body).toBe(200);
    return login(t.app, username, password);
  }
  const listed = async (token: string) => (body(await client(t.app, token).get('/auth/access/lift/get?pageSize=100')).result.list as { id: string }[]).map((l) => l.id).sort();

  beforeAll(async () => {
    t = await startTestApp(kind);
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const sql = t.database.sql;
    [{ id: makerOrg }] = (await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`)) as [{ id: string }];
    [{ id: operatorOrg }] = (await sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Op A', 'operator') returning id`)) as [{ id: string }];
    const [other] = await sql.query<{ id: string }>(`insert into organizations (name, kind) values ('Op B', 'operator') returning id`);
    const lift = async (no: string, operator: string | null) =>
      (await sql.query<{ id: string }>(`insert into lifts (device_no, kind, floors, manufacturer_org_id, operator_org_id) values ($1, 'inclinedStraightRack', 2, $2, $3) returning id`, [no, makerOrg, operator]))[0]!.id;
    ids.mine = await lift('ONLY-0001', operatorOrg);
    ids.theirs = await lift('ONLY-0002', other!.id);
    ids.made = await lift('ONLY-0003', null);
  }, 240_000);
  afterAll(() => t?.close());

  it("a role typed 'admin' with a viewer's permissions sees only its organization's lifts and controls nothing", async () => {
    const roleId = await customRole('looks-like-admin', 'admin', [...BUILT_IN_ROLES.viewer.permissions]);
    const token = await userOf(roleId, operatorOrg);
    expect(await listed(token)).toEqual([ids.mine]);
    const theirs = await client(t.app, token).post('/auth/access/lift/getInfo', { liftId: ids.theirs });
    expect([theirs.statusCode, body(theirs).code]).toEqual([404, 'lift.notFound']);
    const control = await client(t.app, token).post('/auth/access/lift/control', { liftId: ids.mine, command: 'pause', args: {} });
    expect([control.statusCode, body(control).code]).toEqual([403, 'forbidden']);
    const users = await client(t.app, token).get('/auth/access/system/users');
    expect(users.statusCode).toBe(403);
    const info = body<LiftInfo>(await client(t.app, token).post('/auth/access/lift/getInfo', { liftId: ids.mine })).result;
    expect(info.lift.access.allowed).not.toContain('liftControl.enable');
    expect(info.lift.access.configRole).toBe('operator');
  });

  it('a role with no permissions reaches nothing whatever its type and name', async () => {
    const roleId = await customRole('administrator-ish', 'admin', []);
    const token = await userOf(roleId, makerOrg);
    for (const url of ['/auth/access/lift/get', '/auth/access/alerts', '/auth/access/dashboard/workplace', '/auth/access/system/roles']) {
      const res = await client(t.app, token).get(url);
      expect([res.statusCode, body(res).code], url).toEqual([403, 'forbidden']);
    }
  });

  it('a scope decides the lifts, not the organization kind: own, served, all', async () => {
    const own = await userOf(await customRole('lifts-own', 'custom', [{ permissionId: 'lift', actions: ['query', 'get'], scope: 'own' }]), makerOrg);
    expect(await listed(own)).toEqual([]); // a maker operates no lift
    const ownOperator = await userOf(await customRole('lifts-own-op', 'custom', [{ permissionId: 'lift', actions: ['query'], scope: 'own' }]), operatorOrg);
    expect(await listed(ownOperator)).toEqual([ids.mine]);
    const served = await userOf(await customRole('lifts-served', 'viewer', [{ permissionId: 'lift', actions: ['query'], scope: 'served' }]), makerOrg);
    expect(await listed(served)).toEqual([ids.mine, ids.theirs, ids.made].sort());
    const all = await userOf(await customRole('lifts-all', 'operator', [{ permissionId: 'lift', actions: ['query'], scope: 'all' }]), operatorOrg);
    expect(await listed(all)).toEqual([ids.mine, ids.theirs, ids.made].sort());
  });

  it('refuses a scope a permission cannot take, and a grant beyond the granter’s own, changing nothing', async () => {
    const bad = await client(t.app, adminToken).post('/auth/access/system/roles/create', { name: 'bad-scope', permissions: [{ permissionId: 'user', actions: ['query'], scope: 'own' }] });
    expect([bad.statusCode, body(bad).code]).toEqual([400, 'validation.failed']);
    // A role administrator limited to its organization's lifts may not hand out every lift.
    const granterRole = await customRole('role-admin', 'custom', [
      { permissionId: 'role', actions: ['add', 'query'], scope: 'all' },
      { permissionId: 'lift', actions: ['query'], scope: 'served' },
    ]);
    const granter = await userOf(granterRole, operatorOrg);
    const wider = await client(t.app, granter).post('/auth/access/system/roles/create', { name: 'wider', permissions: [{ permissionId: 'lift', actions: ['query'], scope: 'all' }] });
    expect([wider.statusCode, body(wider).code, body(wider).result.grants]).toEqual([403, 'forbidden', ['lift.query']]);
    const more = await client(t.app, granter).post('/auth/access/system/roles/create', { name: 'more', permissions: [{ permissionId: 'liftControl', actions: ['enable'], scope: 'own' }] });
    expect(more.statusCode).toBe(403);
    const same = await client(t.app, granter).post('/auth/access/system/roles/create', { name: 'same', permissions: [{ permissionId: 'lift', actions: ['query'], scope: 'own' }] });
    expect(same.statusCode, same.body).toBe(200);
    const names = (await t.database.sql.query<{ name: string }>(`select name from roles where name in ('bad-scope', 'wider', 'more', 'same')`)).map((r) => r.name);
    expect(names).toEqual(['same']);
  });

  it('migration 0010 keeps what roles stored before scopes may do', async () => {
    const sql = t.database.sql;
    // Roles as they were stored before scopes (no `scope` on any entry).
    const old = (p: { permissionId: string; actions: string[] }[]) => JSON.stringify(p);
    await sql.query(`insert into roles (name, role_type, permissions) values ('old-admin', 'admin', $1::jsonb), ('old-custom', 'custom', $2::jsonb)`, [
      old([{ permissionId: 'lift', actions: ['query', 'get'] }, { permissionId: 'user', actions: ['query'] }]),
      old([{ permissionId: 'lift', actions: ['query'] }, { permissionId: 'document', actions: ['query'] }]),
    ]);
    const file = path.join(import.meta.dirname, '../src/db/migrations/0010_scoped_permissions.sql');
    await sql.exec(readFileSync(file, 'utf8'));
    const rows = await sql.query<{ name: string; permissions: Permission[] }>(`select name, permissions from roles where name in ('old-admin', 'old-custom') order by name`);
    expect(rows.map((r) => [r.name, r.permissions])).toEqual([
      ['old-admin', [{ permissionId: 'lift', actions: ['query', 'get'], scope: 'all' }, { permissionId: 'user', actions: ['query'], scope: 'all' }]],
      ['old-custom', [{ permissionId: 'lift', actions: ['query'], scope: 'served' }, { permissionId: 'document', actions: ['query'], scope: 'all' }]],
    ]);
    // Run again (or on roles already scoped, like the built-in ones): nothing changes.
    const before = await sql.query(`select name, permissions from roles order by name`);
    await sql.exec(readFileSync(file, 'utf8'));
    expect(await sql.query(`select name, permissions from roles order by name`)).toEqual(before);
    const builtIn = await sql.query<{ name: string; permissions: Permission[] }>(`select name, permissions from roles where built_in order by name`);
    expect(Object.fromEntries(builtIn.map((r) => [r.name, r.permissions]))).toEqual(
      Object.fromEntries(Object.entries(BUILT_IN_ROLES).map(([name, r]) => [name, r.permissions])),
    );
    // The migrated custom role still sees its organization's lifts, the 'admin'-typed one all.
    const [custom] = await sql.query<{ id: string }>(`select id from roles where name = 'old-custom'`);
    expect(await listed(await userOf(custom!.id, operatorOrg))).toEqual([ids.mine]);
    const [admin] = await sql.query<{ id: string }>(`select id from roles where name = 'old-admin'`);
    expect(await listed(await userOf(admin!.id, operatorOrg))).toEqual([ids.mine, ids.theirs, ids.made].sort());
  });
});
