import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  firmwareCampaignCreateSchema,
  firmwareCampaignIdSchema,
  firmwareCampaignLiftListSchema,
  firmwareCampaignListSchema,
  firmwareCampaignPreviewSchema,
  firmwareCampaignSchema,
  responsesOf,
} from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { campaignView, listCampaignLifts, listCampaigns } from './campaign-repository.ts';
import { campaignInReach, changeCampaign, createCampaign, previewCampaign } from './campaigns.ts';
import { reachesAllOrganizations } from './service.ts';

/**
 * Firmware campaigns (docs/firmware.md, "Campaigns"; contract in
 * packages/protocol/src/api/firmware-campaigns.ts): the caller's organization's, every
 * organization's for one who may administer organizations. Seeing needs `firmware.query`;
 * creating, approving, pausing, resuming and cancelling `firmware.add`.
 */
export const campaignRoutes: FastifyPluginAsyncZod = async (app) => {
  const base = '/auth/access/firmware/campaigns';
  const tags = ['firmware'];
  const view = { config: { access: 'firmware.query' as const } };
  const change = { config: { access: 'firmware.add' as const } };

  app.get(base, { ...view, schema: { tags, response: responsesOf(firmwareCampaignListSchema) } }, async (request) => {
    const auth = request.auth!;
    if (!reachesAllOrganizations(auth) && !auth.orgId) return ok({ list: [] });
    return ok({ list: await listCampaigns(app.database.sql, reachesAllOrganizations(auth) ? null : auth.orgId) });
  });

  app.get(`${base}/get`, { ...view, schema: { tags, response: responsesOf(firmwareCampaignSchema), querystring: firmwareCampaignIdSchema } }, async (request) =>
    ok(await campaignView(app.database.sql, await campaignInReach(app, request, request.query.id))),
  );

  app.get(`${base}/lifts`, { ...view, schema: { tags, response: responsesOf(firmwareCampaignLiftListSchema), querystring: firmwareCampaignIdSchema } }, async (request) => {
    const row = await campaignInReach(app, request, request.query.id);
    return ok({ list: await listCampaignLifts(app.database.sql, row.id) });
  });

  app.post(`${base}/preview`, { ...change, schema: { tags, response: responsesOf(firmwareCampaignPreviewSchema), body: firmwareCampaignCreateSchema } }, async (request) =>
    ok(await previewCampaign(app, request, request.body)),
  );

  app.post(`${base}/create`, { ...change, schema: { tags, response: responsesOf(firmwareCampaignSchema), body: firmwareCampaignCreateSchema } }, async (request) =>
    ok(await createCampaign(app, request, request.body)),
  );

  for (const action of ['approve', 'pause', 'resume', 'cancel'] as const) {
    app.post(`${base}/${action}`, { ...change, schema: { tags, response: responsesOf(firmwareCampaignSchema), body: firmwareCampaignIdSchema } }, async (request) =>
      ok(await changeCampaign(app, request, request.body.id, action)),
    );
  }
};
