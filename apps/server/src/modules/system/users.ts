import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pageQuerySchema, userCreateSchema, userIdSchema, userResetPasswordSchema, userUpdateSchema, responsesOf, emptyResultSchema, userPageSchema, createdIdSchema, endedSessionsSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { assertAcceptablePassword, hashPassword } from '../../lib/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { findTaken, findUserById, listUsers } from '../users/repository.ts';

/** Administration of users: create, edit, freeze and thaw, reset password, end sessions. */
const systemUsers: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/users';

  async function assertRoleAndOrg(roleId?: string, orgId?: string | null): Promise<void> {
    if (roleId && !(await sql.query('select 1 from roles where id = $1', [roleId])).length) throw new AppError('role.notFound');
    if (orgId && !(await sql.query('select 1 from organizations where id = $1', [orgId])).length) throw new AppError('org.notFound');
  }
  async function existing(id: string) {
    const user = await findUserById(sql, id);
    if (!user) throw new AppError('user.notFound');
    return user;
  }

  app.get(base, { config: { access: 'user.query' }, schema: { tags: ['users'], response: responsesOf(userPageSchema), querystring: pageQuerySchema } }, async (request) => ok(await listUsers(sql, request.query)));

  app.post(`${base}/create`, { config: { access: 'user.add' }, schema: { tags: ['users'], response: responsesOf(createdIdSchema), body: userCreateSchema } }, async (request) => {
    const b = request.body;
    assertAcceptablePassword(b.password, b.username);
    await assertRoleAndOrg(b.roleId, b.orgId);
    const taken = await findTaken(sql, b);
    if (taken.length) throw new AppError('user.exists', { fields: taken });
    const [row] = await sql.query<{ id: string }>(
      `insert into users (username, name, email, mobile, password_hash, role_id, org_id, language, status)
       values ($1, $2, $3, $4, $5, $6, $7, $8, 'active') returning id`,
      [b.username, b.name, b.email ?? null, b.mobile ?? null, await hashPassword(b.password), b.roleId, b.orgId ?? null, b.language ?? 'zh-CN'],
    );
    await app.audit({ action: 'user.create', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: row!.id, detail: { after: { username: b.username, roleId: b.roleId, orgId: b.orgId ?? null } } });
    return ok({ id: row!.id });
  });

  app.post(`${base}/update`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userUpdateSchema } }, async (request) => {
    const b = request.body;
    const before = await existing(b.id);
    await assertRoleAndOrg(b.roleId, b.orgId);
    const taken = await findTaken(sql, { email: b.email, mobile: b.mobile }, b.id);
    if (taken.length) throw new AppError('user.exists', { fields: taken });
    if (b.id === request.auth!.userId && b.roleId && b.roleId !== before.role_id) throw new AppError('user.self');
    await sql.query(
      `update users set name = coalesce($2, name),
              email = case when $3::boolean then $4 else email end,
              mobile = case when $5::boolean then $6 else mobile end,
              role_id = coalesce($7, role_id),
              org_id = case when $8::boolean then $9::uuid else org_id end,
              language = coalesce($10, language),
              two_step = coalesce($11, two_step),
              updated_at = now() where id = $1`,
      [b.id, b.name ?? null, b.email !== undefined, b.email ?? null, b.mobile !== undefined, b.mobile ?? null, b.roleId ?? null, b.orgId !== undefined, b.orgId ?? null, b.language ?? null, b.twoStep ?? null],
    );
    await app.audit({
      action: 'user.update', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: b.id,
      detail: { before: { name: before.name, email: before.email, mobile: before.mobile, roleId: before.role_id, orgId: before.org_id, twoStep: before.two_step }, change: { ...b } },
    });
    return ok(null, 'modification successful');
  });

  /** Freezing ends every session of the user at once; a frozen user cannot sign in. */
  app.post(`${base}/freeze`, { config: { access: 'user.disable' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const user = await existing(request.body.id);
    if (user.id === request.auth!.userId) throw new AppError('user.self');
    await sql.query(`update users set status = 'frozen', updated_at = now() where id = $1`, [user.id]);
    const ended = await revokeUserSessions(sql, user.id);
    await app.audit({ action: 'user.freeze', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { before: user.status, sessionsEnded: ended } });
    return ok(null);
  });

  app.post(`${base}/thaw`, { config: { access: 'user.enable' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const user = await existing(request.body.id);
    await sql.query(`update users set status = 'active', updated_at = now() where id = $1`, [user.id]);
    await app.audit({ action: 'user.thaw', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { before: user.status } });
    return ok(null);
  });

  app.post(`${base}/reset-password`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userResetPasswordSchema } }, async (request) => {
    const user = await existing(request.body.id);
    assertAcceptablePassword(request.body.password, user.username);
    await sql.query('update users set password_hash = $2, updated_at = now() where id = $1', [user.id, await hashPassword(request.body.password)]);
    const ended = await revokeUserSessions(sql, user.id, user.id === request.auth!.userId ? request.auth!.sessionId : undefined);
    await app.audit({ action: 'user.resetPassword', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { sessionsEnded: ended } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/end-sessions`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(endedSessionsSchema), body: userIdSchema } }, async (request) => {
    const user = await existing(request.body.id);
    const ended = await revokeUserSessions(sql, user.id, user.id === request.auth!.userId ? request.auth!.sessionId : undefined);
    await app.audit({ action: 'user.endSessions', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { sessionsEnded: ended } });
    return ok({ ended });
  });
};

export default systemUsers;
