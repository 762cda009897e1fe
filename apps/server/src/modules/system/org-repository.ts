import { DEFAULT_TIME_ZONE, type OrgKind, type OrgView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** Every organization with how many users and lifts it has, manufacturers first. */
export async function listOrgs(sql: SqlExecutor): Promise<OrgView[]> {
  const rows = await sql.query<{ id: string; name: string; kind: OrgKind; time_zone: string; user_count: string; lift_count: string }>(
    `select o.*, (select count(*) from users u where u.org_id = o.id) as user_count,
            (select count(*) from lifts l where l.operator_org_id = o.id or l.manufacturer_org_id = o.id) as lift_count
       from organizations o order by o.kind, o.name`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, kind: r.kind, timeZone: r.time_zone, userCount: Number(r.user_count), liftCount: Number(r.lift_count) }));
}

/** The lifts an organization makes or operates. */
export function orgLifts(sql: SqlExecutor, orgId: string): Promise<{ id: string; deviceNo: string | null; alias: string; kind: string; assigned: boolean }[]> {
  return sql.query(
    `select id, device_no as "deviceNo", alias, kind, (operator_org_id = $1 or manufacturer_org_id = $1) as assigned
       from lifts where operator_org_id = $1 or manufacturer_org_id = $1 order by device_no`,
    [orgId],
  );
}

export async function findOrg(sql: SqlExecutor, id: string): Promise<{ name: string; kind: OrgKind; timeZone: string } | null> {
  const [row] = await sql.query<{ name: string; kind: OrgKind; timeZone: string }>('select name, kind, time_zone as "timeZone" from organizations where id = $1', [id]);
  return row ?? null;
}

/** Whether another organization (not `exceptId`) has this name. */
export async function orgNameTaken(sql: SqlExecutor, name: string, exceptId?: string): Promise<boolean> {
  const rows = exceptId
    ? await sql.query('select 1 from organizations where name = $1 and id <> $2', [name, exceptId])
    : await sql.query('select 1 from organizations where name = $1', [name]);
  return rows.length > 0;
}

export async function createOrg(sql: SqlExecutor, name: string, kind: OrgKind, timeZone = DEFAULT_TIME_ZONE): Promise<string> {
  const [row] = await sql.query<{ id: string }>('insert into organizations (name, kind, time_zone) values ($1, $2, $3) returning id', [name, kind, timeZone]);
  return row!.id;
}

/** A new name, and a new time zone when given. */
export async function updateOrg(sql: SqlExecutor, id: string, name: string, timeZone: string | undefined): Promise<void> {
  await sql.query('update organizations set name = $2, time_zone = coalesce($3, time_zone) where id = $1', [id, name, timeZone ?? null]);
}

/** Whether a user belongs to the organization or a lift is made or operated by it. */
export async function orgInUse(sql: SqlExecutor, id: string): Promise<boolean> {
  const rows = await sql.query(`select 1 from users where org_id = $1 union all select 1 from lifts where manufacturer_org_id = $1 or operator_org_id = $1 limit 1`, [id]);
  return rows.length > 0;
}

export async function deleteOrg(sql: SqlExecutor, id: string): Promise<void> {
  await sql.query('delete from organizations where id = $1', [id]);
}

/** How many of these lifts exist. */
export async function countLifts(sql: SqlExecutor, liftIds: string[]): Promise<number> {
  const found = await sql.query<{ id: string }>('select id from lifts where id = any($1::uuid[])', [liftIds]);
  return found.length;
}

/** Gives the lifts to an operator organization, or takes them back (null). */
export async function assignLifts(sql: SqlExecutor, orgId: string | null, liftIds: string[]): Promise<void> {
  await sql.query('update lifts set operator_org_id = $1 where id = any($2::uuid[])', [orgId, liftIds]);
}
