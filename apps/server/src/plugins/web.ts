import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fail } from '../lib/errors.ts';

const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
/** Paths that are only ever API: a miss there is JSON even for a browser. */
const API_ONLY = /^\/(auth|api|ws|health|docs)(\/|$|\?)/;

/**
 * Serves the built web client with history-mode fallback: a page request (GET accepting
 * HTML, not a file) gets index.html, so `/account/center` or `/manufacture/device` can be
 * reloaded or linked even though `/account` and `/manufacture` also hold API routes.
 * Anything else unknown gets the JSON 404 envelope.
 */
export default fp(async (app) => {
  const root = app.config.webDist ? path.resolve(app.config.webDist) : DEFAULT_DIST;
  const hasWeb = existsSync(path.join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root, wildcard: false, index: false, maxAge: '1h', immutable: true, prefix: '/' });
  } else {
    app.log.warn({ root }, 'web client not built: run `npm run build` to serve it');
  }
  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    if (hasWeb && wantsPage && !API_ONLY.test(request.url) && !path.extname(request.url.split('?')[0]!)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { maxAge: 0, immutable: false });
    }
    return reply.code(404).send(fail('notFound'));
  });
});
