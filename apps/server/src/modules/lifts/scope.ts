import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { AppError } from '../../lib/errors.ts';
import type { SqlExecutor } from '../../db/client.ts';

export interface OwnedLift {
  id: string;
  device_no: string | null;
  kind: string;
  floors: number;
  online: boolean;
  config: Record<string, unknown> | null;
  config_version: number;
  firmware: string;
  manufacturer_org_id: string;
  operator_org_id: string | null;
}

/**
 * Loads a lift within the scope of the route's grant, or answers 404: a lift the caller's
 * grant does not reach is "not found", never "forbidden".
 */
export async function ownedLift(sql: SqlExecutor, auth: AuthContext, liftId: string): Promise<OwnedLift> {
  const scope = liftFilter(auth, 2);
  const [lift] = await sql.query<OwnedLift>(
    `select id, device_no, kind, floors, online, config, config_version, firmware, manufacturer_org_id, operator_org_id from lifts l where l.id = $1 and ${scope.where}`,
    scope.param ? [liftId, scope.param] : [liftId],
  );
  if (!lift) throw new AppError('lift.notFound');
  return lift;
}
