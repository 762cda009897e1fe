import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import { CSRF_COOKIE, CSRF_HEADER, TOKEN_COOKIE, TOKEN_HEADER, type Permission } from '@liftlink/protocol';
import { AppError } from '../lib/errors.ts';
import { safeEqual, sha256 } from '../lib/crypto.ts';
import type { AuthContext, RouteAccess } from '../types.ts';
import { authorize } from '../modules/access/policy.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Paths served without the access declaration: API docs and the web client's files. */
const UNDECLARED_OK = /^\/(docs|assets)(\/|$)|^\/\*$/;
const LAST_SEEN_RESOLUTION_MS = 60_000;

export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  /** The request names a lift (`liftId` or `deviceNo` in its body or query): its scope applies. */
  namesLift: boolean;
}

/** Whether a route's body or query schema has a `liftId` or `deviceNo` field. */
function namesLift(schema: unknown): boolean {
  const parts = schema as { body?: { shape?: object }; querystring?: { shape?: object } } | undefined;
  return [parts?.body?.shape, parts?.querystring?.shape].some((shape) => !!shape && ('liftId' in shape || 'deviceNo' in shape));
}

declare module 'fastify' {
  interface FastifyInstance {
    declaredRoutes: DeclaredRoute[];
    sessionFromToken(token: string, viaCookie: boolean): Promise<AuthContext | null>;
    /** Enforces the route's declared access (an onRequest hook; app.ts adds it after the rate limit's). */
    checkAccess(this: void, request: FastifyRequest): Promise<void>;
  }
  interface FastifyRequest {
    /** The session lookup, started as the request arrives (see the first onRequest hook). */
    sessionLookup: Promise<AuthContext | null> | null;
  }
}

/**
 * Resolves the session of every request and enforces the route's declared access before
 * the body is even read. A route without a declaration fails the start: forgetting a
 * permission check is not possible. Cookie-authenticated writes need the CSRF header.
 */
export default fp(async (app) => {
  await app.register(cookie);
  app.decorateRequest('auth', null);
  app.decorate('declaredRoutes', [] as DeclaredRoute[]);

  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) {
      // The web client's files (@fastify/static marks its routes with rootPath) are public.
      const isStaticFile = !!(route.config as { rootPath?: string } | undefined)?.rootPath;
      if (isStaticFile || UNDECLARED_OK.test(route.url) || route.method === 'HEAD') return;
      throw new Error(`Route ${String(route.method)} ${route.url} declares no access`);
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.declaredRoutes.push({ method, url: route.url, access, namesLift: namesLift(route.schema) });
    }
  });

  // The session is looked up as the request arrives, while the rate limit counts it (its
  // hook comes between this one and the check): with PostgreSQL both are a round trip to
  // the database, and a person waits for every API call. A request the limit refuses
  // never awaits its lookup.
  app.decorateRequest('sessionLookup', null);
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.access) return;
    const lookup = resolveSession(request);
    lookup.catch(() => {});
    request.sessionLookup = lookup;
  });

  app.decorate('checkAccess', async (request: FastifyRequest) => {
    const access = request.routeOptions.config.access;
    if (!access) return;
    request.auth = await (request.sessionLookup ?? resolveSession(request));
    if (access === 'public') return;
    if (!request.auth) throw new AppError('auth.unauthorized');
    if (request.auth.viaCookie && !SAFE_METHODS.has(request.method)) {
      const header = request.headers[CSRF_HEADER];
      const cookieValue = request.cookies[CSRF_COOKIE];
      if (typeof header !== 'string' || !cookieValue || !safeEqual(header, cookieValue)) throw new AppError('csrf.invalid');
    }
    if (access === 'authenticated') return;
    // The one decision; the grant's scope then filters every lift the route selects.
    const grant = authorize(request.auth, access);
    if (!grant) {
      await app.audit({ action: 'access.denied', result: 'denied', userId: request.auth.userId, username: request.auth.username, ip: request.ip, detail: { method: request.method, url: request.routeOptions.url, needs: access } });
      throw new AppError('forbidden', { needs: access });
    }
    request.auth.grant = grant;
  });

  /**
   * The signed-in user behind a session token, or null (unknown, revoked, expired, frozen).
   * One statement, also for the live socket; it brings the user's language along, which
   * answers that carry text (refusal reasons, event texts) need.
   */
  async function sessionFromToken(token: string, viaCookie: boolean): Promise<AuthContext | null> {
    const [row] = await app.database.sql.query<{
      session_id: string; last_seen_at: Date; user_id: string; username: string; status: string; language: string;
      org_id: string | null; org_kind: 'manufacturer' | 'operator' | null; role_type: string; permissions: Permission[];
    }>(
      `select s.id as session_id, s.last_seen_at, u.id as user_id, u.username, u.status, u.language, u.org_id, o.kind as org_kind, r.role_type, r.permissions
         from sessions s join users u on u.id = s.user_id join roles r on r.id = u.role_id
         left join organizations o on o.id = u.org_id
        where s.token_hash = $1 and s.revoked_at is null and s.expires_at > now()`,
      [sha256(token)],
    );
    if (!row || row.status !== 'active') return null;
    if (Date.now() - new Date(row.last_seen_at).getTime() > LAST_SEEN_RESOLUTION_MS) {
      await app.database.sql.query('update sessions set last_seen_at = now() where id = $1', [row.session_id]);
    }
    return {
      sessionId: row.session_id,
      userId: row.user_id,
      username: row.username,
      language: row.language,
      orgId: row.org_id,
      orgKind: row.org_kind,
      roleType: row.role_type,
      permissions: row.permissions,
      viaCookie,
    };
  }
  app.decorate('sessionFromToken', sessionFromToken);

  async function resolveSession(request: FastifyRequest): Promise<AuthContext | null> {
    const header = request.headers[TOKEN_HEADER];
    const fromHeader = typeof header === 'string' && header.length > 0 && header.length <= 200 ? header : undefined;
    const token = fromHeader ?? request.cookies[TOKEN_COOKIE];
    if (!token || token.length > 200) return null;
    return sessionFromToken(token, !fromHeader);
  }
});
