import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fail } from '../lib/errors.ts';
import { hasCsrfCookie, setCsrfCookie } from '../modules/auth/cookies.ts';

const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
/** Paths that are only ever API: a miss there is JSON even for a browser. */
const API_ONLY = /^\/(auth|api|ws|health|docs)(\/|$|\?)/;
/** The build's content-hashed files (`/assets/name-<hash>.js`): they never change under their name. */
const HASHED = /[\\/]assets[\\/][^\\/]+-[\w-]{8,}\.\w+(\.(br|gz))?$/;
const YEAR_IMMUTABLE = 'public, max-age=31536000, immutable';
const INDEX_NAMES = new Set(['index.html', 'index.html.br', 'index.html.gz']);

/**
 * Serves the built web client:
 * - brotli or gzip copies written by the build (`.br`, `.gz`), chosen by Accept-Encoding,
 *   with `Vary: Accept-Encoding`; the plain file for a client that accepts neither;
 * - hashed assets cached for a year (immutable), everything else revalidated (`no-cache`
 *   with ETag and Last-Modified, so an unchanged index.html costs a 304);
 * - index.html with the CSRF cookie when the browser has none (what GET /auth/Hi sets), so
 *   a first visit loads the page once;
 * - history-mode fallback: a page request (GET accepting HTML, not a file) gets index.html,
 *   so `/account/center` or `/manufacture/device` can be reloaded or linked even though
 *   `/account` and `/manufacture` also hold API routes. Anything else unknown gets the JSON
 *   404 envelope.
 */
export default fp(async (app) => {
  const root = app.config.webDist ? path.resolve(app.config.webDist) : DEFAULT_DIST;
  const hasWeb = existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      // The copies are found next to the file asked for; they are no addresses of their own.
      globIgnore: ['**/*.br', '**/*.gz'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        reply.header('cache-control', HASHED.test(file) ? YEAR_IMMUTABLE : 'no-cache');
        if (INDEX_NAMES.has(path.basename(file)) && path.dirname(file) === root && !hasCsrfCookie(reply.request))
          setCsrfCookie(reply.request, reply);
      },
    });
  } else {
    app.log.warn({ root }, 'web client not built: run `npm run build` to serve it');
  }
  app.setNotFoundHandler((request, reply) => {
    // A page request: a browser's (it accepts HTML), or the site's root, whoever asks (a
    // health check of a proxy, `curl http://host:8080/`).
    const wantsPage = request.method === 'GET' && ((request.headers.accept ?? '').includes('text/html') || request.url.split('?')[0] === '/');
    if (hasWeb && wantsPage && !API_ONLY.test(request.url) && !path.extname(request.url.split('?')[0]!)) {
      return reply.sendFile('index.html', root);
    }
    return reply.code(404).send(fail('notFound'));
  });
});
