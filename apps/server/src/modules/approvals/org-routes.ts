import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approvalClassesUpdateSchema, commandClassSchema, responsesOf } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { orgApprovalClasses, setOrgApprovalClasses } from './org-classes.ts';

const approvalClassesSchema = z.strictObject({ orgId: z.string(), approvalClasses: z.array(commandClassSchema) });

/**
 * An organization's choice of the command classes under two-person approval, beside the
 * other organization routes (`/auth/access/system/orgs/...`). The lift's operator organization
 * decides for it, or its maker's when it has none.
 */
const orgApprovalClassRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/system/orgs/approval-classes';

  app.get(base, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(approvalClassesSchema), querystring: z.strictObject({ orgId: z.uuid('validation.id') }) } }, async (request) => {
    const org = await orgApprovalClasses(sql, request.query.orgId);
    if (!org) throw new AppError('org.notFound');
    return ok({ orgId: request.query.orgId, approvalClasses: org.approvalClasses });
  });

  app.post(`${base}/update`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(approvalClassesSchema), body: approvalClassesUpdateSchema } }, async (request) => {
    const { orgId, approvalClasses } = request.body;
    const org = await orgApprovalClasses(sql, orgId);
    if (!org) throw new AppError('org.notFound');
    await setOrgApprovalClasses(sql, orgId, approvalClasses);
    await app.audit({
      action: 'org.update',
      result: 'ok',
      userId: request.auth!.userId,
      username: request.auth!.username,
      ip: request.ip,
      targetType: 'org',
      targetId: orgId,
      detail: { before: { name: org.name, approvalClasses: org.approvalClasses }, after: { id: orgId, name: org.name, approvalClasses } },
    });
    return ok({ orgId, approvalClasses }, 'modification successful');
  });
};

export default orgApprovalClassRoutes;
