import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  groupConfigGetQuerySchema,
  groupConfigListSchema,
  groupConfigOptionsSchema,
  groupConfigPreviewRequestSchema,
  groupConfigPreviewSchema,
  groupConfigSendRequestSchema,
  groupConfigSendSchema,
  responsesOf,
} from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { readSend, recentSends, selectionOptions } from './repository.ts';
import { preview, runningSends, send } from './service.ts';

/**
 * Group configuration (docs/group-config.md): review a change of configuration fields over a
 * selection of lifts (`liftConfig.get`), send it (`liftConfig.edit`, and the caller's
 * configuration role limits the fields per lift, as on the lift page), follow each lift's
 * answer. Lifts come only from the grant's scope. Only config/set is ever sent: this module
 * has no path to a movement command.
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    const base = '/auth/access/lift/group-config';
    const tags = ['groupConfig'];
    // A stopping server lets the running sends end: each lift answered or marked, none left pending.
    app.addHook('preClose', async () => void (await runningSends()));

    app.get(`${base}/options`, { config: { access: 'liftConfig.get' }, schema: { tags, response: responsesOf(groupConfigOptionsSchema) } }, async (request) => ok(await selectionOptions(sql, request.auth!)));

    app.post(`${base}/preview`, { config: { access: 'liftConfig.get' }, schema: { tags, response: responsesOf(groupConfigPreviewSchema), body: groupConfigPreviewRequestSchema } }, async (request) => ok(await preview(app, request, request.body)));

    app.post(`${base}/send`, { config: { access: 'liftConfig.edit' }, schema: { tags, response: responsesOf(groupConfigSendSchema), body: groupConfigSendRequestSchema } }, async (request) => ok(await send(app, request, request.body)));

    app.get(`${base}/get`, { config: { access: 'liftConfig.get' }, schema: { tags, response: responsesOf(groupConfigSendSchema), querystring: groupConfigGetQuerySchema } }, async (request) => ok(await readSend(sql, request.auth!, request.query.id)));

    app.get(`${base}/list`, { config: { access: 'liftConfig.get' }, schema: { tags, response: responsesOf(groupConfigListSchema) } }, async (request) => ok({ list: await recentSends(sql, request.auth!.userId) }));
  },
  { name: 'liftlink-group-config', fastify: '5.x', dependencies: ['commands'], decorators: { fastify: ['config', 'database', 'live', 'audit', 'commands'] } },
);
