import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { emptyResultSchema, scopeOf, escalationPolicyQuerySchema, escalationPolicySchema, escalationPolicyUpdateSchema, incidentNotificationSchema, responsesOf } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { escalationCandidates, incidentNotificationsOf, markIncidentNotificationsRead, orgEscalationPolicy, saveEscalationPolicy } from './repository.ts';

/**
 * Escalation (docs/service.md): an organization's on-call list beside its other settings
 * (`/auth/access/system/orgs/escalation`: read with `org.query`, save with `org.edit`), and
 * each user's incident notifications for the header's bell (`/auth/access/notifications/incidents`).
 *
 * Organization scope: the list is about the incidents of the organization's lifts, so a user
 * whose incident grant reaches every lift (scope `all`: the administrator) reaches every
 * organization's list, anyone else only their own organization's. Out of reach reads as
 * "organization not found".
 */
export default fp(async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { sql } = app.database;
  const base = '/auth/access/system/orgs/escalation';

  async function policyInReach(request: FastifyRequest, orgId: string) {
    const auth = request.auth!;
    const reaches = auth.orgId === orgId || scopeOf(auth.permissions, 'incident.query') === 'all';
    const policy = reaches ? await orgEscalationPolicy(sql, orgId) : undefined;
    if (!policy) throw new AppError('org.notFound');
    return policy;
  }

  app.get(base, { config: { access: 'org.query' }, schema: { tags: ['organizations'], response: responsesOf(escalationPolicySchema), querystring: escalationPolicyQuerySchema } }, async (request) => {
    const { orgName: _name, ...policy } = await policyInReach(request, request.query.orgId);
    return ok({ ...policy, candidates: await escalationCandidates(sql, request.query.orgId) });
  });

  app.post(`${base}/update`, { config: { access: 'org.edit' }, schema: { tags: ['organizations'], response: responsesOf(escalationPolicySchema), body: escalationPolicyUpdateSchema } }, async (request) => {
    const { orgId, ...input } = request.body;
    const auth = request.auth!;
    const before = await policyInReach(request, orgId);
    const candidates = await escalationCandidates(sql, orgId);
    const allowed = new Set(candidates.map((c) => c.id));
    const refused = [...input.onCall, ...(input.managerId ? [input.managerId] : [])].filter((id) => !allowed.has(id));
    const audit = (result: string, detail: Record<string, unknown>) =>
      app.audit({ action: 'org.escalation', result, userId: auth.userId, username: auth.username, ip: request.ip, targetType: 'org', targetId: orgId, detail: { orgId, ...detail } });
    if (refused.length) {
      await audit('denied', { reason: 'escalation.notCandidate', userIds: refused });
      throw new AppError('escalation.notCandidate', { userIds: refused });
    }
    await saveEscalationPolicy(sql, orgId, input, { userId: auth.userId, name: auth.username });
    const pick = (p: { onCall: string[]; managerId: string | null; ackMinutes: number; ackMinutesByPriority: object }) => ({ onCall: p.onCall, managerId: p.managerId, ackMinutes: p.ackMinutes, ackMinutesByPriority: p.ackMinutesByPriority });
    await audit('ok', { name: before.orgName, before: pick(before), after: pick(input) });
    const { orgName: _name, ...saved } = (await orgEscalationPolicy(sql, orgId))!;
    return ok({ ...saved, candidates }, 'modification successful');
  });

  app.get('/auth/access/notifications/incidents', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(z.strictObject({ list: z.array(incidentNotificationSchema), unread: z.number() })) } }, async (request) =>
    ok(await incidentNotificationsOf(sql, request.auth!.userId)),
  );

  app.post('/auth/access/notifications/incidents/read', { config: { access: 'authenticated' }, schema: { tags: ['alerts'], response: responsesOf(emptyResultSchema), body: z.strictObject({ ids: z.array(z.number().int().positive()).min(1).max(200) }) } }, async (request) => {
    await markIncidentNotificationsRead(sql, request.auth!.userId, request.body.ids);
    return ok(null);
  });
});
