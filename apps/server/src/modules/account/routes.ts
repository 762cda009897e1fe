import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bindEmailSchema,
  bindMobileSchema,
  notificationSettingsSchema,
  profileUpdateSchema,
  sessionRevokeSchema,
  type NotificationSettings,
  type SessionView,
  responsesOf,
  emptyResultSchema,
  listOf,
  sessionViewSchema,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { consumeSubjectCode } from '../auth/one-time-codes.ts';
import { revokeSession } from '../auth/sessions.ts';
import { findTaken, findUserById } from '../users/repository.ts';

const DEFAULT_NOTIFICATIONS: NotificationSettings = { mailFaults: false, mailHelp: false, mailOffline: false, offlineMinutes: 60, liftIds: [] };

/** The signed-in user's own account: profile, layout settings, sessions, bindings, alerts. */
const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/account';

  app.post(`${base}/profile/update`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: profileUpdateSchema } }, async (request) => {
    const { name, avatar, language, settings } = request.body;
    await sql.query(
      `update users set name = coalesce($2, name), avatar = coalesce($3, avatar), language = coalesce($4, language),
              settings = settings || coalesce($5::jsonb, '{}'::jsonb), updated_at = now() where id = $1`,
      [request.auth!.userId, name ?? null, avatar ?? null, language ?? null, settings ? JSON.stringify(settings) : null],
    );
    return ok(null, 'modification successful');
  });

  app.get(`${base}/sessions`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(listOf(sessionViewSchema)) } }, async (request) => {
    const rows = await sql.query<{ id: string; created_at: Date; last_seen_at: Date; expires_at: Date; ip: string | null; user_agent: string | null }>(
      `select id, created_at, last_seen_at, expires_at, ip, user_agent from sessions
        where user_id = $1 and revoked_at is null and expires_at > now() order by last_seen_at desc`,
      [request.auth!.userId],
    );
    const list: SessionView[] = rows.map((r) => ({
      id: r.id,
      createdAt: new Date(r.created_at).toISOString(),
      lastSeenAt: new Date(r.last_seen_at).toISOString(),
      expiresAt: new Date(r.expires_at).toISOString(),
      ip: r.ip,
      userAgent: r.user_agent,
      current: r.id === request.auth!.sessionId,
    }));
    return ok({ list });
  });

  app.post(`${base}/sessions/revoke`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: sessionRevokeSchema } }, async (request) => {
    const [row] = await sql.query(`select 1 from sessions where id = $1 and user_id = $2 and revoked_at is null`, [request.body.id, request.auth!.userId]);
    if (!row) throw new AppError('session.notFound');
    await revokeSession(sql, request.body.id);
    await app.audit({ action: 'auth.sessionRevoke', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'session', targetId: request.body.id });
    return ok(null);
  });

  app.post(`${base}/bind/email`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: bindEmailSchema } }, async (request) => {
    if ((await findTaken(sql, { email: request.body.email }, request.auth!.userId)).length) throw new AppError('user.exists', { fields: ['email'] });
    await sql.query('update users set email = $2, updated_at = now() where id = $1', [request.auth!.userId, request.body.email]);
    return ok(null, 'modification successful');
  });

  app.post(`${base}/bind/mobile`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: bindMobileSchema } }, async (request) => {
    const { mobile, captcha } = request.body;
    if (!(await consumeSubjectCode(sql, 'sms', mobile, captcha))) throw new AppError('auth.badCaptcha');
    if ((await findTaken(sql, { mobile }, request.auth!.userId)).length) throw new AppError('user.exists', { fields: ['mobile'] });
    await sql.query('update users set mobile = $2, updated_at = now() where id = $1', [request.auth!.userId, mobile]);
    return ok(null, 'modification successful');
  });

  app.get(`${base}/notifications`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(notificationSettingsSchema) } }, async (request) => {
    const user = await findUserById(sql, request.auth!.userId);
    return ok({ ...DEFAULT_NOTIFICATIONS, ...(user?.notifications ?? {}) });
  });

  app.post(`${base}/notifications/update`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: notificationSettingsSchema } }, async (request) => {
    await sql.query('update users set notifications = $2::jsonb, updated_at = now() where id = $1', [request.auth!.userId, JSON.stringify(request.body)]);
    return ok(null, 'modification successful');
  });
};

export default accountRoutes;
