import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';

/** What the operation log is filtered by (a user name matches from its start). */
export interface OplogFilter {
  liftId?: string | undefined;
  username?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

interface OplogRow {
  id: string;
  ts: Date;
  username: string | null;
  action: string;
  liftId: string;
  deviceNo: string | null;
  result: string;
  detail: Record<string, unknown>;
}

/** The audited commands and configuration changes on the lifts the caller may see. */
export async function queryOplog(sql: SqlExecutor, auth: AuthContext, q: OplogFilter, limit: number, offset: number) {
  const scope = liftFilter(auth, 1);
  const params: unknown[] = scope.param ? [scope.param] : [];
  const where = [scope.where];
  if (q.liftId) where.push(`a.lift_id = $${params.push(q.liftId)}`);
  if (q.username) where.push(`a.username ilike $${params.push(q.username.replace(/[\\%_]/g, '\\$&') + '%')}`);
  if (q.action) where.push(`a.action = $${params.push(q.action)}`);
  if (q.from) where.push(`a.ts >= $${params.push(q.from)}`);
  if (q.to) where.push(`a.ts <= $${params.push(q.to)}`);
  const cond = where.join(' and ');
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from audit_log a join lifts l on l.id = a.lift_id where ${cond}`, params);
  const rows = await sql.query<OplogRow>(
    `select a.id, a.ts, a.username, a.action, a.lift_id as "liftId", l.device_no as "deviceNo", a.result, a.detail
       from audit_log a join lifts l on l.id = a.lift_id where ${cond} order by a.ts desc, a.id desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { total: Number(count!.n), list: rows.map((r) => ({ ...r, id: Number(r.id), ts: new Date(r.ts).toISOString() })) };
}
