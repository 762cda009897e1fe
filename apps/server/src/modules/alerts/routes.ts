import fp from 'fastify-plugin';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventText, type Language, responsesOf, emptyResultSchema, alertPageSchema, notificationListSchema } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { liftFilter } from '../access/policy.ts';
import { ALERT_COLUMNS, raiseAlert, toAlertView, type AlertRow } from './repository.ts';

/** A lift silent this long gets an offline alert (each user's mail waits for their own threshold). */
export const OFFLINE_ALERT_AFTER_MINUTES = 5;
const JOB_INTERVAL_MS = 15_000;

const MAIL_SUBJECT: Record<Language, (what: string, lift: string) => string> = {
  'zh-CN': (what, lift) => `LiftLink 告警：${lift} ${what}`,
  'en-US': (what, lift) => `LiftLink alert: ${lift} ${what}`,
  'ru-RU': (what, lift) => `LiftLink, тревога: ${lift} ${what}`,
};
const KIND_TEXT: Record<Language, Record<'help' | 'offline', string>> = {
  'zh-CN': { help: '发出求助信号', offline: '已离线' },
  'en-US': { help: 'raised its help signal', offline: 'is offline' },
  'ru-RU': { help: 'подал сигнал помощи', offline: 'не в сети' },
};

/**
 * Alerts: listing and acknowledging (alert.query / alert.edit), each user's in-app
 * notifications, and the job that raises offline alerts and mails what is due. The job
 * may run on every instance: `for update skip locked` hands each mail to one of them.
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

  async function raiseOfflineAlerts(): Promise<void> {
    const stale = await sql.query<{ id: string; last_seen_at: Date | null }>(
      `select l.id, l.last_seen_at from lifts l where not l.online and l.iot_secret_hash is not null and l.last_seen_at < now() - make_interval(mins => $1)
          and not exists (select 1 from alerts a where a.lift_id = l.id and a.kind = 'offline' and a.cleared_at is null and a.acknowledged_at is null)
        limit 500`,
      [OFFLINE_ALERT_AFTER_MINUTES],
    );
    for (const lift of stale) {
      const msg = await sql.transaction((tx) => raiseAlert(tx, lift.id, 'offline', null, new Date(lift.last_seen_at ?? Date.now())));
      if (msg) await app.live.publish([msg]).catch(() => {});
    }
  }

  async function sendDueMails(): Promise<void> {
    await sql.transaction(async (tx) => {
      const due = await tx.query<{ alert_id: string; user_id: string; email: string | null; language: Language; kind: 'fault' | 'help' | 'offline'; code: string | null; device_no: string | null; alias: string; pending: boolean }>(
        `select d.alert_id, d.user_id, u.email, u.language, a.kind, a.code, l.device_no, l.alias,
                (a.cleared_at is null and a.acknowledged_at is null) as pending
           from alert_deliveries d join alerts a on a.id = d.alert_id join users u on u.id = d.user_id join lifts l on l.id = a.lift_id
          where d.mail and d.mailed_at is null and d.due_at <= now() order by d.due_at limit 100 for update of d skip locked`,
      );
      for (const m of due) {
        // An alert settled before its mail was due is not mailed; neither is one to a user without an address.
        if (m.pending && m.email) {
          const lang = (['zh-CN', 'en-US', 'ru-RU'] as const).includes(m.language) ? m.language : 'zh-CN';
          const what = m.kind === 'fault' ? eventText(m.code ?? '', lang) : KIND_TEXT[lang][m.kind];
          const lift = `${m.device_no ?? ''}${m.alias ? ` (${m.alias})` : ''}`;
          await app.mailer.send({ to: m.email, subject: MAIL_SUBJECT[lang](what, lift), text: `${lift}: ${what}\n\n${app.config.publicUrl}/lift/alerts\n` });
        }
        await tx.query('update alert_deliveries set mailed_at = now() where alert_id = $1 and user_id = $2', [m.alert_id, m.user_id]);
      }
    });
  }

  let running = false;
  const job = setInterval(() => {
    if (running) return;
    running = true;
    raiseOfflineAlerts()
      .then(sendDueMails)
      .catch((err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'alert job failed'))
      .finally(() => (running = false));
  }, JOB_INTERVAL_MS);
  app.decorate('alertJob', { run: () => raiseOfflineAlerts().then(sendDueMails) });
  app.addHook('onClose', async () => clearInterval(job));
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Runs the alert job once (tests, and a manual nudge). */
    alertJob: { run(): Promise<void> };
  }
}
