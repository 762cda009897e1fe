import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import errorsPlugin from './plugins/errors.ts';
import dbPlugin from './plugins/db.ts';
import { postgresRateLimitStore } from './plugins/rate-limit-store.ts';
import messagingPlugin, { type Mailer, type SmsSender } from './plugins/messaging.ts';
import authPlugin from './plugins/auth.ts';
import mqttPlugin from './plugins/mqtt.ts';
import brokerAdmin from './modules/broker/plugin.ts';
import webPlugin from './plugins/web.ts';
import metricsPlugin from './plugins/metrics.ts';
import { commandsPlugin } from './modules/commands/service.ts';
import tlsPlugin, { readTlsFiles } from './plugins/tls.ts';
import tlsHeaders from './plugins/tls-headers.ts';
import authRoutes from './modules/auth/routes.ts';
import oidcRoutes from './modules/auth/oidc/routes.ts';
import accountRoutes from './modules/account/routes.ts';
import healthRoutes from './modules/health/routes.ts';
import systemUsers from './modules/system/users.ts';
import systemRoles from './modules/system/roles.ts';
import systemOrgs from './modules/system/orgs.ts';
import inviteRoutes from './modules/invites/routes.ts';
import ingestPlugin from './modules/ingest/plugin.ts';
import liftRoutes from './modules/lifts/routes.ts';
import controlRoutes from './modules/control/routes.ts';
import approvalRoutes from './modules/approvals/routes.ts';
import logbookRoutes from './modules/logbook/routes.ts';
import liveSocket, { closeLiveSockets } from './modules/live/ws.ts';
import demoFleet from './modules/lifts/demo-fleet.ts';
import deviceCredentials from './modules/lifts/credentials.ts';
import alertRoutes from './modules/alerts/routes.ts';
import incidentRoutes from './modules/incidents/routes.ts';
import maintenanceRoutes from './modules/maintenance/routes.ts';
import groupConfigRoutes from './modules/group-config/routes.ts';
import reportRoutes from './modules/reports/routes.ts';
import conditionRoutes from './modules/condition/routes.ts';
import oplogRoutes from './modules/oplog/routes.ts';
import dashboardRoutes from './modules/dashboard/routes.ts';
import availabilityRoutes from './modules/availability/routes.ts';
import manufactureRoutes from './modules/manufacture/routes.ts';
import documentRoutes from './modules/documents/routes.ts';
import firmwareRoutes from './modules/firmware/routes.ts';
import backupRoutes from './modules/backup/routes.ts';
import jobsPlugin from './modules/jobs/plugin.ts';
import alertJob from './modules/alerts/job.ts';
import dashboardJob from './modules/dashboard/job.ts';
import webhookJob from './modules/webhooks/job.ts';
import webhookRoutes from './modules/webhooks/routes.ts';
import escalationJob from './modules/escalation/job.ts';
import escalationRoutes from './modules/escalation/routes.ts';
import { openApiSchemas, openApiTransform } from './lib/openapi.ts';
import './types.ts';

export interface BuildOptions {
  config: Config;
  database?: Database;
  mailer?: Mailer;
  sms?: SmsSender;
  logger?: FastifyServerOptions['logger'];
  onAdminPassword?: (username: string, password: string) => void;
  /** Sees every route as it is added (tests list what the server answers). */
  onRoute?: (route: RouteOptions) => void;
}

/** Bodies above this are refused with 413 before parsing. */
export const BODY_LIMIT_BYTES = 256 * 1024;

export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  // TLS_CERT_FILE + TLS_KEY_FILE: HTTPS on PORT. A file that cannot serve stops the start here (one line naming the variable).
  const tlsMaterial = opts.config.tls ? readTlsFiles(opts.config.tls) : null;
  const app = Fastify({
    ...(tlsMaterial ? { https: { cert: tlsMaterial.cert, key: tlsMaterial.key } } : {}),
    logger: opts.logger ?? {
      level: opts.config.logLevel,
      // Secrets never reach a log, even if a future log line includes a body or headers.
      redact: ['req.headers.authorization', 'req.headers["access-token"]', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.oldPassword', '*.captcha', '*.token', '*.secret'],
    },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: opts.config.trustProxy,
    routerOptions: { maxParamLength: 200 },
    // First start on a fresh PGlite folder initialises a whole database cluster.
    pluginTimeout: 120_000,
  }).withTypeProvider<ZodTypeProvider>();

  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('config', opts.config);
  app.decorate('healthChecks', new Map());
  if (opts.mailer) app.decorate('mailer', opts.mailer);
  if (opts.sms) app.decorate('sms', opts.sms);

  await app.register(errorsPlugin);
  await app.register(metricsPlugin); // Prometheus, on METRICS_HOST:METRICS_PORT (not on PORT)
  await app.register(helmet, {
    // HSTS and upgrade-insecure-requests only over HTTPS: plugins/tls-headers.ts adds them per request.
    hsts: false,
    contentSecurityPolicy: {
      directives: { defaultSrc: ["'self'"], scriptSrc: ["'self'"], styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'data:', 'blob:'], connectSrc: ["'self'", 'ws:', 'wss:', 'http://127.0.0.1:*', 'ws://127.0.0.1:*'], upgradeInsecureRequests: null },
    },
  });
  await app.register(tlsHeaders);
  await app.register(tlsPlugin, { initial: tlsMaterial });
  await app.register(swagger, {
    openapi: {
      info: { title: 'LiftLink API', version: '1.0.0', description: 'Every response is `{ success, code, msg, result }`. Each operation names what it needs in `x-permission` (and the first line of its description): `public`, `authenticated` (any signed-in user) or one `permissionId.action`.' },
      components: { securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'Access-Token' } }, schemas: openApiSchemas as Record<string, object> },
      security: [{ accessToken: [] }],
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // At shutdown live sockets are closed with 1012 (Service Restart): browsers reconnect.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 }, preClose: closeLiveSockets });
  await app.register(dbPlugin, { database: opts.database, onAdminPassword: opts.onAdminPassword });
  // With PostgreSQL several instances may share the load, so they share the counts too.
  const sharedLimits = app.database.kind === 'postgres';
  // Before the rate limit: its hook starts each request's session lookup, which the limit's count overlaps.
  await app.register(authPlugin);
  // API calls only: the web client's files (routes without an access declaration) are not counted.
  await app.register(rateLimit, { global: true, max: opts.config.rateLimitMax, timeWindow: 60_000, skipOnError: sharedLimits, allowList: (request) => request.routeOptions.config.access === undefined, ...(sharedLimits ? { store: postgresRateLimitStore(app.database.sql) } : {}) });
  // After the rate limit: a request over the limit is refused before anything else.
  app.addHook('onRequest', app.checkAccess);
  await app.register(messagingPlugin);
  await app.register(mqttPlugin);
  await app.register(brokerAdmin); // Mosquitto dynamic security, only with MQTT_URL and MQTT_DYNSEC=true
  await app.register(ingestPlugin);
  await app.register(commandsPlugin);
  await app.register(deviceCredentials);
  await app.register(jobsPlugin); // background jobs: cleanup, retention (modules/jobs)
  await app.register(alertJob); // offline alerts and alert mails
  await app.register(dashboardJob); // the 30-day trips rollup
  await app.register(webhookJob); // sends due webhook deliveries, with retries (docs/webhooks.md)
  await app.register(escalationJob); // unacknowledged incidents to the next on call, then the manager (docs/service.md)

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oidcRoutes); // sign-in with another provider (OIDC_PROVIDERS)
  await app.register(accountRoutes);
  await app.register(systemUsers);
  await app.register(systemRoles);
  await app.register(systemOrgs);
  await app.register(inviteRoutes);
  await app.register(liftRoutes);
  await app.register(controlRoutes); // the remote-control lease, cancelling a command (docs/remote-control.md)
  await app.register(approvalRoutes); // two-person approval of a command, and the organizations' approval classes
  await app.register(logbookRoutes); // the lift's hash-chained logbook: page, verify, CSV export (docs/logbook.md)
  await app.register(liveSocket);
  await app.register(alertRoutes);
  await app.register(webhookRoutes); // an organization's webhooks: endpoints, secrets, test-send, delivery log (docs/webhooks.md)
  await app.register(incidentRoutes); // incidents and maintenance windows, alarm hygiene settings (docs/service.md)
  await app.register(maintenanceRoutes); // maintenance plans, checklists, visits, the weekly due mail (docs/service.md)
  await app.register(reportRoutes); // monthly and on-demand availability reports, PDF and CSV, the monthly mail (docs/reports.md)
  await app.register(conditionRoutes); // each lift's condition score, its factors and history, the lifts to visit (docs/condition.md)
  await app.register(groupConfigRoutes); // one configuration change reviewed and sent to many lifts (docs/group-config.md)
  await app.register(escalationRoutes); // organizations' on-call lists, incident notifications (docs/service.md)
  await app.register(oplogRoutes);
  await app.register(dashboardRoutes);
  await app.register(availabilityRoutes); // availability and reliability per month, and its hourly booking (docs/insight.md)
  await app.register(manufactureRoutes);
  await app.register(documentRoutes);
  await app.register(firmwareRoutes); // firmware packages, signing keys, the lifts' ranged download (docs/firmware.md)
  await app.register(backupRoutes);
  await app.register(demoFleet);
  await app.register(webPlugin);
  return app;
}
