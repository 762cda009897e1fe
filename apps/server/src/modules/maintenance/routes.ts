import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  maintenanceDueListSchema,
  maintenanceDueQuerySchema,
  maintenanceLiftQuerySchema,
  maintenanceLiftSchema,
  maintenancePlanDeleteSchema,
  maintenancePlanSetSchema,
  maintenanceTemplateListSchema,
  maintenanceTemplateQuerySchema,
  maintenanceTemplateResetSchema,
  maintenanceTemplateSchema,
  maintenanceTemplateSetSchema,
  maintenanceVisitGetQuerySchema,
  maintenanceVisitListQuerySchema,
  maintenanceVisitPageSchema,
  maintenanceVisitRecordSchema,
  maintenanceVisitSchema,
  responsesOf,
} from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { maintenanceMailJob } from './job.ts';
import { dueList, liftMaintenance, recordVisit, removePlan, resetTemplate, setPlan, setTemplate, templateList, visitDetail, visitPage } from './service.ts';

/**
 * Maintenance plans and visits (docs/service.md). Reading plans, due lists and visits needs
 * `incident.query` / `incident.get`; recording a visit `incident.edit` (technicians); setting a
 * plan or an organization's checklist `liftConfig.edit` (like the lift's other settings). Each
 * lift within the grant's scope: a lift out of reach is "not found".
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    app.jobs.add(maintenanceMailJob);
    const base = '/auth/access/lift/maintenance';
    const tags = ['maintenance'];

    app.get(`${base}/templates`, { config: { access: 'incident.query' }, schema: { tags, response: responsesOf(maintenanceTemplateListSchema), querystring: maintenanceTemplateQuerySchema } }, async (request) => ok({ list: await templateList(sql, request.auth!, request.query.orgId) }));

    app.post(`${base}/templates/set`, { config: { access: 'liftConfig.edit' }, schema: { tags, response: responsesOf(maintenanceTemplateSchema), body: maintenanceTemplateSetSchema } }, async (request) => ok(await setTemplate(app, request, request.body)));

    app.post(`${base}/templates/reset`, { config: { access: 'liftConfig.edit' }, schema: { tags, response: responsesOf(maintenanceTemplateSchema), body: maintenanceTemplateResetSchema } }, async (request) => ok(await resetTemplate(app, request, request.body)));

    app.get(base, { config: { access: 'incident.get' }, schema: { tags, response: responsesOf(maintenanceLiftSchema), querystring: maintenanceLiftQuerySchema } }, async (request) => ok(await liftMaintenance(sql, request.auth!, request.query.liftId)));

    app.post(`${base}/plan/set`, { config: { access: 'liftConfig.edit' }, schema: { tags, response: responsesOf(maintenanceLiftSchema), body: maintenancePlanSetSchema } }, async (request) => ok(await setPlan(app, request, request.body)));

    app.post(`${base}/plan/delete`, { config: { access: 'liftConfig.edit' }, schema: { tags, response: responsesOf(maintenanceLiftSchema), body: maintenancePlanDeleteSchema } }, async (request) => ok(await removePlan(app, request, request.body.liftId)));

    app.get(`${base}/due`, { config: { access: 'incident.query' }, schema: { tags, response: responsesOf(maintenanceDueListSchema), querystring: maintenanceDueQuerySchema } }, async (request) => ok({ list: await dueList(sql, request.auth!, request.query.status) }));

    app.get(`${base}/visits`, { config: { access: 'incident.get' }, schema: { tags, response: responsesOf(maintenanceVisitPageSchema), querystring: maintenanceVisitListQuerySchema } }, async (request) => ok(await visitPage(sql, request.auth!, request.query)));

    app.get(`${base}/visits/get`, { config: { access: 'incident.get' }, schema: { tags, response: responsesOf(maintenanceVisitSchema), querystring: maintenanceVisitGetQuerySchema } }, async (request) => ok(await visitDetail(sql, request.auth!, request.query.id)));

    app.post(`${base}/visits/record`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(maintenanceVisitSchema), body: maintenanceVisitRecordSchema } }, async (request) => ok(await recordVisit(app, request, request.body)));
  },
  { name: 'liftlink-maintenance', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database', 'live', 'audit', 'mailer'] } },
);
