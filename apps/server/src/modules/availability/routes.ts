import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availabilityQuerySchema, availabilityReportSchema, responsesOf } from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { availabilityJob } from './job.ts';
import { readAvailability } from './repository.ts';

/**
 * Availability and reliability figures (docs/insight.md, "Availability"): the analysis page's
 * drill-down, under `dashboard.query` and its scope like the analysis dashboard. The hourly
 * job books every lift's open interval.
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    app.jobs.add(availabilityJob);
    app.get(
      '/auth/access/dashboard/availability',
      { config: { access: 'dashboard.query' }, schema: { tags: ['dashboard'], querystring: availabilityQuerySchema, response: responsesOf(availabilityReportSchema) } },
      async (request) => ok(await readAvailability(sql, request.auth!, request.query)),
    );
  },
  { name: 'liftlink-availability', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['database'] } },
);
