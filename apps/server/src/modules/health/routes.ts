import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorEnvelopeSchema, healthEnvelopeSchema } from '@liftlink/protocol';

const CHECK_TIMEOUT_MS = 2_000;

/** `GET /health`: each dependency reachable or not; 503 when any is down. */
const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { config: { access: 'public' }, schema: { tags: ['health'], response: { 200: healthEnvelopeSchema, 503: healthEnvelopeSchema, '4xx': errorEnvelopeSchema } } }, async (_request, reply) => {
    const checks: Record<string, 'up' | 'down'> = {};
    await Promise.all(
      [...app.healthChecks].map(async ([name, check]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([check(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS)))]);
          checks[name] = 'up';
        } catch {
          checks[name] = 'down';
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const healthy = Object.values(checks).every((s) => s === 'up');
    return reply.code(healthy ? 200 : 503).send({ success: healthy, code: healthy ? 'ok' : 'service.unavailable', msg: healthy ? 'OK' : 'A dependency is down', result: checks });
  });
};

export default healthRoutes;
