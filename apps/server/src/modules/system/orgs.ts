import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { orgAssignLiftsSchema, orgCreateSchema, orgUpdateSchema, userIdSchema, responsesOf, emptyResultSchema, listOf, orgViewSchema, orgLiftSchema, createdIdSchema, assignedCountSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { assignLifts, countLifts, createOrg, deleteOrg, findOrg, listOrgs, orgInUse, orgLifts, orgNameTaken, updateOrg } from './org-repository.ts';

/** Organizations (manufacturer or operator) and which lifts each operator holds. */
const systemOrgs: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/orgs';
  const actor = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({ userId: r.auth!.userId, username: r.auth!.username, ip: r.ip });

  app.get(base, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(listOf(orgViewSchema)) } }, async () => {
    return ok({ list: await listOrgs(sql) });
  });

  app.get(`${base}/lifts`, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(listOf(orgLiftSchema)), querystring: z.strictObject({ orgId: z.uuid('validation.id') }) } }, async (request) => {
    return ok({ list: await orgLifts(sql, request.query.orgId) });
  });

  app.post(`${base}/create`, { config: { access: 'org.add' }, schema: { tags: ['organizations'], response: responsesOf(createdIdSchema), body: orgCreateSchema } }, async (request) => {
    if (await orgNameTaken(sql, request.body.name)) throw new AppError('org.exists');
    const id = await createOrg(sql, request.body.name, request.body.kind, request.body.timeZone);
    await app.audit({ action: 'org.create', result: 'ok', ...actor(request), targetType: 'org', targetId: id, detail: { after: request.body } });
    return ok({ id });
  });

  app.post(`${base}/update`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(emptyResultSchema), body: orgUpdateSchema } }, async (request) => {
    const org = await findOrg(sql, request.body.id);
    if (!org) throw new AppError('org.notFound');
    if (await orgNameTaken(sql, request.body.name, request.body.id)) throw new AppError('org.exists');
    await updateOrg(sql, request.body.id, request.body.name, request.body.timeZone);
    await app.audit({ action: 'org.update', result: 'ok', ...actor(request), targetType: 'org', targetId: request.body.id, detail: { before: { name: org.name, timeZone: org.timeZone }, after: request.body } });
    return ok(null, 'modification successful');
  });

  app.post(`${base}/delete`, { config: { access: 'org.delete' }, schema: { tags: ['organizations'], response: responsesOf(emptyResultSchema), body: userIdSchema } }, async (request) => {
    const id = request.body.id;
    if (!(await findOrg(sql, id))) throw new AppError('org.notFound');
    if (await orgInUse(sql, id)) throw new AppError('org.inUse');
    await deleteOrg(sql, id);
    await app.audit({ action: 'org.delete', result: 'ok', ...actor(request), targetType: 'org', targetId: id });
    return ok(null);
  });

  /** Assigns lifts to an operator organization (or takes them back with orgId null). */
  app.post(`${base}/assign-lifts`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(assignedCountSchema), body: orgAssignLiftsSchema } }, async (request) => {
    const { orgId, liftIds } = request.body;
    if (orgId) {
      const org = await findOrg(sql, orgId);
      if (!org) throw new AppError('org.notFound');
      if (org.kind !== 'operator') throw new AppError('org.notOperator');
    }
    if ((await countLifts(sql, liftIds)) !== new Set(liftIds).size) throw new AppError('lift.notFound');
    await assignLifts(sql, orgId, liftIds);
    await app.audit({ action: 'org.assignLifts', result: 'ok', ...actor(request), targetType: 'org', targetId: orgId ?? '', detail: { liftIds } });
    return ok({ assigned: liftIds.length });
  });
};

export default systemOrgs;
