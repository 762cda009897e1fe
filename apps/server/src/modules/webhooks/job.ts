import fp from 'fastify-plugin';
import { deliverDue } from './delivery.ts';

/** Sends the webhook deliveries that are due, every WEBHOOK_POLL_MS (`app.jobs.run('webhooks')` runs it now). */
export default fp(
  async (app) => {
    app.jobs.add({ name: 'webhooks', everyMs: app.config.webhooks.pollMs, firstAfterMs: app.config.webhooks.pollMs, run: deliverDue });
  },
  { name: 'liftlink-webhook-job', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database'] } },
);
