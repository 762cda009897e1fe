import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import { TOKEN_COOKIE, oidcCallbackQuerySchema, oidcHandoffResultSchema, oidcHandoffSchema, oidcProviderParamsSchema, oidcStartQuerySchema, redirectResponsesOf, responsesOf, type SsoError } from '@liftlink/protocol';
import { AppError, ok } from '../../../lib/errors.ts';
import { newToken } from '../../../lib/crypto.ts';
import { openSession } from '../sign-in.ts';
import { secureCookies } from '../cookies.ts';
import { addressKey, assertNotBlocked, recordFailure } from '../throttle.ts';
import { OidcClient, OidcRefusal } from './client.ts';
import { userForAccount } from './accounts.ts';
import { OIDC_LOGIN_VALID_MS, saveHandoff, savePendingLogin, sessionIdOfToken, takeHandoff, takePendingLogin } from './repository.ts';

/** The browser's flow cookie: binds a sign-in's state to the browser that started it. */
const FLOW_COOKIE = 'liftlink_oidc';
const FLOW_PATH = '/auth/oidc';
const LOGIN_PAGE = '/user/login';

/**
 * Only a path of this site: "/lifts?x=1", never "//host", "/\host", "https://host" or control characters.
 * Anything else becomes "/".
 */
export function sameOriginPath(target: string | undefined): string {
  if (!target || target.length > 2000 || !target.startsWith('/') || /^\/[/\\]/.test(target) || target.includes('\\') || [...target].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return '/';
  const base = new URL('http://liftlink.invalid');
  const url = new URL(target, base);
  return url.origin === base.origin ? `${url.pathname}${url.search}${url.hash}` : '/';
}

/**
 * Sign-in with another provider (OpenID Connect, authorization code flow with PKCE):
 * start -> the provider's login -> callback -> the login page takes over the session
 * (docs/operations.md, "Sign-in with another provider").
 */
const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const clients = new Map(app.config.oidc.map((p) => [p.id, new OidcClient(p, app.config.publicUrl, app.log)]));

  const toLogin = (reply: FastifyReply, query: Record<string, string>) => reply.redirect(`${LOGIN_PAGE}?${new URLSearchParams(query).toString()}`, 302);
  const refuse = (reply: FastifyReply, code: SsoError) => toLogin(reply, { ssoError: code });

  app.get(
    '/auth/oidc/:provider/start',
    { config: { access: 'public' }, schema: { tags: ['auth'], params: oidcProviderParamsSchema, querystring: oidcStartQuerySchema, response: redirectResponsesOf('To the provider\'s sign-in, or back to /user/login?ssoError=<code>.') } },
    async (request, reply) => {
      const client = clients.get(request.params.provider);
      if (!client) return refuse(reply, 'unknownProvider');
      const blocked = await blockedAddress(request);
      if (blocked) return refuse(reply, blocked);
      // One flow cookie per browser, kept across sign-ins so that two tabs do not undo each other.
      const existing = request.cookies[FLOW_COOKIE];
      const browser = existing && /^[\w-]{43}$/.test(existing) ? existing : newToken();
      const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier: oidc.randomPKCECodeVerifier() };
      let target: URL;
      try {
        target = await client.authorizationUrl(checks);
      } catch (err) {
        if (err instanceof OidcRefusal) return refuse(reply, err.code as SsoError);
        throw err;
      }
      await savePendingLogin(sql, checks.state, browser, {
        provider: client.provider.id,
        nonce: checks.nonce,
        codeVerifier: checks.codeVerifier,
        redirect: sameOriginPath(request.query.redirect),
        remember: request.query.remember !== '0',
      });
      reply.setCookie(FLOW_COOKIE, browser, { path: FLOW_PATH, httpOnly: true, sameSite: 'lax', secure: secureCookies(request), maxAge: OIDC_LOGIN_VALID_MS / 1000 });
      return reply.redirect(target.href, 302);
    },
  );

  app.get(
    '/auth/oidc/:provider/callback',
    { config: { access: 'public' }, schema: { tags: ['auth'], params: oidcProviderParamsSchema, querystring: oidcCallbackQuerySchema, response: redirectResponsesOf('To /user/login?sso=<one-time code>&redirect=<path> (signed in, session cookie set), or /user/login?ssoError=<code>.') } },
    async (request, reply) => {
      const client = clients.get(request.params.provider);
      if (!client) return refuse(reply, 'unknownProvider');
      const provider = client.provider.id;
      const ip = request.ip;
      const blocked = await blockedAddress(request);
      if (blocked) return refuse(reply, blocked);
      const failed = async (reason: SsoError, extra: Record<string, unknown> = {}) => {
        await app.audit({ action: 'auth.login', result: 'failed', ip, detail: { method: 'oidc', provider, reason, ...extra } });
        return refuse(reply, reason);
      };
      const { state, error } = request.query;
      const browser = request.cookies[FLOW_COOKIE];
      // Single use, this provider's, and only in the browser that started it.
      const pending = state && browser ? await takePendingLogin(sql, state, browser, provider) : null;
      if (!pending) {
        await recordFailure(sql, [addressKey(ip)]);
        return failed('stateInvalid');
      }
      if (error) return failed('providerRefused', { code: error.slice(0, 60) });
      const currentUrl = new URL(request.url, client.redirectUri);
      let user;
      try {
        const account = await client.redeem(currentUrl, { state: state!, nonce: pending.nonce, codeVerifier: pending.codeVerifier });
        user = await userForAccount(app, client.provider, account, ip);
      } catch (err) {
        if (!(err instanceof OidcRefusal)) throw err;
        // A code or ID token that does not check out counts against the address like a wrong password.
        if (err.code === 'providerFailed') await recordFailure(sql, [addressKey(ip)]);
        return failed(err.code as SsoError);
      }
      if (user.status !== 'active') {
        await app.audit({ action: 'auth.login', result: 'denied', userId: user.id, username: user.username, ip, detail: { method: 'oidc', provider, reason: user.status } });
        return refuse(reply, user.status);
      }
      const session = await openSession(app, request, reply, user, { remember: pending.remember, detail: { method: 'oidc', provider } });
      // The web client keeps its own copy of the token (lib/token.ts): it fetches it with this one-time code and the cookie.
      const code = newToken();
      await saveHandoff(sql, code, await sessionIdOfToken(sql, session.token), pending.remember);
      return toLogin(reply, { sso: code, redirect: pending.redirect });
    },
  );

  app.post(
    '/auth/oidc/session',
    { config: { access: 'public' }, schema: { tags: ['auth'], body: oidcHandoffSchema, response: responsesOf(oidcHandoffResultSchema) } },
    async (request) => {
      const token = request.cookies[TOKEN_COOKIE];
      const session = token ? await app.sessionFromToken(token, true) : null;
      const handoff = session && token ? await takeHandoff(sql, request.body.code, session.sessionId) : null;
      if (!handoff || !token) throw new AppError('auth.tokenInvalid');
      return ok({ token, expiresAt: handoff.expiresAt.toISOString(), remember: handoff.remember });
    },
  );

  /** The address's sign-in failures block it as they block password sign-ins (modules/auth/throttle.ts). */
  async function blockedAddress(request: FastifyRequest): Promise<SsoError | null> {
    try {
      await assertNotBlocked(sql, [addressKey(request.ip)]);
      return null;
    } catch (err) {
      if (err instanceof AppError) return 'tooManyAttempts';
      throw err;
    }
  }
};

export default oidcRoutes;
