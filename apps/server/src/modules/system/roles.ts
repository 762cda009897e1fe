import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canonicalPermissions, grantsBeyond, roleCreateSchema, roleUpdateSchema, userIdSchema, type Permission, responsesOf, emptyResultSchema, listOf, roleViewSchema, createdIdSchema } from '@liftlink/protocol';
import type { AuthContext } from '../../types.ts';
import { AppError, ok } from '../../lib/errors.ts';
import { createRole, deleteRole, findRole, listRoles, roleInUse, roleNameTaken, updateRole } from './role-repository.ts';

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
    return ok({ list: await listRoles(sql) });
  });

  app.post(`${base}/create`, { config: { access: 'role.add' }, schema: { tags: ['roles'], response: responsesOf(createdIdSchema), body: roleCreateSchema } }, async (request) => {
    const b = request.body;
    if (await roleNameTaken(sql, b.name)) throw new AppError('role.exists');
    const id = await createRole(sql, { name: b.name, roleType: b.roleType ?? 'custom', permissions: grantable(request.auth!, b.permissions) });
    await app.audit({ action: 'role.create', result: 'ok', ...actor(request), targetType: 'role', targetId: id, detail: { after: b } });
    return ok({ id });
  });

  app.post(`${base}/update`, { config: { access: 'role.edit' }, schema: { tags: ['roles'], response: responsesOf(emptyResultSchema), body: roleUpdateSchema } }, async (request) => {
    const b = request.body;
    const role = await findRole(sql, b.id);
    if (!role) throw new AppError('role.notFound');
    if (b.name && b.name !== role.name && (await roleNameTaken(sql, b.name))) throw new AppError('role.exists');
    await updateRole(sql, b.id, { name: b.name ?? null, roleType: b.roleType ?? null, permissions: b.permissions ? grantable(request.auth!, b.permissions) : null });
    const before = { name: role.name, permissions: role.permissions };
    await app.audit({ action: 'role.update', result: 'ok', ...actor(request), targetType: 'role', targetId: b.id, detail: { before, after: b } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/delete`, { config: { access: 'role.delete' }, schema: { tags: ['roles'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const role = await findRole(sql, request.body.id);
    if (!role) throw new AppError('role.notFound');
    if (role.builtIn) throw new AppError('role.builtIn');
    if (await roleInUse(sql, request.body.id)) throw new AppError('role.inUse');
    await deleteRole(sql, request.body.id);
    await app.audit({ action: 'role.delete', result: 'ok', ...actor(request), targetType: 'role', targetId: request.body.id });
    return ok(null);
  });
};

export default systemRoles;
