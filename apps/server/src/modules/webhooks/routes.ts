import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  WEBHOOK_TEST_EVENT,
  emptyResultSchema,
  responsesOf,
  webhookCreateSchema,
  webhookDeliveryPageSchema,
  webhookDeliveryQuerySchema,
  webhookDeliverySchema,
  webhookIdSchema,
  webhookListQuerySchema,
  webhookListSchema,
  webhookUpdateSchema,
  webhookViewSchema,
  webhookWithSecretSchema,
  type AuditAction,
} from '@liftlink/protocol';
import { randomUUID } from 'node:crypto';
import { AppError, ok } from '../../lib/errors.ts';
import { attemptDelivery, type DueDelivery } from './delivery.ts';
import { webhookBody } from './events.ts';
import { createEndpoint, deleteEndpoint, deliveryPage, endpointsOf, findDelivery, findEndpoint, publicView, rotateSecret, updateEndpoint, type EndpointRecord } from './repository.ts';
import { acceptableWebhookUrl } from './url.ts';

/**
 * An organization's webhooks (docs/webhooks.md). They are configuration of the organization's
 * lifts, so `liftConfig.edit` admits a caller (operators and makers' engineers, the
 * administrator); its scope decides which organization: `all` reaches every one (`orgId`
 * names it), a narrower scope only the caller's own. An endpoint out of reach is "not found".
 */
const webhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/webhooks';
  const access = 'liftConfig.edit' as const;

  /** The organization the request acts for: `orgId` when the grant reaches it, else the caller's own. */
  async function orgInReach(request: FastifyRequest, orgId: string | undefined): Promise<string> {
    const auth = request.auth!;
    const target = orgId ?? auth.orgId;
    if (!target || (auth.grant?.scope !== 'all' && target !== auth.orgId)) throw new AppError('org.notFound');
    const [org] = await sql.query('select 1 from organizations where id = $1', [target]);
    if (!org) throw new AppError('org.notFound');
    return target;
  }

  async function endpointInReach(request: FastifyRequest, id: string): Promise<EndpointRecord> {
    const auth = request.auth!;
    const endpoint = await findEndpoint(sql, id);
    if (!endpoint || (auth.grant?.scope !== 'all' && endpoint.orgId !== auth.orgId)) throw new AppError('webhook.notFound');
    return endpoint;
  }

  function checkedUrl(url: string): string {
    const accepted = acceptableWebhookUrl(url, app.config.webhooks.allowHttp);
    if (!accepted) throw new AppError('webhook.badUrl');
    return accepted;
  }

  const audit = (request: FastifyRequest, action: AuditAction, endpoint: EndpointRecord, detail: Record<string, unknown>) =>
    app.audit({ action, result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'webhook', targetId: endpoint.id, detail: { orgId: endpoint.orgId, ...detail } });
  /** What the audit keeps of an endpoint: never its secret. */
  const auditView = (e: EndpointRecord) => ({ url: e.url, description: e.description, eventTypes: e.eventTypes, enabled: e.enabled });

  app.get(base, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookListSchema), querystring: webhookListQuerySchema } }, async (request) => {
    const orgId = await orgInReach(request, request.query.orgId);
    return ok({ list: (await endpointsOf(sql, orgId)).map(publicView) });
  });

  /** The answer holds the secret: the only time it is shown, with the rotation's. */
  app.post(`${base}/create`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookWithSecretSchema), body: webhookCreateSchema } }, async (request) => {
    const b = request.body;
    const orgId = await orgInReach(request, b.orgId);
    const endpoint = await createEndpoint(sql, { orgId, url: checkedUrl(b.url), description: b.description ?? '', eventTypes: [...new Set(b.eventTypes)], enabled: b.enabled ?? true, createdBy: request.auth!.userId });
    await audit(request, 'webhook.create', endpoint, { after: auditView(endpoint) });
    return ok({ webhook: publicView(endpoint), secret: endpoint.secret });
  });

  app.post(`${base}/update`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookViewSchema), body: webhookUpdateSchema } }, async (request) => {
    const b = request.body;
    const before = await endpointInReach(request, b.id);
    const after = await updateEndpoint(sql, b.id, { url: b.url === undefined ? undefined : checkedUrl(b.url), description: b.description, eventTypes: b.eventTypes && [...new Set(b.eventTypes)], enabled: b.enabled });
    await audit(request, 'webhook.update', after, { before: auditView(before), after: auditView(after) });
    return ok(publicView(after), 'modification successful');
  });

  app.post(`${base}/delete`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(emptyResultSchema), body: webhookIdSchema } }, async (request) => {
    const endpoint = await endpointInReach(request, request.body.id);
    await deleteEndpoint(sql, endpoint.id);
    await audit(request, 'webhook.delete', endpoint, { before: auditView(endpoint) });
    return ok(null);
  });

  /** A new secret at once; the old one stops signing (receivers switch when they store the new one). */
  app.post(`${base}/rotate-secret`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookWithSecretSchema), body: webhookIdSchema } }, async (request) => {
    const endpoint = await rotateSecret(sql, (await endpointInReach(request, request.body.id)).id);
    await audit(request, 'webhook.rotateSecret', endpoint, { url: endpoint.url });
    return ok({ webhook: publicView(endpoint), secret: endpoint.secret });
  });

  /**
   * Sends a `webhook.test` event to this endpoint now (also when it is disabled) and answers
   * with the delivery as logged. A test is tried once: the user sees the answer and tries again.
   */
  app.post(`${base}/test`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookDeliverySchema), body: webhookIdSchema } }, async (request) => {
    const endpoint = await endpointInReach(request, request.body.id);
    const eventId = randomUUID();
    const now = new Date();
    const payload = webhookBody(eventId, WEBHOOK_TEST_EVENT, now, { orgId: endpoint.orgId, webhookId: endpoint.id, requestedBy: request.auth!.username });
    // Created already claimed (due only after the attempt's timeout), so the worker leaves it alone.
    const [row] = await sql.query<Omit<DueDelivery, 'url' | 'secret'>>(
      `insert into webhook_deliveries (endpoint_id, event_id, event_type, occurred_at, payload, next_attempt_at, give_up_at)
       values ($1, $2, $3, $4, $5, now() + interval '1 hour', now()) returning id, event_id, payload, attempts, give_up_at`,
      [endpoint.id, eventId, WEBHOOK_TEST_EVENT, now, payload],
    );
    const outcome = await attemptDelivery(app, { ...row!, url: endpoint.url, secret: endpoint.secret });
    await audit(request, 'webhook.test', endpoint, { url: endpoint.url, statusCode: outcome.statusCode, ...(outcome.error ? { error: outcome.error } : {}) });
    return ok((await findDelivery(sql, row!.id))!);
  });

  app.get(`${base}/deliveries`, { config: { access }, schema: { tags: ['webhooks'], response: responsesOf(webhookDeliveryPageSchema), querystring: webhookDeliveryQuerySchema } }, async (request) => {
    const endpoint = await endpointInReach(request, request.query.id);
    return ok(await deliveryPage(sql, endpoint.id, request.query));
  });
};

export default webhookRoutes;
