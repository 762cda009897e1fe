import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bindEmailSchema,
  bindMobileSchema,
  notificationSettingsSchema,
  profileUpdateSchema,
  sessionRevokeSchema,
  type NotificationSettings,
  responsesOf,
  emptyResultSchema,
  listOf,
  sessionViewSchema,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { consumeSubjectCode } from '../auth/one-time-codes.ts';
import { isOpenSessionOf, liveSessions, revokeSession } from '../auth/sessions.ts';
import { bindContact, findTaken, findUserById, setNotificationSettings, updateProfile } from '../users/repository.ts';

const DEFAULT_NOTIFICATIONS: NotificationSettings = { mailFaults: false, mailHelp: false, mailOffline: false, mailAlarmDevice: false, mailMaintenance: false, mailReport: false, offlineMinutes: 60, liftIds: [] };

/** The signed-in user's own account: profile, layout settings, sessions, bindings, alerts. */
const accountRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/account';

  app.post(`${base}/profile/update`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: profileUpdateSchema } }, async (request) => {
    const { name, avatar, language, settings } = request.body;
    await updateProfile(sql, request.auth!.userId, { name: name ?? null, avatar: avatar ?? null, language: language ?? null, settings: settings ?? null });
    return ok(null, 'modification successful');
  });

  app.get(`${base}/sessions`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(listOf(sessionViewSchema)) } }, async (request) => {
    const list = await liveSessions(sql, request.auth!.userId, request.auth!.sessionId);
    return ok({ list });
  });

  app.post(`${base}/sessions/revoke`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: sessionRevokeSchema } }, async (request) => {
    if (!(await isOpenSessionOf(sql, request.body.id, request.auth!.userId))) throw new AppError('session.notFound');
    await revokeSession(sql, request.body.id);
    await app.audit({ action: 'auth.sessionRevoke', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'session', targetId: request.body.id });
    return ok(null);
  });

  app.post(`${base}/bind/email`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: bindEmailSchema } }, async (request) => {
    if ((await findTaken(sql, { email: request.body.email }, request.auth!.userId)).length) throw new AppError('user.exists', { fields: ['email'] });
    await bindContact(sql, request.auth!.userId, 'email', request.body.email);
    return ok(null, 'modification successful');
  });

  app.post(`${base}/bind/mobile`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: bindMobileSchema } }, async (request) => {
    const { mobile, captcha } = request.body;
    if (!(await consumeSubjectCode(sql, 'sms', mobile, captcha))) throw new AppError('auth.badCaptcha');
    if ((await findTaken(sql, { mobile }, request.auth!.userId)).length) throw new AppError('user.exists', { fields: ['mobile'] });
    await bindContact(sql, request.auth!.userId, 'mobile', mobile);
    return ok(null, 'modification successful');
  });

  app.get(`${base}/notifications`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(notificationSettingsSchema) } }, async (request) => {
    const user = await findUserById(sql, request.auth!.userId);
    return ok({ ...DEFAULT_NOTIFICATIONS, ...(user?.notifications ?? {}) });
  });

  app.post(`${base}/notifications/update`, { config: { access: 'authenticated' }, schema: { tags: ['account'], response: responsesOf(emptyResultSchema), body: notificationSettingsSchema } }, async (request) => {
    await setNotificationSettings(sql, request.auth!.userId, request.body);
    return ok(null, 'modification successful');
  });
};

export default accountRoutes;
