import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { userListQuerySchema, userAssignSchema, userCreateSchema, userIdSchema, userResetPasswordSchema, userUpdateSchema, responsesOf, emptyResultSchema, userPageSchema, createdIdSchema, endedSessionsSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { assertAcceptablePassword, hashPassword } from '../../lib/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { createUser, findTaken, findUserById, joinOrganization, listUsers, setPasswordHash, setUserStatus, updateUser } from '../users/repository.ts';
import { findOrg } from './org-repository.ts';
import { findRole } from './role-repository.ts';

/** Administration of users: create, edit, freeze and thaw, reset password, end sessions. */
const systemUsers: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/users';

  async function assertRoleAndOrg(roleId?: string, orgId?: string | null): Promise<void> {
    if (roleId && !(await findRole(sql, roleId))) throw new AppError('role.notFound');
    if (orgId && !(await findOrg(sql, orgId))) throw new AppError('org.notFound');
  }
  async function existing(id: string) {
    const user = await findUserById(sql, id);
    if (!user) throw new AppError('user.notFound');
    return user;
  }

  /** `awaiting=true`: only the accounts awaiting an organization (docs/product.md, "Invite codes"). */
  app.get(base, { config: { access: 'user.query' }, schema: { tags: ['users'], response: responsesOf(userPageSchema), querystring: userListQuerySchema } }, async (request) => ok(await listUsers(sql, request.query)));

  app.post(`${base}/create`, { config: { access: 'user.add' }, schema: { tags: ['users'], response: responsesOf(createdIdSchema), body: userCreateSchema } }, async (request) => {
    const b = request.body;
    assertAcceptablePassword(b.password, b.username);
    await assertRoleAndOrg(b.roleId, b.orgId);
    const taken = await findTaken(sql, b);
    if (taken.length) throw new AppError('user.exists', { fields: taken });
    const id = await createUser(sql, { username: b.username, name: b.name, email: b.email ?? null, mobile: b.mobile ?? null, passwordHash: await hashPassword(b.password), roleId: b.roleId, orgId: b.orgId ?? null, language: b.language ?? 'zh-CN' });
    await app.audit({ action: 'user.create', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: id, detail: { after: { username: b.username, roleId: b.roleId, orgId: b.orgId ?? null } } });
    return ok({ id });
  });

  app.post(`${base}/update`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userUpdateSchema } }, async (request) => {
    const b = request.body;
    const before = await existing(b.id);
    await assertRoleAndOrg(b.roleId, b.orgId);
    const taken = await findTaken(sql, { email: b.email, mobile: b.mobile }, b.id);
    if (taken.length) throw new AppError('user.exists', { fields: taken });
    if (b.id === request.auth!.userId && b.roleId && b.roleId !== before.role_id) throw new AppError('user.self');
    await updateUser(sql, b.id, b);
    await app.audit({
      action: 'user.update', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: b.id,
      detail: { before: { name: before.name, email: before.email, mobile: before.mobile, roleId: before.role_id, orgId: before.org_id, twoStep: before.two_step }, change: { ...b } },
    });
    return ok(null, 'modification successful');
  });

  /** An account awaiting an organization gets one and a role; one that has an organization is refused. */
  app.post(`${base}/assign`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userAssignSchema } }, async (request) => {
    const b = request.body;
    const user = await existing(b.id);
    if (user.id === request.auth!.userId) throw new AppError('user.self');
    const org = await findOrg(sql, b.orgId);
    if (!org) throw new AppError('org.notFound');
    const role = await findRole(sql, b.roleId);
    if (!role) throw new AppError('role.notFound');
    if (!(await joinOrganization(sql, user.id, b.orgId, b.roleId))) throw new AppError('user.hasOrganization');
    await app.audit({ action: 'user.assign', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { orgId: b.orgId, orgName: org.name, roleId: b.roleId, roleName: role.name } });
    return ok(null, 'modification successful');
  });

  /** Freezing ends every session of the user at once; a frozen user cannot sign in. */
  app.post(`${base}/freeze`, { config: { access: 'user.disable' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const user = await existing(request.body.id);
    if (user.id === request.auth!.userId) throw new AppError('user.self');
    await setUserStatus(sql, user.id, 'frozen');
    const ended = await revokeUserSessions(sql, user.id);
    await app.audit({ action: 'user.freeze', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { before: user.status, sessionsEnded: ended } });
    return ok(null);
  });

  app.post(`${base}/thaw`, { config: { access: 'user.enable' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const user = await existing(request.body.id);
    await setUserStatus(sql, user.id, 'active');
    await app.audit({ action: 'user.thaw', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'user', targetId: user.id, detail: { before: user.status } });
    return ok(null);
  });

  app.post(`${base}/reset-password`, { config: { access: 'user.edit' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: userResetPasswordSchema } }, async (request) => {
    const user = await existing(request.body.id);
    assertAcceptablePassword(request.body.password, user.username);
    await setPasswordHash(sql, user.id, await hashPassword(request.body.password));
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
