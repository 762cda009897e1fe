import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { conditionLiftQuerySchema, conditionLiftSchema, conditionListQuerySchema, conditionListSchema, responsesOf } from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { conditionJob } from './job.ts';
import { conditionList, liftCondition } from './service.ts';

/**
 * The lifts' condition (docs/condition.md): the dashboard's list of lifts whose score is low or
 * fell (`dashboard.query`) and one lift's score with its factors and history (`lift.get`),
 * each within the grant's scope; a lift out of reach is "not found". The score job runs here.
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    app.jobs.add(conditionJob);

    app.get('/auth/access/dashboard/condition', { config: { access: 'dashboard.query' }, schema: { tags: ['condition'], response: responsesOf(conditionListSchema), querystring: conditionListQuerySchema } }, async (request) => ok(await conditionList(sql, request.auth!, request.query)));

    app.get('/auth/access/lift/condition', { config: { access: 'lift.get' }, schema: { tags: ['condition'], response: responsesOf(conditionLiftSchema), querystring: conditionLiftQuerySchema } }, async (request) => ok(await liftCondition(sql, request.auth!, request.query.liftId)));
  },
  { name: 'liftlink-condition', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['database'] } },
);
