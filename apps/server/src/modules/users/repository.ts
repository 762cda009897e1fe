import { ACTIONS, APP_ROUTES, filterRoutes, type Permission, type UserInfo, type UserView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

export interface UserRow {
  id: string;
  username: string;
  email: string | null;
  mobile: string | null;
  name: string;
  avatar: string;
  language: string;
  status: 'active' | 'frozen' | 'pending';
  password_hash: string;
  two_step: boolean;
  role_id: string;
  org_id: string | null;
  settings: Record<string, unknown>;
  notifications: Record<string, unknown>;
}

/** Sign-in accepts the username or the email address. */
export async function findUserByLogin(sql: SqlExecutor, login: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>(`select * from users where lower(username) = lower($1) or lower(email) = lower($1) limit 1`, [login.trim()]);
  return row;
}

export async function findUserByMobile(sql: SqlExecutor, mobile: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>(`select * from users where mobile = $1`, [mobile]);
  return row;
}

export async function findUserById(sql: SqlExecutor, id: string): Promise<UserRow | undefined> {
  const [row] = await sql.query<UserRow>(`select * from users where id = $1`, [id]);
  return row;
}

/** Which of username, email, mobile are taken by someone other than `exceptId`. */
export async function findTaken(sql: SqlExecutor, u: { username?: string; email?: string | null; mobile?: string | null }, exceptId?: string): Promise<string[]> {
  const rows = await sql.query<{ username: string; email: string | null; mobile: string | null }>(
    `select username, email, mobile from users
      where (lower(username) = lower($1) or lower(email) = lower($2) or mobile = $3) and ($4::uuid is null or id <> $4::uuid)`,
    [u.username ?? null, u.email ?? null, u.mobile ?? null, exceptId ?? null],
  );
  const taken = new Set<string>();
  for (const r of rows) {
    if (u.username && r.username.toLowerCase() === u.username.toLowerCase()) taken.add('username');
    if (u.email && r.email?.toLowerCase() === u.email.toLowerCase()) taken.add('email');
    if (u.mobile && r.mobile === u.mobile) taken.add('mobile');
  }
  return [...taken];
}

/**
 * A user awaiting an organization (docs/product.md, "Invite codes"): none yet, and no grant
 * of scope `all` but the shared documents, so they reach no lift and administer nothing. A
 * condition on users `u` joined with their role `r`; user info and the users list share it.
 */
const AWAITING_ORGANIZATION = `(u.org_id is null and not exists (
  select 1 from jsonb_array_elements(r.permissions) as p(entry)
   where p.entry->>'scope' = 'all' and p.entry->>'permissionId' <> 'document' and jsonb_array_length(p.entry->'actions') > 0))`;

/** `/auth/access/info`: the user, the role with the spec's permission shape, and the filtered routes. */
export async function loadUserInfo(sql: SqlExecutor, userId: string): Promise<UserInfo | null> {
  const [row] = await sql.query<UserRow & { role_name: string; role_type: string; permissions: Permission[]; org_name: string | null; org_kind: 'manufacturer' | 'operator' | null; awaiting: boolean }>(
    `select u.*, r.name as role_name, r.role_type, r.permissions, o.name as org_name, o.kind as org_kind, ${AWAITING_ORGANIZATION} as awaiting
       from users u join roles r on r.id = u.role_id left join organizations o on o.id = u.org_id where u.id = $1`,
    [userId],
  );
  if (!row) return null;
  const permissions = row.permissions
    .filter((p) => p.actions.length > 0)
    .map((p) => {
      const actionList = ACTIONS.filter((a) => p.actions.includes(a));
      return { permissionId: p.permissionId, actionEntitySet: actionList.map((action) => ({ action })), actionList, scope: p.scope };
    });
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    avatar: row.avatar,
    email: row.email,
    mobile: row.mobile,
    language: row.language,
    roleType: row.role_type,
    organization: row.org_id ? { id: row.org_id, name: row.org_name!, kind: row.org_kind! } : null,
    role: { id: row.role_id, name: row.role_name, permissions },
    routes: filterRoutes(APP_ROUTES, new Set(permissions.map((p) => p.permissionId))),
    settings: row.settings,
    awaitingOrganization: row.awaiting,
  };
}

/** A page of users; `awaiting` keeps only those awaiting an organization. */
export async function listUsers(sql: SqlExecutor, q: { page: number; pageSize: number; keyword?: string | undefined; awaiting?: boolean | undefined }): Promise<{ list: UserView[]; total: number }> {
  const kw = q.keyword ? `%${q.keyword.replace(/[\\%_]/g, '\\$&')}%` : null;
  const where = `($1::text is null or u.username ilike $1 or u.name ilike $1 or u.email ilike $1 or u.mobile ilike $1)${q.awaiting ? ` and ${AWAITING_ORGANIZATION}` : ''}`;
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from users u join roles r on r.id = u.role_id where ${where}`, [kw]);
  const rows = await sql.query<UserRow & { role_name: string; org_name: string | null; created_at: Date; last_login_at: Date | null }>(
    `select u.*, r.name as role_name, o.name as org_name from users u join roles r on r.id = u.role_id
       left join organizations o on o.id = u.org_id where ${where} order by u.created_at, u.username limit $2 offset $3`,
    [kw, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return {
    total: Number(count!.n),
    list: rows.map((r) => ({
      id: r.id,
      username: r.username,
      name: r.name,
      email: r.email,
      mobile: r.mobile,
      status: r.status,
      language: r.language,
      twoStep: r.two_step,
      role: { id: r.role_id, name: r.role_name },
      organization: r.org_id ? { id: r.org_id, name: r.org_name! } : null,
      createdAt: new Date(r.created_at).toISOString(),
      lastLoginAt: r.last_login_at ? new Date(r.last_login_at).toISOString() : null,
    })),
  };
}

/** A user an administrator creates: active at once. `passwordHash` is the argon2id hash. */
export async function createUser(sql: SqlExecutor, u: { username: string; name: string; email: string | null; mobile: string | null; passwordHash: string; roleId: string; orgId: string | null; language: string }): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `insert into users (username, name, email, mobile, password_hash, role_id, org_id, language, status)
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'active') returning id`,
    [u.username, u.name, u.email, u.mobile, u.passwordHash, u.roleId, u.orgId, u.language],
  );
  return row!.id;
}

/** A user who signed up: pending until the activation link is followed; returns the new id. */
export async function createPendingUser(sql: Pick<SqlExecutor, 'query'>, u: { username: string; email: string | null; mobile: string | null; passwordHash: string; roleId: string; orgId?: string | null; language: string }): Promise<string> {
  const [row] = await sql.query<{ id: string }>(
    `insert into users (username, email, mobile, name, password_hash, role_id, org_id, status, language) values ($1, $2, $3, $1, $4, $5, $6, 'pending', $7) returning id`,
    [u.username, u.email, u.mobile, u.passwordHash, u.roleId, u.orgId ?? null, u.language],
  );
  return row!.id;
}

/**
 * An administrator's change to a user: a field left undefined keeps its value; email,
 * mobile and organization may be set to null (cleared).
 */
export async function updateUser(sql: SqlExecutor, id: string, c: { name?: string | undefined; email?: string | null | undefined; mobile?: string | null | undefined; roleId?: string | undefined; orgId?: string | null | undefined; language?: string | undefined; twoStep?: boolean | undefined }): Promise<void> {
  await sql.query(
    `update users set name = coalesce($2, name),
            email = case when $3::boolean then $4 else email end,
            mobile = case when $5::boolean then $6 else mobile end,
            role_id = coalesce($7, role_id),
            org_id = case when $8::boolean then $9::uuid else org_id end,
            language = coalesce($10, language),
            two_step = coalesce($11, two_step),
            updated_at = now() where id = $1`,
    [id, c.name ?? null, c.email !== undefined, c.email ?? null, c.mobile !== undefined, c.mobile ?? null, c.roleId ?? null, c.orgId !== undefined, c.orgId ?? null, c.language ?? null, c.twoStep ?? null],
  );
}

/**
 * Puts a user without organization into one, with a role: false (nothing changed) when
 * they belong to one already, checked in the same statement.
 */
export async function joinOrganization(sql: Pick<SqlExecutor, 'query'>, id: string, orgId: string, roleId: string): Promise<boolean> {
  const rows = await sql.query('update users set org_id = $2, role_id = $3, updated_at = now() where id = $1 and org_id is null returning id', [id, orgId, roleId]);
  return rows.length > 0;
}

/** Freezes or thaws a user; `onlyIfPending` activates a signed-up user once, never a frozen one. */
export async function setUserStatus(sql: SqlExecutor, id: string, status: 'active' | 'frozen', onlyIfPending = false): Promise<void> {
  await sql.query(`update users set status = $2, updated_at = now() where id = $1${onlyIfPending ? ` and status = 'pending'` : ''}`, [id, status]);
}

export async function setPasswordHash(sql: SqlExecutor, id: string, passwordHash: string): Promise<void> {
  await sql.query('update users set password_hash = $2, updated_at = now() where id = $1', [id, passwordHash]);
}

/** The user's own profile: a field left null keeps its value; `settings` is merged into the stored ones. */
export async function updateProfile(sql: SqlExecutor, id: string, p: { name: string | null; avatar: string | null; language: string | null; settings: Record<string, unknown> | null }): Promise<void> {
  await sql.query(
    `update users set name = coalesce($2, name), avatar = coalesce($3, avatar), language = coalesce($4, language),
            settings = settings || coalesce($5::jsonb, '{}'::jsonb), updated_at = now() where id = $1`,
    [id, p.name, p.avatar, p.language, p.settings ? JSON.stringify(p.settings) : null],
  );
}

/** Binds an email address or a mobile number (already checked: verified and not taken). */
export async function bindContact(sql: SqlExecutor, id: string, field: 'email' | 'mobile', value: string): Promise<void> {
  await sql.query(`update users set ${field === 'email' ? 'email' : 'mobile'} = $2, updated_at = now() where id = $1`, [id, value]);
}

export async function setNotificationSettings(sql: SqlExecutor, id: string, settings: Record<string, unknown>): Promise<void> {
  await sql.query('update users set notifications = $2::jsonb, updated_at = now() where id = $1', [id, JSON.stringify(settings)]);
}

export async function markLogin(sql: SqlExecutor, id: string): Promise<void> {
  await sql.query('update users set last_login_at = now() where id = $1', [id]);
}
