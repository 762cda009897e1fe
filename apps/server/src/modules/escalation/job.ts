import fp from 'fastify-plugin';
import { runEscalation } from './escalate.ts';

/**
 * The escalation job (docs/service.md, "Escalation"), every ESCALATION_POLL_MS: starts the
 * escalation of new open incidents, asks the next person when an acknowledge time passed,
 * tells those asked who took an acknowledged incident, mails it all (`app.jobs.run('escalation')` runs it now).
 */
export default fp(
  async (app) => {
    app.jobs.add({ name: 'escalation', everyMs: app.config.escalationPollMs, firstAfterMs: app.config.escalationPollMs, run: (a) => runEscalation(a) });
  },
  { name: 'liftlink-escalation-job', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database', 'mailer', 'live'] } },
);
