import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  campaignOverThreshold,
  campaignStageOf,
  campaignStageSizes,
  FAILED_CAMPAIGN_LIFT_STATES,
  isFinalCampaignLiftState,
  nextCampaignWindow,
  OPEN_CAMPAIGN_STATES,
  type CampaignState,
  type FirmwareCampaign,
  type FirmwareCampaignCreate,
  type FirmwareCampaignPreview,
} from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import {
  cancelWaitingLifts,
  campaignView,
  findCampaignRow,
  insertCampaign,
  liftStates,
  markOffered,
  markUnofferable,
  moveCampaign,
  openCampaignsOfPackage,
  runningCampaigns,
  selectLifts,
  setStage,
  type CampaignRow,
} from './campaign-repository.ts';
import { packageInReach, reachesAllOrganizations } from './service.ts';

/**
 * Firmware campaigns (docs/firmware.md, "Campaigns"): created from a ready package and a
 * selection, approved by a second person, then moved on by the campaign job: the canary stage
 * first, each further stage when the one before has ended and the pause has passed, every
 * lift offered the package for its organization's next installation window.
 */

/** How many sample device numbers a preview shows. */
const PREVIEW_SAMPLE = 10;

async function resolve(app: FastifyInstance, request: FastifyRequest, input: FirmwareCampaignCreate) {
  const pkg = await packageInReach(app, request.auth!, input.packageId);
  if (pkg.state === 'withdrawn') throw new AppError('firmware.withdrawn');
  if (pkg.state !== 'ready') throw new AppError('firmware.notReady');
  const kinds = input.selection.kinds ? pkg.kinds.filter((k) => input.selection.kinds!.includes(k)) : pkg.kinds;
  const lifts = await selectLifts(app.database.sql, { orgId: pkg.orgId, kinds, version: pkg.version, selection: input.selection });
  return { pkg, lifts };
}

export async function previewCampaign(app: FastifyInstance, request: FastifyRequest, input: FirmwareCampaignCreate): Promise<FirmwareCampaignPreview> {
  const { lifts } = await resolve(app, request, input);
  return { liftCount: lifts.length, stageSizes: campaignStageSizes(lifts.length, input.plan), sample: lifts.slice(0, PREVIEW_SAMPLE).map((l) => l.deviceNo) };
}

type CampaignAuditAction = 'firmware.campaignCreate' | 'firmware.campaignApprove' | 'firmware.campaignPause' | 'firmware.campaignResume' | 'firmware.campaignCancel';

/** Audited with who did it; the job's own pause (failure threshold) has no person. */
const audit = (app: FastifyInstance, request: FastifyRequest | null, action: CampaignAuditAction, c: Pick<CampaignRow, 'id' | 'org_id' | 'name'>, detail: Record<string, unknown>) =>
  app.audit({
    action,
    result: 'ok',
    userId: request?.auth?.userId ?? null,
    username: request?.auth?.username ?? null,
    ip: request?.ip ?? null,
    targetType: 'firmwareCampaign',
    targetId: c.id,
    detail: { orgId: c.org_id, name: c.name, ...detail },
  });

export async function createCampaign(app: FastifyInstance, request: FastifyRequest, input: FirmwareCampaignCreate): Promise<FirmwareCampaign> {
  const { pkg, lifts } = await resolve(app, request, input);
  if (!lifts.length) throw new AppError('campaign.noLifts');
  const auth = request.auth!;
  const id = await insertCampaign(app.database.sql, {
    orgId: pkg.orgId,
    packageId: pkg.id,
    name: input.name,
    selection: input.selection,
    plan: input.plan,
    createdBy: { id: auth.userId, name: auth.username },
    lifts: lifts.map((l, i) => ({ id: l.id, stage: campaignStageOf(i, input.plan) })),
  });
  const row = (await findCampaignRow(app.database.sql, id))!;
  await audit(app, request, 'firmware.campaignCreate', row, { version: pkg.version, lifts: lifts.length });
  return campaignView(app.database.sql, row);
}

/** The campaign, if the caller reaches its organization. */
export async function campaignInReach(app: FastifyInstance, request: FastifyRequest, id: string): Promise<CampaignRow> {
  const row = await findCampaignRow(app.database.sql, id);
  if (!row || (!reachesAllOrganizations(request.auth!) && row.org_id !== request.auth!.orgId)) throw new AppError('campaign.notFound');
  return row;
}

type Action = 'approve' | 'pause' | 'resume' | 'cancel';
const FROM: Record<Action, CampaignState[]> = {
  approve: ['awaitingApproval'],
  pause: ['running'],
  resume: ['paused'],
  cancel: [...OPEN_CAMPAIGN_STATES],
};

/**
 * Approve (not by its author: a second person), pause, resume or cancel. Each is one
 * conditional UPDATE: two people approving or cancelling at once move it once, the other is
 * told its state no longer allows it. Cancelling leaves the lifts already offered to finish.
 */
export async function changeCampaign(app: FastifyInstance, request: FastifyRequest, id: string, action: Action): Promise<FirmwareCampaign> {
  const { sql } = app.database;
  const auth = request.auth!;
  const row = await campaignInReach(app, request, id);
  if (action === 'approve' && row.created_by === auth.userId) throw new AppError('campaign.ownApproval');
  const moved = await moveCampaign(sql, id, FROM[action], {
    approve: { state: 'running' as const, approvedBy: { id: auth.userId, name: auth.username }, notBy: auth.userId },
    pause: { state: 'paused' as const, pauseReason: 'manual' as const },
    resume: { state: 'running' as const, resumed: true },
    cancel: { state: 'cancelled' as const, ended: true },
  }[action]);
  if (!moved) throw new AppError('campaign.state', { state: row.state });
  if (action === 'approve') await audit(app, request, 'firmware.campaignApprove', row, { version: row.package_version, createdBy: row.created_by_name });
  else if (action === 'pause') await audit(app, request, 'firmware.campaignPause', row, { reason: 'manual' });
  else if (action === 'resume') await audit(app, request, 'firmware.campaignResume', row, {});
  else await audit(app, request, 'firmware.campaignCancel', row, { notOffered: await cancelWaitingLifts(sql, id) });
  // Offer the canary stage now rather than at the job's next turn.
  if (action === 'approve' || action === 'resume') void app.jobs.run(CAMPAIGN_JOB).catch(() => {});
  return campaignView(sql, (await findCampaignRow(sql, id))!);
}

/**
 * A withdrawn package can no longer be offered (its image answers 410): each open campaign
 * of it ends, cancelled, and its lifts not offered yet with it; audited with the reason.
 * Lifts already offered report `withdrawn` when they try to download.
 */
export async function cancelCampaignsOfPackage(app: FastifyInstance, request: FastifyRequest, packageId: string): Promise<number> {
  const { sql } = app.database;
  let cancelled = 0;
  for (const c of await openCampaignsOfPackage(sql, packageId)) {
    if (!(await moveCampaign(sql, c.id, FROM.cancel, { state: 'cancelled', ended: true }))) continue;
    cancelled++;
    await audit(app, request, 'firmware.campaignCancel', c, { reason: 'packageWithdrawn', notOffered: await cancelWaitingLifts(sql, c.id) });
  }
  return cancelled;
}

export const CAMPAIGN_JOB = 'firmware-campaigns';

/**
 * One turn of the campaign job over every running campaign: pause one whose failures
 * passed its threshold (counted since it was last resumed); offer the current stage's lifts
 * not offered yet, and again those online that never answered their offer within
 * FIRMWARE_REOFFER_MS (an offer sent while a lift was away may be lost); when every lift
 * of the stage has ended, wait the pause, then start the next stage; after the last, done.
 */
export async function runCampaigns(app: FastifyInstance, signal?: AbortSignal): Promise<Record<string, number>> {
  const { sql } = app.database;
  const counts = { offered: 0, reoffered: 0, paused: 0, stages: 0, done: 0 };
  for (const c of await runningCampaigns(sql)) {
    if (signal?.aborted) break;
    const lifts = await liftStates(sql, c.id);
    const since = c.resumed_at ? new Date(c.resumed_at).getTime() : -Infinity;
    const endedSince = lifts.filter((l) => (l.state === 'done' || FAILED_CAMPAIGN_LIFT_STATES.includes(l.state)) && l.changed_at && new Date(l.changed_at).getTime() > since);
    const failed = endedSince.filter((l) => FAILED_CAMPAIGN_LIFT_STATES.includes(l.state)).length;
    if (campaignOverThreshold(failed, endedSince.length, c.plan.failureThresholdPercent)) {
      if (await moveCampaign(sql, c.id, ['running'], { state: 'paused', pauseReason: 'failureThreshold' })) {
        counts.paused++;
        await audit(app, null, 'firmware.campaignPause', c, { reason: 'failureThreshold', failed, ended: endedSince.length });
      }
      continue;
    }
    const stage = lifts.filter((l) => l.stage === c.current_stage);
    if (stage.every((l) => isFinalCampaignLiftState(l.state))) {
      const next = c.current_stage + 1;
      if (!lifts.some((l) => l.stage === next)) {
        if (await moveCampaign(sql, c.id, ['running'], { state: 'done', ended: true })) counts.done++;
        continue;
      }
      const pauseMs = c.plan.wavePauseMinutes * 60_000;
      if (!c.next_stage_at) {
        await setStage(sql, c.id, c.current_stage, new Date(Date.now() + pauseMs));
        if (pauseMs > 0) continue;
      } else if (Date.now() < new Date(c.next_stage_at).getTime()) continue;
      await setStage(sql, c.id, next, null);
      counts.stages++;
      counts.offered += await offerAll(app, c, lifts.filter((l) => l.stage === next && l.state === 'waiting'));
      continue;
    }
    counts.offered += await offerAll(app, c, stage.filter((l) => l.state === 'waiting'));
    const stale = Date.now() - app.config.firmwareReofferMs;
    counts.reoffered += await offerAll(app, c, stage.filter((l) => l.state === 'offered' && l.online && l.offered_at && new Date(l.offered_at).getTime() < stale));
  }
  return counts;
}

/** Offers the package to each lift for its organization's next window; returns how many were sent. */
async function offerAll(app: FastifyInstance, c: CampaignRow, lifts: Awaited<ReturnType<typeof liftStates>>): Promise<number> {
  let sent = 0;
  for (const l of lifts) {
    const window = c.plan.window ? nextCampaignWindow(new Date(), l.time_zone, c.plan.window) : undefined;
    try {
      const offer = await app.firmware.send({ packageId: c.package_id, liftId: l.lift_id, campaignId: c.id, ...(window ? { window } : {}) });
      await markOffered(app.database.sql, c.id, l.lift_id, offer.manifest.seq);
      sent++;
    } catch (err) {
      // Not for this lift any more (device number gone, another maker, package withdrawn): it is left out, not retried forever.
      if (err instanceof AppError) {
        app.log.warn({ campaignId: c.id, liftId: l.lift_id, code: err.code }, 'campaign lift cannot be offered the package');
        await markUnofferable(app.database.sql, c.id, l.lift_id);
      } else throw err;
    }
  }
  return sent;
}
