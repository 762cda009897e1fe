import type { AuthContext } from '../../types.ts';
import { AppError } from '../../lib/errors.ts';
import type { SqlExecutor } from '../../db/client.ts';

/**
 * Which lifts a caller may see: the administrator all; a manufacturer's users the lifts
 * their organization made; an operator's users the lifts assigned to their organization;
 * a user without an organization none. Returned as a SQL condition on alias `l` with one
 * parameter at position `$n`.
 */
export function liftScope(auth: AuthContext, n: number): { where: string; param: string | null } {
  if (auth.roleType === 'admin') return { where: 'true', param: null };
  if (!auth.orgId) return { where: 'false', param: null };
  if (auth.orgKind === 'manufacturer') return { where: `l.manufacturer_org_id = $${n}::uuid`, param: auth.orgId };
  return { where: `l.operator_org_id = $${n}::uuid`, param: auth.orgId };
}

/** The key of the caller's rows in `fleet_daily_stats`, or null when they see no lifts. */
export function rollupScope(auth: AuthContext): string | null {
  if (auth.roleType === 'admin') return 'all';
  if (!auth.orgId) return null;
  return `${auth.orgKind === 'manufacturer' ? 'm' : 'o'}:${auth.orgId}`;
}

export interface OwnedLift {
  id: string;
  device_no: string | null;
  kind: string;
  floors: number;
  online: boolean;
  config: Record<string, unknown> | null;
  config_version: number;
  firmware: string;
}

/** Loads a lift the caller may see, or answers 404 (another organization's lift is "not found"). */
export async function ownedLift(sql: SqlExecutor, auth: AuthContext, liftId: string): Promise<OwnedLift> {
  const scope = liftScope(auth, 2);
  const [lift] = await sql.query<OwnedLift>(
    `select id, device_no, kind, floors, online, config, config_version, firmware from lifts l where l.id = $1 and ${scope.where}`,
    scope.param ? [liftId, scope.param] : [liftId],
  );
  if (!lift) throw new AppError('lift.notFound');
  return lift;
}
