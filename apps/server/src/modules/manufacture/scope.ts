import type { ManufactureLift } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { authorize, grantFilter, type LiftFilter } from '../access/policy.ts';

/**
 * The lifts the factory bench works on under the route's grant: those its scope reaches
 * that the caller's organization made (the bench is the maker's tool: an operator's role
 * with a manufacture grant reaches no lift here), or every lift with scope `all`.
 */
export function makerScope(auth: AuthContext, n: number): LiftFilter {
  const filter = grantFilter(auth.grant ?? null, n);
  if (!filter.param) return filter;
  return { where: `(${filter.where} and l.manufacturer_org_id = $${n}::uuid)`, param: filter.param };
}

/**
 * The organization a new lift record belongs to: the caller's, when it makes lifts; for a
 * `manufacture.add` grant over all lifts without one, the first manufacturer.
 */
export async function makerOrgOf(sql: SqlExecutor, auth: AuthContext): Promise<string> {
  const grant = authorize(auth, 'manufacture.add');
  if (!grant) throw new AppError('forbidden', { needs: 'manufacture.add' });
  if (auth.orgKind === 'manufacturer' && auth.orgId) return auth.orgId;
  if (grant.scope !== 'all') throw new AppError('forbidden', { needs: 'manufacture.add' });
  const [maker] = await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  if (!maker) throw new AppError('org.notFound');
  return maker.id;
}

export interface BenchLiftRow {
  id: string;
  device_no: string | null;
  kind: ManufactureLift['kind'];
  floors: number;
  firmware: string;
  controller_serial: string | null;
  online: boolean;
  last_seen_at: Date | null;
  iot_secret_hash: string | null;
  iot_issued_at: Date | null;
  config_version: number;
  config: ManufactureLift['config'];
  manufacturer_org_id: string;
  operator_org_id: string | null;
  visible: boolean;
}

const COLUMNS = `l.id, l.device_no, l.kind, l.floors, l.firmware, l.controller_serial, l.online, l.last_seen_at, l.iot_secret_hash, l.iot_issued_at, l.config_version, l.config,
  l.manufacturer_org_id, l.operator_org_id`;

/**
 * Finds a lift by a unique column, whoever owns it; `visible` says whether the caller may
 * work on it (a number taken by another maker still counts as registered).
 */
export async function findLift(sql: SqlExecutor, auth: AuthContext, column: 'id' | 'device_no' | 'controller_serial', value: string): Promise<BenchLiftRow | null> {
  const scope = makerScope(auth, 2);
  const [row] = await sql.query<BenchLiftRow>(
    `select ${COLUMNS}, (${scope.where}) as visible from lifts l where l.${column} = $1${column === 'id' ? '::uuid' : ''}`,
    scope.param ? [value, scope.param] : [value],
  );
  return row ?? null;
}

/** A lift the caller may work on, or 404 (another maker's lift is "not found"). */
export async function benchLift(sql: SqlExecutor, auth: AuthContext, ref: { liftId?: string | undefined; deviceNo?: string | undefined }): Promise<BenchLiftRow> {
  const row = ref.liftId ? await findLift(sql, auth, 'id', ref.liftId) : await findLift(sql, auth, 'device_no', ref.deviceNo ?? '');
  if (!row?.visible) throw new AppError('lift.notFound');
  return row;
}

export function toBenchView(r: BenchLiftRow): ManufactureLift {
  return {
    id: r.id,
    deviceNo: r.device_no,
    kind: r.kind,
    floors: r.floors,
    firmware: r.firmware,
    controllerSerial: r.controller_serial,
    online: r.online,
    lastSeenAt: r.last_seen_at ? new Date(r.last_seen_at).toISOString() : null,
    hasCredentials: r.iot_secret_hash !== null,
    iotIssuedAt: r.iot_issued_at ? new Date(r.iot_issued_at).toISOString() : null,
    configVersion: r.config_version,
    config: r.config,
  };
}
