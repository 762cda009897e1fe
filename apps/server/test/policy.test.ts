import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Permission, type Scope } from '@liftlink/protocol';
import { migrate } from '../src/db/migrate.ts';
import type { Database } from '../src/db/client.ts';
import { authorize, grantFilter, grantedSql, reaches, rollupKeys } from '../src/modules/access/policy.ts';
import type { AuthContext } from '../src/types.ts';
import { DB_KINDS, freshDatabase } from './helpers.ts';

/**
 * The policy states each scope three ways: a SQL filter (lists, details), a check of a
 * loaded lift (the actions sent with it) and a SQL condition over many users' roles
 * (alert recipients). Here all three answer alike for every scope and organization.
 */
describe.each(DB_KINDS)('authorization policy on %s', (kind) => {
  let database: Database;
  let drop: () => Promise<void>;
  const orgs: Record<'M' | 'M2' | 'O' | 'O2', string> = { M: '', M2: '', O: '', O2: '' };
  const lifts: { id: string; manufacturerOrgId: string; operatorOrgId: string | null }[] = [];

  const auth = (orgId: string | null, permissions: Permission[]): AuthContext => ({
    sessionId: 's', userId: 'u', username: 'u', language: 'en-US', orgId, orgKind: null, roleType: 'admin', permissions, viaCookie: false,
  });

  beforeAll(async () => {
    ({ database, drop } = await freshDatabase(kind));
    await migrate(database.sql);
    for (const [name, orgKind] of [['M', 'manufacturer'], ['M2', 'manufacturer'], ['O', 'operator'], ['O2', 'operator']] as const) {
      orgs[name] = (await database.sql.query<{ id: string }>(`insert into organizations (name, kind) values ($1, $2) returning id`, [name, orgKind]))[0]!.id;
    }
    for (const [maker, operator] of [['M', 'O'], ['M', null], ['M2', 'O2'], ['M2', 'O']] as const) {
      const m = orgs[maker];
      const o = operator ? orgs[operator] : null;
      const [row] = await database.sql.query<{ id: string }>(`insert into lifts (kind, floors, manufacturer_org_id, operator_org_id) values ('inclinedStraightRack', 2, $1, $2) returning id`, [m, o]);
      lifts.push({ id: row!.id, manufacturerOrgId: m, operatorOrgId: o });
    }
  }, 240_000);
  afterAll(() => drop?.());

  it('filters, checks and finds recipients alike for every scope and organization', async () => {
    for (const scope of SCOPES) {
      const [role] = await database.sql.query<{ id: string }>(`insert into roles (name, permissions) values ($1, $2::jsonb) returning id`, [
        `alerts-${scope}`,
        JSON.stringify([{ permissionId: 'alert', actions: ['query'], scope }]),
      ]);
      for (const org of [orgs.M, orgs.M2, orgs.O, orgs.O2, null]) {
        const a = auth(org, [{ permissionId: 'alert', actions: ['query'], scope }]);
        const grant = authorize(a, 'alert.query');
        expect(grant?.scope).toBe(scope);
        const f = grantFilter(grant, 1);
        const bySql = (await database.sql.query<{ id: string }>(`select l.id from lifts l where ${f.where}`, f.param ? [f.param] : [])).map((r) => r.id).sort();
        const byCheck = lifts.filter((l) => reaches(grant, l)).map((l) => l.id).sort();
        expect(bySql, `${scope} from ${org}`).toEqual(byCheck);
        const [user] = await database.sql.query<{ id: string }>(`insert into users (username, name, password_hash, role_id, org_id, status) values ($1, $1, 'unused', $2, $3, 'active') returning id`, [
          `u-${scope}-${org ?? 'none'}`,
          role!.id,
          org,
        ]);
        const byRole = (
          await database.sql.query<{ id: string }>(
            `select l.id from lifts l, users u join roles r on r.id = u.role_id where u.id = $1 and ${grantedSql('r.permissions', 'u.org_id', 'alert.query')}`,
            [user!.id],
          )
        ).map((r) => r.id).sort();
        expect(byRole, `recipients ${scope} from ${org}`).toEqual(byCheck);
      }
    }
  });

  it('grants nothing without the permission, whatever else the caller is', () => {
    const a = auth(orgs.M, [{ permissionId: 'lift', actions: ['query'], scope: 'all' }]);
    expect(authorize(a, 'lift.get')).toBeNull();
    expect(grantFilter(authorize(a, 'lift.get'), 1)).toEqual({ where: 'false', param: null });
    expect(rollupKeys(a, 'lift.get')).toEqual([]);
    expect(rollupKeys(a, 'lift.query')).toEqual(['all']);
  });

  it('sums the rollups of the organizations a scope reaches', () => {
    const keys = (scope: Scope) => rollupKeys(auth(orgs.O, [{ permissionId: 'dashboard', actions: ['query'], scope }]), 'dashboard.query');
    expect(keys('own')).toEqual([`o:${orgs.O}`]);
    expect(keys('served')).toEqual([`o:${orgs.O}`, `m:${orgs.O}`]);
    expect(rollupKeys(auth(null, [{ permissionId: 'dashboard', actions: ['query'], scope: 'served' }]), 'dashboard.query')).toEqual([]);
  });
});
