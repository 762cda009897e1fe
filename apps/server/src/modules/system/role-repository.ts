import type { Permission, RoleView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** Every role with how many users hold it, built-in roles first. */
export async function listRoles(sql: SqlExecutor): Promise<RoleView[]> {
  const rows = await sql.query<{ id: string; name: string; role_type: string; built_in: boolean; permissions: Permission[]; user_count: string }>(
    `select r.*, (select count(*) from users u where u.role_id = r.id) as user_count from roles r order by r.built_in desc, r.created_at`,
  );
  return rows.map((r) => ({ id: r.id, name: r.name, roleType: r.role_type, builtIn: r.built_in, permissions: r.permissions, userCount: Number(r.user_count) }));
}

export async function findRole(sql: SqlExecutor, id: string): Promise<{ name: string; permissions: Permission[]; builtIn: boolean } | null> {
  const [row] = await sql.query<{ name: string; permissions: Permission[]; built_in: boolean }>('select name, permissions, built_in from roles where id = $1', [id]);
  return row ? { name: row.name, permissions: row.permissions, builtIn: row.built_in } : null;
}

export async function roleNameTaken(sql: SqlExecutor, name: string): Promise<boolean> {
  return (await sql.query('select 1 from roles where name = $1', [name])).length > 0;
}

/** `permissions` as stored: canonical and within the creator's own rights. */
export async function createRole(sql: SqlExecutor, role: { name: string; roleType: string; permissions: Permission[] }): Promise<string> {
  const [row] = await sql.query<{ id: string }>(`insert into roles (name, role_type, permissions) values ($1, $2, $3::jsonb) returning id`, [role.name, role.roleType, JSON.stringify(role.permissions)]);
  return row!.id;
}

/** Changes what is given; null keeps the role's value. */
export async function updateRole(sql: SqlExecutor, id: string, change: { name: string | null; roleType: string | null; permissions: Permission[] | null }): Promise<void> {
  await sql.query(`update roles set name = coalesce($2, name), role_type = coalesce($3, role_type), permissions = coalesce($4::jsonb, permissions) where id = $1`, [
    id,
    change.name,
    change.roleType,
    change.permissions ? JSON.stringify(change.permissions) : null,
  ]);
}

export async function roleInUse(sql: SqlExecutor, id: string): Promise<boolean> {
  return (await sql.query('select 1 from users where role_id = $1 limit 1', [id])).length > 0;
}

export async function deleteRole(sql: SqlExecutor, id: string): Promise<void> {
  await sql.query('delete from roles where id = $1', [id]);
}

/** The id of a role by its name (the built-in `viewer` for those who sign up). */
export async function roleIdByName(sql: SqlExecutor, name: string): Promise<string | null> {
  const [role] = await sql.query<{ id: string }>(`select id from roles where name = $1`, [name]);
  return role?.id ?? null;
}
