import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_COOKIE, type AuditDetail } from '@liftlink/protocol';
import { markLogin } from '../users/repository.ts';
import { secureCookies } from './cookies.ts';
import { createSession } from './sessions.ts';

/**
 * How every sign-in ends, whatever proved who the user is (password, SMS code, another
 * provider): a session, its httpOnly cookie (kept past the browser's end only with "remember
 * me"), the last sign-in time and the audit entry `auth.login` with `detail`.
 */
export async function openSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: string; username: string },
  opts: { remember: boolean | undefined; detail: AuditDetail },
): Promise<{ token: string; expiresAt: Date }> {
  const { sql } = app.database;
  const session = await createSession(sql, user.id, request.ip, request.headers['user-agent']);
  await markLogin(sql, user.id);
  await app.audit({ action: 'auth.login', result: 'ok', userId: user.id, username: user.username, ip: request.ip, detail: opts.detail });
  reply.setCookie(TOKEN_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secureCookies(request),
    ...(opts.remember ? { expires: session.expiresAt } : {}),
  });
  return session;
}
