import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { responsesOf, workplaceDashboardSchema, analysisDashboardSchema } from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { analysisDashboard, workplaceDashboard } from './repository.ts';

/** Fleet dashboards: counts, lifts needing attention, recent events, trips and faults (the 30-day trips rollup is `./job.ts`). */
const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  app.get('/auth/access/dashboard/workplace', { config: { access: 'dashboard.query' }, schema: { tags: ['dashboard'], response: responsesOf(workplaceDashboardSchema) } }, async (request) => ok(await workplaceDashboard(sql, request.auth!)));

  app.get('/auth/access/dashboard/analysis', { config: { access: 'dashboard.query' }, schema: { tags: ['dashboard'], response: responsesOf(analysisDashboardSchema) } }, async (request) => ok(await analysisDashboard(sql, request.auth!)));
};

export default dashboardRoutes;
