import fp from 'fastify-plugin';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { responsesOf, emptyResultSchema, alertPageSchema, notificationListSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { acknowledgeAlert, alertPage, markNotificationsRead, notificationsOf } from './repository.ts';
import { enqueueAlertEvent } from '../webhooks/events.ts';

/**
 * Alerts: listing and acknowledging (alert.query / alert.edit) and each user's in-app
 * notifications. The job that raises offline alerts and mails what is due is `./job.ts`.
 */
export default fp(async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { sql } = app.database;

  const listQuery = z.strictObject({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(20),
    state: z.enum(['open', 'acknowledged']).optional(),
    liftId: z.uuid().optional(),
  });

  app.get('/auth/access/alerts', { config: { access: 'alert.query' }, schema: { tags: ['alerts'], response: responsesOf(alertPageSchema), querystring: listQuery } }, async (request) => ok(await alertPage(sql, request.auth!, request.query)));

  app.post('/auth/access/alerts/ack', { config: { access: 'alert.edit' }, schema: { tags: ['alerts'], response: responsesOf(emptyResultSchema), body: z.strictObject({ id: z.number().int().positive() }) } }, async (request) => {
    const auth = request.auth!;
    const row = await acknowledgeAlert(sql, auth, request.body.id);
    if (!row) throw new AppError('notFound');
    await enqueueAlertEvent(sql, 'alert.acknowledged', request.body.id); // the organizations' webhooks (docs/webhooks.md)
    await app.audit({ action: 'alert.acknowledge', result: 'ok', userId: auth.userId, username: auth.username, ip: request.ip, liftId: row.lift_id, targetType: 'alert', targetId: String(request.body.id) });
    return ok(null);
  });

  app.get('/auth/access/notifications', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(notificationListSchema) } }, async (request) => ok(await notificationsOf(sql, request.auth!.userId)));

  app.post('/auth/access/notifications/read', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(emptyResultSchema), body: z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(200) }) } }, async (request) => {
    await markNotificationsRead(sql, request.auth!.userId, request.body.ids);
    return ok(null);
  });
});

