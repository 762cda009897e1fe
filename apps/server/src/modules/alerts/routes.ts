import fp from 'fastify-plugin';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { responsesOf, emptyResultSchema, alertPageSchema, notificationListSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { liftFilter } from '../access/policy.ts';
import { ALERT_COLUMNS, toAlertView, type AlertRow } from './repository.ts';

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

  app.get('/auth/access/alerts', { config: { access: 'alert.query' }, schema: { tags: ['alerts'], response: responsesOf(alertPageSchema), querystring: listQuery } }, async (request) => {
    const q = request.query;
    const scope = liftFilter(request.auth!, 1);
    const params: unknown[] = scope.param ? [scope.param] : [];
    const where = [scope.where];
    if (q.state === 'open') where.push('a.acknowledged_at is null and a.cleared_at is null');
    if (q.state === 'acknowledged') where.push('a.acknowledged_at is not null');
    if (q.liftId) where.push(`a.lift_id = $${params.push(q.liftId)}`);
    const cond = where.join(' and ');
    const [count] = await sql.query<{ n: string; open: string }>(
      `select count(*) as n, count(*) filter (where a.acknowledged_at is null and a.cleared_at is null) as open from alerts a join lifts l on l.id = a.lift_id where ${cond}`,
      params,
    );
    const rows = await sql.query<AlertRow>(
      `select ${ALERT_COLUMNS} from alerts a join lifts l on l.id = a.lift_id where ${cond} order by a.raised_at desc, a.id desc limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, q.pageSize, (q.page - 1) * q.pageSize],
    );
    return ok({ list: rows.map(toAlertView), total: Number(count!.n), open: Number(count!.open) });
  });

  app.post('/auth/access/alerts/ack', { config: { access: 'alert.edit' }, schema: { tags: ['alerts'], response: responsesOf(emptyResultSchema), body: z.strictObject({ id: z.number().int().positive() }) } }, async (request) => {
    const auth = request.auth!;
    const scope = liftFilter(auth, 2);
    const [row] = await sql.query<{ lift_id: string }>(
      `update alerts a set acknowledged_at = now(), acknowledged_by = $${scope.param ? 3 : 2}, acknowledged_by_name = $${scope.param ? 4 : 3}
         from lifts l where a.id = $1 and l.id = a.lift_id and ${scope.where} and a.acknowledged_at is null returning a.lift_id`,
      scope.param ? [request.body.id, scope.param, auth.userId, auth.username] : [request.body.id, auth.userId, auth.username],
    );
    if (!row) throw new AppError('notFound');
    await app.audit({ action: 'alert.acknowledge', result: 'ok', userId: auth.userId, username: auth.username, ip: request.ip, liftId: row.lift_id, targetType: 'alert', targetId: String(request.body.id) });
    return ok(null);
  });

  app.get('/auth/access/notifications', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(notificationListSchema) } }, async (request) => {
    const rows = await sql.query<AlertRow & { readAt: Date | null }>(
      `select ${ALERT_COLUMNS}, d.read_at as "readAt" from alert_deliveries d join alerts a on a.id = d.alert_id join lifts l on l.id = a.lift_id
        where d.user_id = $1 and d.due_at <= now() order by a.raised_at desc limit 50`,
      [request.auth!.userId],
    );
    const [unread] = await sql.query<{ n: string }>(`select count(*) as n from alert_deliveries where user_id = $1 and due_at <= now() and read_at is null`, [request.auth!.userId]);
    return ok({ list: rows.map((r) => ({ ...toAlertView(r), readAt: r.readAt ? new Date(r.readAt).toISOString() : null, read: r.readAt !== null })), unread: Number(unread!.n) });
  });

  app.post('/auth/access/notifications/read', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(emptyResultSchema), body: z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(200) }) } }, async (request) => {
    await sql.query(`update alert_deliveries set read_at = now() where user_id = $1 and alert_id = any($2::bigint[]) and read_at is null`, [request.auth!.userId, request.body.ids]);
    return ok(null);
  });
});

