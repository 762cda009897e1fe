import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ACTIVATION_VALID_MS,
  RESET_VALID_MS,
  SMS_CODE_VALID_MS,
  SMS_RESEND_MS,
  TOKEN_COOKIE,
  activateSchema,
  forgePasswordSchema,
  loginSchema,
  passwordUpdateSchema,
  registerSchema,
  resetPasswordSchema,
  smsRequestSchema,
  twoStepQuerySchema,
  responsesOf,
  emptyResultSchema,
  hiResultSchema,
  siteInfoSchema,
  smsSentSchema,
  loginResultSchema,
  userInfoSchema,
  registeredSchema,
  twoStepResultSchema,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { newToken, sixDigitCode } from '../../lib/crypto.ts';
import { assertAcceptablePassword, dummyVerify, hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { accountKey, addressKey, assertNotBlocked, clearFailures, recordFailure } from './throttle.ts';
import { consumeSubjectCode, consumeToken, issueCode, lastIssuedAgoMs } from './one-time-codes.ts';
import { revokeSession, revokeUserSessions } from './sessions.ts';
import { createPendingUser, findTaken, findUserByLogin, findUserById, findUserByMobile, loadUserInfo, setPasswordHash, setUserStatus, type UserRow } from '../users/repository.ts';
import { roleIdByName } from '../system/role-repository.ts';
import { inviteDetail, inviteHash, inviteInvalid } from '../invites/codes.ts';
import { findUsableInvite, redeemInvite } from '../invites/repository.ts';
import { mailText } from './mail-texts.ts';
import { setCsrfCookie } from './cookies.ts';
import { openSession } from './sign-in.ts';

/** Sign-in, sessions, password, registration and recovery (spec sections 4, 5, 7, 8). */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;

  app.get('/auth/Hi', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(hiResultSchema) } }, async (request, reply) => {
    setCsrfCookie(request, reply);
    return ok({ hi: true });
  });

  app.get('/auth/public/site', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(siteInfoSchema) } }, async () => ok({ ...app.config.site, providers: app.config.oidc.map((p) => ({ id: p.id, label: p.label })) }));

  app.post('/account/sms', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(smsSentSchema), body: smsRequestSchema } }, async (request) => {
    const { mobile } = request.body;
    await assertNotBlocked(sql, [addressKey(request.ip)]);
    const ago = await lastIssuedAgoMs(sql, 'sms', mobile);
    if (ago !== null && ago < SMS_RESEND_MS) {
      const retryAfter = Math.ceil((SMS_RESEND_MS - ago) / 1000);
      throw new AppError('auth.smsTooSoon', { retryAfter }, undefined, { 'retry-after': String(retryAfter) });
    }
    const code = sixDigitCode();
    await issueCode(sql, 'sms', mobile, code, SMS_CODE_VALID_MS);
    await app.sms.send(mobile, `LiftLink verification code: ${code}. Valid for 5 minutes.`);
    // The same answer whether or not the number belongs to an account.
    return ok({ resendAfterSeconds: SMS_RESEND_MS / 1000 });
  });

  app.post('/auth/access/login', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(loginResultSchema), body: loginSchema } }, async (request, reply) => {
    const body = request.body;
    const ip = request.ip;
    let user: UserRow | undefined;
    if (body.type === 'mobile') {
      const keys = [accountKey(`mobile:${body.mobile}`), addressKey(ip)];
      await assertNotBlocked(sql, keys);
      user = await findUserByMobile(sql, body.mobile);
      const codeOk = await consumeSubjectCode(sql, 'sms', body.mobile, body.captcha);
      if (!user || !codeOk) {
        await recordFailure(sql, keys);
        await app.audit({ action: 'auth.login', result: 'failed', username: body.mobile, ip, detail: { method: 'mobile', reason: 'badCaptcha' } });
        throw new AppError('auth.badCaptcha');
      }
      await clearFailures(sql, keys[0]!);
    } else {
      const keys = [accountKey(body.username), addressKey(ip)];
      await assertNotBlocked(sql, keys);
      user = await findUserByLogin(sql, body.username);
      const passwordOk = user ? await verifyPassword(user.password_hash, body.password) : await dummyVerify(body.password);
      if (!user || !passwordOk) {
        await recordFailure(sql, keys);
        await app.audit({ action: 'auth.login', result: 'failed', userId: user?.id ?? null, username: body.username.slice(0, 100), ip, detail: { method: 'password', reason: 'badCredentials' } });
        throw new AppError('auth.badCredentials');
      }
      if (user.two_step && user.status === 'active') {
        if (!body.captcha || !user.mobile || !(await consumeSubjectCode(sql, 'sms', user.mobile, body.captcha))) {
          await recordFailure(sql, keys);
          throw new AppError('auth.badCaptcha', { stepCode: true });
        }
      }
      await clearFailures(sql, keys[0]!);
    }
    if (user.status !== 'active') {
      await app.audit({ action: 'auth.login', result: 'denied', userId: user.id, username: user.username, ip, detail: { reason: user.status } });
      throw new AppError(user.status === 'frozen' ? 'auth.frozen' : 'auth.pending');
    }
    const session = await openSession(app, request, reply, user, { remember: body.remember, detail: { method: body.type } });
    return ok({ token: session.token, expiresAt: session.expiresAt.toISOString() });
  });

  app.post('/auth/access/logout', { config: { access: 'authenticated' }, schema: { tags: ['auth'], response: responsesOf(emptyResultSchema) } }, async (request, reply) => {
    const auth = request.auth!;
    await revokeSession(sql, auth.sessionId);
    await app.audit({ action: 'auth.logout', result: 'ok', userId: auth.userId, username: auth.username, ip: request.ip });
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    return ok(null);
  });

  app.get('/auth/access/info', { config: { access: 'authenticated' }, schema: { tags: ['auth'], response: responsesOf(userInfoSchema) } }, async (request) => {
    const info = await loadUserInfo(sql, request.auth!.userId);
    if (!info) throw new AppError('auth.unauthorized');
    // Spec section 4: a role without permissions cannot load user info.
    if (info.role.permissions.length === 0) throw new AppError('auth.noPermissions');
    return ok(info);
  });

  app.post('/auth/access/pwd/update', { config: { access: 'authenticated' }, schema: { tags: ['auth'], response: responsesOf(emptyResultSchema), body: passwordUpdateSchema } }, async (request) => {
    const auth = request.auth!;
    const keys = [accountKey(auth.username), addressKey(request.ip)];
    await assertNotBlocked(sql, keys);
    const user = await findUserById(sql, auth.userId);
    if (!user || !(await verifyPassword(user.password_hash, request.body.oldPassword))) {
      await recordFailure(sql, keys);
      await app.audit({ action: 'auth.passwordChange', result: 'failed', userId: auth.userId, username: auth.username, ip: request.ip, detail: { reason: 'oldPasswordWrong' } });
      throw new AppError('auth.oldPasswordWrong');
    }
    assertAcceptablePassword(request.body.password, user.username);
    await setPasswordHash(sql, user.id, await hashPassword(request.body.password));
    const ended = await revokeUserSessions(sql, user.id, auth.sessionId);
    await app.audit({ action: 'auth.passwordChange', result: 'ok', userId: auth.userId, username: auth.username, ip: request.ip, detail: { otherSessionsEnded: ended } });
    return ok(null, 'modification successful');
  });

  app.post('/auth/register', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(registeredSchema), body: registerSchema } }, async (request) => {
    const b = request.body;
    await assertNotBlocked(sql, [addressKey(request.ip)]);
    // A wrong invite code refuses the registration before the SMS code is spent; it counts as a failed attempt.
    const inviteCodeHash = b.inviteCode ? inviteHash(b.inviteCode) : null;
    if (inviteCodeHash && !(await findUsableInvite(sql, inviteCodeHash))) {
      await recordFailure(sql, [addressKey(request.ip)]);
      throw inviteInvalid('inviteCode');
    }
    if (!(await consumeSubjectCode(sql, 'sms', b.mobile, b.captcha))) {
      await recordFailure(sql, [addressKey(request.ip)]);
      throw new AppError('auth.badCaptcha');
    }
    assertAcceptablePassword(b.password, b.username);
    const taken = await findTaken(sql, b);
    if (taken.length) throw new AppError('user.exists', { fields: taken });
    const roleId = (await roleIdByName(sql, 'viewer'))!;
    const passwordHash = await hashPassword(b.password);
    // With an invite code the use is counted and the account made in one transaction: all or nothing.
    const created = await sql.transaction(async (tx) => {
      const invite = inviteCodeHash ? await redeemInvite(tx, inviteCodeHash) : undefined;
      if (inviteCodeHash && !invite) return null;
      const id = await createPendingUser(tx, { username: b.username, email: b.email, mobile: b.mobile, passwordHash, roleId: invite?.roleId ?? roleId, orgId: invite?.orgId ?? null, language: b.language ?? 'zh-CN' });
      return { id, invite };
    });
    if (!created) throw inviteInvalid('inviteCode');
    const userId = created.id;
    const token = newToken();
    await issueCode(sql, 'activate', userId, token, ACTIVATION_VALID_MS);
    await app.mailer.send({ to: b.email, ...mailText('activate', b.language, `${app.config.publicUrl}/user/activate?token=${token}`) });
    await app.audit({ action: 'auth.register', result: 'ok', userId, username: b.username, ip: request.ip, ...(created.invite ? { detail: { invite: inviteDetail(created.invite) } } : {}) });
    return ok({ email: b.email });
  });

  app.post('/auth/activate', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(emptyResultSchema), body: activateSchema } }, async (request) => {
    const userId = await consumeToken(sql, 'activate', request.body.token);
    if (!userId) throw new AppError('auth.tokenInvalid');
    await setUserStatus(sql, userId, 'active', true);
    await app.audit({ action: 'auth.activate', result: 'ok', userId, ip: request.ip });
    return ok(null);
  });

  app.post('/auth/forge-password', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(emptyResultSchema), body: forgePasswordSchema } }, async (request) => {
    await assertNotBlocked(sql, [addressKey(request.ip)]);
    const user = await findUserByLogin(sql, request.body.email);
    if (user?.email && user.status !== 'frozen') {
      const token = newToken();
      await issueCode(sql, 'reset', user.id, token, RESET_VALID_MS);
      await app.mailer.send({ to: user.email, ...mailText('reset', user.language, `${app.config.publicUrl}/user/reset-password?token=${token}`) });
      await app.audit({ action: 'auth.resetRequested', result: 'ok', userId: user.id, username: user.username, ip: request.ip });
    }
    // Same answer either way: the endpoint does not reveal which addresses have accounts.
    return ok(null);
  });

  app.post('/auth/reset-password', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(emptyResultSchema), body: resetPasswordSchema } }, async (request) => {
    const userId = await consumeToken(sql, 'reset', request.body.token);
    const user = userId ? await findUserById(sql, userId) : undefined;
    if (!user) throw new AppError('auth.tokenInvalid');
    assertAcceptablePassword(request.body.password, user.username);
    await setPasswordHash(sql, user.id, await hashPassword(request.body.password));
    await revokeUserSessions(sql, user.id);
    await clearFailures(sql, accountKey(user.username));
    await app.audit({ action: 'auth.passwordReset', result: 'ok', userId: user.id, username: user.username, ip: request.ip });
    return ok(null);
  });

  app.get('/auth/2step-code', { config: { access: 'public' }, schema: { tags: ['auth'], response: responsesOf(twoStepResultSchema), querystring: twoStepQuerySchema } }, async (request) => {
    const user = await findUserByLogin(sql, request.query.username);
    return ok({ stepCode: user?.two_step ?? false });
  });
};

export default authRoutes;
