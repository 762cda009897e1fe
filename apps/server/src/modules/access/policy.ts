import { LIFT_PERMISSION_IDS, PERMISSION_CHECKS, SCOPES, scopeOf, type LiftAccess, type PermissionCheck, type Scope } from '@liftlink/protocol';
import type { AuthContext } from '../../types.ts';

/**
 * The authorization model's one evaluation on the server. A caller's privileges come only
 * from their role's permission entries `{ permissionId, actions, scope }` (packages/protocol,
 * access/permission-rules.ts): `authorize` answers whether a `permissionId.action` is granted
 * and in which scope, and every query that selects lifts takes its filter from that answer
 * (`liftFilter`, `rollupKeys`, `grantedSql` for alert recipients, `liftAccess` for the
 * actions sent with a lift). The role's type and name grant nothing.
 */

/** A granted `permissionId.action` and how far it reaches, for the caller's organization. */
export interface Grant {
  check: PermissionCheck;
  scope: Scope;
  orgId: string | null;
}

/** A SQL condition on the lifts alias `l`, with its one parameter (or none). */
export interface LiftFilter {
  where: string;
  param: string | null;
}

/** The one decision: the grant of `check` to the caller, or null when it is not granted. */
export function authorize(auth: AuthContext | null, check: PermissionCheck): Grant | null {
  if (!auth) return null;
  const scope = scopeOf(auth.permissions, check);
  return scope ? { check, scope, orgId: auth.orgId } : null;
}

/**
 * Which lifts a scope reaches from organization `org` (a SQL expression), as a condition
 * on alias `l`. Lifts have two organizations: their maker (`manufacturer_org_id`) and the
 * operator they are assigned to (`operator_org_id`, null until assigned).
 */
function reachSql(scope: Scope, org: string): string {
  if (scope === 'all') return 'true';
  if (scope === 'own') return `l.operator_org_id = ${org}`;
  return `(l.operator_org_id = ${org} or l.manufacturer_org_id = ${org})`;
}

/** The same reach, for one lift already loaded (the two must agree; policy.test.ts holds them). */
export function reaches(grant: Grant | null, lift: { operatorOrgId: string | null; manufacturerOrgId: string }): boolean {
  if (!grant) return false;
  if (grant.scope === 'all') return true;
  if (!grant.orgId) return false;
  if (grant.scope === 'own') return lift.operatorOrgId === grant.orgId;
  return lift.operatorOrgId === grant.orgId || lift.manufacturerOrgId === grant.orgId;
}

/** A grant as a lift filter with its parameter at `$n` (nothing granted: no lift). */
export function grantFilter(grant: Grant | null, n: number): LiftFilter {
  if (!grant) return { where: 'false', param: null };
  if (grant.scope === 'all') return { where: 'true', param: null };
  if (!grant.orgId) return { where: 'false', param: null };
  return { where: reachSql(grant.scope, `$${n}::uuid`), param: grant.orgId };
}

/**
 * The lifts the caller may reach with `check`, as a SQL filter on alias `l` with its
 * parameter at `$n`. Without `check`, the permission the route was admitted under.
 */
export function liftFilter(auth: AuthContext, n: number, check: PermissionCheck | undefined = auth.grant?.check): LiftFilter {
  return grantFilter(check ? authorize(auth, check) : null, n);
}

/**
 * The keys of the fleet rollups (`fleet_daily_stats`, `fault_hourly_stats`) whose sum is
 * the caller's lifts under `check`: `all`, `o:<org>` (lifts it operates), `m:<org>` (lifts
 * it made). A lift has one maker and at most one operator, of different organizations
 * (only operator organizations are assigned lifts), so the keys never count a lift twice.
 */
export function rollupKeys(auth: AuthContext, check: PermissionCheck | undefined = auth.grant?.check): string[] {
  const grant = check ? authorize(auth, check) : null;
  if (!grant) return [];
  if (grant.scope === 'all') return ['all'];
  if (!grant.orgId) return [];
  return grant.scope === 'own' ? [`o:${grant.orgId}`] : [`o:${grant.orgId}`, `m:${grant.orgId}`];
}

/**
 * For queries over many users (alert recipients): a SQL condition that the permission
 * entries in `permissions` (a jsonb expression) grant `check` on lift `l` to a member of
 * organization `org` (an expression). `check` comes from the fixed vocabulary, never input.
 */
export function grantedSql(permissions: string, org: string, check: PermissionCheck): string {
  const [id, action] = check.split('.') as [string, string];
  if (!/^[a-zA-Z]+$/.test(id) || !/^[a-z]+$/.test(action)) throw new Error(`not a permission check: ${check}`);
  const byScope = SCOPES.map((s) => `(g->>'scope' = '${s}' and ${s === 'all' ? 'true' : `${org} is not null and ${reachSql(s, org)}`})`).join(' or ');
  return `exists (select 1 from jsonb_array_elements(${permissions}) g where g->>'permissionId' = '${id}' and g->'actions' ? '${action}' and (${byScope}))`;
}

const LIFT_CHECKS = PERMISSION_CHECKS.filter((c) => (LIFT_PERMISSION_IDS as readonly string[]).includes(c.split('.')[0]!));

/**
 * What the caller may do with one lift (sent with the lift, so the web client shows
 * controls from the server's answer): every lift permission whose scope reaches it, and
 * whether a configuration write may touch the maker's fields — for the lift's maker, or a
 * configuration grant over every lift.
 */
export function liftAccess(auth: AuthContext, lift: { operatorOrgId: string | null; manufacturerOrgId: string }): LiftAccess {
  const allowed = LIFT_CHECKS.filter((c) => reaches(authorize(auth, c), lift));
  return { allowed, configRole: configRoleFor(auth, lift) };
}

/** Which configuration fields the caller writes on this lift (protocol's `forbiddenConfigKeys`). */
export function configRoleFor(auth: AuthContext, lift: { manufacturerOrgId: string }): LiftAccess['configRole'] {
  const grant = authorize(auth, 'liftConfig.edit');
  return grant?.scope === 'all' || (!!auth.orgId && lift.manufacturerOrgId === auth.orgId) ? 'manufacturer' : 'operator';
}
