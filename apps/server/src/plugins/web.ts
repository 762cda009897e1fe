import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { fail } from '../lib/errors.ts';

const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');
const API_PREFIX = /^\/(auth|account|manufacture|api|ws|health|docs)(\/|$|\?)/;

/**
 * Serves the built web client with history-mode fallback: any GET that is not an API path
 * and not a file gets index.html. Unknown API paths get the JSON 404 envelope.
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
    if (hasWeb && request.method === 'GET' && !API_PREFIX.test(request.url) && !path.extname(request.url.split('?')[0]!)) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { maxAge: 0, immutable: false });
    }
    return reply.code(404).send(fail('notFound'));
  });
});
