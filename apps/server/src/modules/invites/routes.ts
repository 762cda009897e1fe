import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emptyResultSchema, formatInviteCode, inviteCreateSchema, inviteCreatedSchema, inviteIdSchema, inviteListSchema, inviteRedeemSchema, inviteRedeemedSchema, responsesOf } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { accountKey, addressKey, assertNotBlocked, recordFailure } from '../auth/throttle.ts';
import { findUserById, joinOrganization } from '../users/repository.ts';
import { findOrg } from '../system/org-repository.ts';
import { findRole } from '../system/role-repository.ts';
import { inviteDetail, inviteHash, inviteInvalid, newInviteCode } from './codes.ts';
import { createInvite, findInvite, listInvites, redeemInvite, revokeInvite } from './repository.ts';

/**
 * Organization invite codes (docs/product.md, "Invite codes"): user administrators make,
 * list and revoke them; a signed-in user without organization redeems one. Registration
 * with a code is in auth/routes.ts.
 */
const inviteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/invites';

  app.get(base, { config: { access: 'user.add' }, schema: { tags: ['users'], response: responsesOf(inviteListSchema) } }, async () => ok({ list: await listInvites(sql) }));

  /** The whole code is in this answer only; the server keeps its hash and first characters. */
  app.post(`${base}/create`, { config: { access: 'user.add' }, schema: { tags: ['users'], response: responsesOf(inviteCreatedSchema), body: inviteCreateSchema } }, async (request) => {
    const b = request.body;
    if (!(await findOrg(sql, b.orgId))) throw new AppError('org.notFound');
    if (!(await findRole(sql, b.roleId))) throw new AppError('role.notFound');
    const code = newInviteCode();
    const created = await createInvite(sql, { codeHash: code.hash, prefix: code.prefix, orgId: b.orgId, roleId: b.roleId, days: b.days, maxUses: b.maxUses, createdBy: request.auth!.userId });
    const record = (await findInvite(sql, created.id))!;
    await app.audit({ action: 'invite.create', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'invite', targetId: created.id, detail: { ...withoutId(record) } });
    return ok({ id: created.id, code: formatInviteCode(code.code), prefix: code.prefix, expiresAt: created.expiresAt.toISOString() });
  });

  app.post(`${base}/revoke`, { config: { access: 'user.add' }, schema: { tags: ['users'], response: responsesOf(emptyResultSchema), body: inviteIdSchema } }, async (request) => {
    const record = await findInvite(sql, request.body.id);
    if (!record) throw new AppError('invite.notFound');
    if (await revokeInvite(sql, record.id)) {
      await app.audit({ action: 'invite.revoke', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'invite', targetId: record.id, detail: { ...withoutId(record) } });
    }
    return ok(null);
  });

  /** A signed-in user without organization joins the code's organization with its role. */
  app.post('/auth/access/account/invite/redeem', { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(inviteRedeemedSchema), body: inviteRedeemSchema } }, async (request) => {
    const auth = request.auth!;
    const keys = [accountKey(auth.username), addressKey(request.ip)];
    await assertNotBlocked(sql, keys);
    const audit = (result: 'ok' | 'failed', detail: Record<string, unknown>) =>
      app.audit({ action: 'invite.redeem', result, userId: auth.userId, username: auth.username, ip: request.ip, targetType: 'user', targetId: auth.userId, detail });
    const user = await findUserById(sql, auth.userId);
    if (!user) throw new AppError('auth.unauthorized');
    if (user.org_id) {
      await audit('failed', { reason: 'user.hasOrganization' });
      throw new AppError('user.hasOrganization');
    }
    const hash = inviteHash(request.body.code);
    // Both in one transaction: the use is counted only if the user joins, and the other way round.
    const outcome = await sql.transaction(async (tx) => {
      const invite = await redeemInvite(tx, hash);
      if (!invite) return 'invalid' as const;
      if (!(await joinOrganization(tx, auth.userId, invite.orgId, invite.roleId))) throw new AppError('user.hasOrganization');
      return invite;
    });
    if (outcome === 'invalid') {
      await recordFailure(sql, keys);
      await audit('failed', { reason: 'inviteInvalid' });
      throw inviteInvalid('code');
    }
    await audit('ok', { invite: inviteDetail(outcome) });
    return ok({ organization: { id: outcome.orgId, name: outcome.orgName }, role: { id: outcome.roleId, name: outcome.roleName } });
  });
};

function withoutId<T extends { id: string }>(record: T): Omit<T, 'id'> {
  const { id: _id, ...rest } = record;
  return rest;
}

export default inviteRoutes;
