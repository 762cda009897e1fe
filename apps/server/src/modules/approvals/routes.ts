import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { approvalDecisionSchema, approvalListQuerySchema, approvalRequestSchema, approvalViewSchema, commandResultSchema, listOf, responsesOf } from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { ownedLift } from '../lifts/scope.ts';
import orgApprovalClassRoutes from './org-routes.ts';
import { approvalsOf, approveAndRun, closeApproval, requestApproval } from './service.ts';

/**
 * Two-person approval of a command (docs/remote-control.md): request with a reason, approve
 * (runs the command), reject, withdraw, and the lift's list. Every route loads the lift within
 * the scope of its grant, so a lift out of reach is "not found".
 */
const approvalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/lift/approval';

  app.post(`${base}/request`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(approvalViewSchema), body: approvalRequestSchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.body.liftId);
    return ok(await requestApproval(app, request, lift, request.body));
  });

  /** Another user approves: the command runs at once, and the answer is its outcome. */
  app.post(`${base}/approve`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(commandResultSchema), body: approvalDecisionSchema } }, async (request) => {
    return ok(await approveAndRun(app, request, request.body.approvalId));
  });

  app.post(`${base}/reject`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(approvalViewSchema), body: approvalDecisionSchema } }, async (request) => {
    return ok(await closeApproval(app, request, request.body.approvalId, 'rejected'));
  });

  app.post(`${base}/withdraw`, { config: { access: 'liftControl.enable' }, schema: { tags: ['control'], response: responsesOf(approvalViewSchema), body: approvalDecisionSchema } }, async (request) => {
    return ok(await closeApproval(app, request, request.body.approvalId, 'withdrawn'));
  });

  app.get(`${base}/list`, { config: { access: 'lift.get' }, schema: { tags: ['control'], response: responsesOf(listOf(approvalViewSchema)), querystring: approvalListQuerySchema } }, async (request) => {
    const lift = await ownedLift(sql, request.auth!, request.query.liftId);
    return ok({ list: await approvalsOf(app, lift) });
  });

  await app.register(orgApprovalClassRoutes);
};

export default approvalRoutes;
