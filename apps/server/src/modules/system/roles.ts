import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canonicalPermissions, grantsBeyond, roleCreateSchema, roleUpdateSchema, userIdSchema, type Permission, type RoleView, responsesOf, emptyResultSchema, listOf, roleViewSchema, createdIdSchema } from '@liftlink/protocol';
import type { AuthContext } from '../../types.ts';
import { AppError, ok } from '../../lib/errors.ts';

/**
 * A role's permissions as stored (canonical: one entry per permission and scope). Nobody
 * grants a right, or a wider scope of one, beyond their own: the answer is 403 `forbidden`
 * naming the `permissionId.action` pairs, and nothing changes.
 */
function grantable(auth: AuthContext, wanted: Permission[]): Permission[] {
  const beyond = grantsBeyond(auth.permissions, wanted);
  if (beyond.length) throw new AppError('forbidden', { grants: beyond });
  return canonicalPermissions(wanted);
}

/** Roles and their permission x action x scope matrix. `roleType` is a label: it grants nothing. */
const systemRoles: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/roles';
  const actor = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  app.get(base, { config: { access: 'role.query' }, schema: { tags: ['roles'], response: responsesOf(listOf(roleViewSchema)) } }, async () => {
    const rows = await sql.query<{ id: string; name: string; role_type: string; built_in: boolean; permissions: Permission[]; user_count: string }>(
      `select r.*, (select count(*) from users u where u.role_id = r.id) as user_count from roles r order by r.built_in desc, r.created_at`,
    );
    const list: RoleView[] = rows.map((r) => ({ id: r.id, name: r.name, roleType: r.role_type, builtIn: r.built_in, permissions: r.permissions, userCount: Number(r.user_count) }));
    return ok({ list });
  });

  app.post(`${base}/create`, { config: { access: 'role.add' }, schema: { tags: ['roles'], response: responsesOf(createdIdSchema), body: roleCreateSchema } }, async (request) => {
    const b = request.body;
    if ((await sql.query('select 1 from roles where name = $1', [b.name])).length) throw new AppError('role.exists');
    const [row] = await sql.query<{ id: string }>(`insert into roles (name, role_type, permissions) values ($1, $2, $3::jsonb) returning id`, [
      b.name,
      b.roleType ?? 'custom',
      JSON.stringify(grantable(request.auth!, b.permissions)),
    ]);
    await app.audit({ action: 'role.create', result: 'ok', ...actor(request), targetType: 'role', targetId: row!.id, detail: { after: b } });
    return ok({ id: row!.id });
  });

  app.post(`${base}/update`, { config: { access: 'role.edit' }, schema: { tags: ['roles'], response: responsesOf(emptyResultSchema), body: roleUpdateSchema } }, async (request) => {
    const b = request.body;
    const [before] = await sql.query<{ name: string; permissions: Permission[] }>('select name, permissions from roles where id = $1', [b.id]);
    if (!before) throw new AppError('role.notFound');
    if (b.name && b.name !== before.name && (await sql.query('select 1 from roles where name = $1', [b.name])).length) throw new AppError('role.exists');
    await sql.query(`update roles set name = coalesce($2, name), role_type = coalesce($3, role_type), permissions = coalesce($4::jsonb, permissions) where id = $1`, [
      b.id,
      b.name ?? null,
      b.roleType ?? null,
      b.permissions ? JSON.stringify(grantable(request.auth!, b.permissions)) : null,
    ]);
    await app.audit({ action: 'role.update', result: 'ok', ...actor(request), targetType: 'role', targetId: b.id, detail: { before, after: b } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/delete`, { config: { access: 'role.delete' }, schema: { tags: ['roles'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const [role] = await sql.query<{ built_in: boolean }>('select built_in from roles where id = $1', [request.body.id]);
    if (!role) throw new AppError('role.notFound');
    if (role.built_in) throw new AppError('role.builtIn');
    if ((await sql.query('select 1 from users where role_id = $1 limit 1', [request.body.id])).length) throw new AppError('role.inUse');
    await sql.query('delete from roles where id = $1', [request.body.id]);
    await app.audit({ action: 'role.delete', result: 'ok', ...actor(request), targetType: 'role', targetId: request.body.id });
    return ok(null);
  });
};

export default systemRoles;
