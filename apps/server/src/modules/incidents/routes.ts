import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  incidentAssignSchema,
  incidentAssigneeListSchema,
  incidentCreateSchema,
  incidentDetailSchema,
  incidentGetQuerySchema,
  incidentListQuerySchema,
  incidentNoteInputSchema,
  incidentPageSchema,
  incidentTransitionSchema,
  incidentViewSchema,
  maintenanceDeclareSchema,
  maintenanceEndSchema,
  maintenanceListQuerySchema,
  maintenanceWindowListSchema,
  maintenanceWindowSchema,
  responsesOf,
} from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import type { JobDefinition } from '../jobs/plugin.ts';
import { setFaultSettleSeconds } from './hygiene.ts';
import incidentPhotoRoutes from './photos.ts';
import { addIncidentNote, assignIncident, createIncident, incidentAssignees, incidentDetail, incidentPage, transitionIncident } from './service.ts';
import { declareWindow, endWindow, listWindows, publishEdges } from './windows.ts';

/** Writes the run-log entries of maintenance windows that started or ended since the last run. */
export const maintenanceWindowJob: JobDefinition = {
  name: 'maintenance-windows',
  everyMs: 15_000,
  firstAfterMs: 5_000,
  run: async (app) => ({ entries: await publishEdges(app) }),
};

/**
 * Incidents and maintenance windows (docs/service.md). Incidents: list, detail (steps, notes,
 * the lift's events), open one by hand, transition, assign, note (incident.query / get /
 * add / edit, each within its scope: an incident on a lift out of reach is not found).
 * Windows: declare (incident.add), end early (incident.edit), list (incident.query).
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    setFaultSettleSeconds(app.config.faultSettleSeconds);
    app.jobs.add(maintenanceWindowJob);
    const base = '/auth/access/incidents';
    const tags = ['incidents'];

    app.get(base, { config: { access: 'incident.query' }, schema: { tags, response: responsesOf(incidentPageSchema), querystring: incidentListQuerySchema } }, async (request) => ok(await incidentPage(sql, request.auth!, request.query)));

    app.get(`${base}/get`, { config: { access: 'incident.get' }, schema: { tags, response: responsesOf(incidentDetailSchema), querystring: incidentGetQuerySchema } }, async (request) => ok(await incidentDetail(sql, request.auth!, request.query.id)));

    app.get(`${base}/assignees`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(incidentAssigneeListSchema), querystring: incidentGetQuerySchema } }, async (request) => ok({ list: await incidentAssignees(sql, request.auth!, request.query.id) }));

    app.post(`${base}/create`, { config: { access: 'incident.add' }, schema: { tags, response: responsesOf(incidentViewSchema), body: incidentCreateSchema } }, async (request) => ok(await createIncident(app, request, request.body)));

    app.post(`${base}/transition`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(incidentViewSchema), body: incidentTransitionSchema } }, async (request) => ok(await transitionIncident(app, request, request.body)));

    app.post(`${base}/assign`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(incidentViewSchema), body: incidentAssignSchema } }, async (request) => ok(await assignIncident(app, request, request.body)));

    app.post(`${base}/notes/add`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(incidentViewSchema), body: incidentNoteInputSchema } }, async (request) => ok(await addIncidentNote(app, request, request.body)));

    // Photos (photos.ts): their own scope, for the raw-image body parser.
    await app.register(incidentPhotoRoutes);

    const windows = '/auth/access/lift/maintenance-windows';

    app.get(windows, { config: { access: 'incident.query' }, schema: { tags, response: responsesOf(maintenanceWindowListSchema), querystring: maintenanceListQuerySchema } }, async (request) => ok({ list: await listWindows(sql, request.auth!, request.query) }));

    app.post(`${windows}/declare`, { config: { access: 'incident.add' }, schema: { tags, response: responsesOf(maintenanceWindowSchema), body: maintenanceDeclareSchema } }, async (request) => ok(await declareWindow(app, request, request.body)));

    app.post(`${windows}/end`, { config: { access: 'incident.edit' }, schema: { tags, response: responsesOf(maintenanceWindowSchema), body: maintenanceEndSchema } }, async (request) => ok(await endWindow(app, request, request.body.id)));
  },
  { name: 'liftlink-incidents', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database', 'live', 'audit'] } },
);
