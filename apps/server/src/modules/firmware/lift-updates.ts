import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FINAL_FIRMWARE_STATES,
  isOpenLiftUpdate,
  LIFT_FIRMWARE_UPDATE_HISTORY_DAYS,
  LIFT_FIRMWARE_UPDATE_LIST_MAX,
  liftFirmwareUpdateListSchema,
  liftFirmwareUpdateQuerySchema,
  nextCampaignWindow,
  OPEN_CAMPAIGN_STATES,
  responsesOf,
  type CampaignLiftState,
  type CampaignPauseReason,
  type CampaignPlan,
  type CampaignState,
  type LiftFirmwareUpdate,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { ok } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { ownedLift } from '../lifts/scope.ts';
import { iso, LIFT_JOIN, LIFT_STATE } from './campaign-repository.ts';

/**
 * The firmware updates of the lifts a user reaches (docs/firmware.md, "What operators see";
 * contract in packages/protocol/src/api/lift-firmware-updates.ts). It asks for `lift.query`,
 * not a firmware permission: the operator of a lift learns what its maker's campaigns will
 * do to it and when, and nothing of the maker's other lifts.
 */

interface Row {
  lift_id: string;
  device_no: string;
  alias: string | null;
  operator_org_name: string | null;
  maker_org_name: string;
  campaign_id: string;
  campaign_name: string;
  campaign_state: CampaignState;
  pause_reason: CampaignPauseReason | null;
  plan: CampaignPlan | string;
  current_stage: number;
  next_stage_at: Date | null;
  stage_count: number;
  version: string;
  notes_zh: string;
  notes_en: string;
  notes_ru: string;
  running_version: string | null;
  stage: number;
  offered_at: Date | null;
  state: CampaignLiftState;
  percent: number | null;
  reason: string | null;
  retry_at: Date | null;
  time_zone: string;
  updated_at: Date;
}

async function liftUpdateRows(sql: SqlExecutor, auth: AuthContext, liftId: string | null): Promise<Row[]> {
  const scope = liftFilter(auth, 5, 'lift.query');
  return sql.query<Row>(
    `select cl.lift_id, l.device_no, nullif(l.alias, '') as alias, op.name as operator_org_name, mk.name as maker_org_name,
            c.id as campaign_id, c.name as campaign_name, c.state as campaign_state, c.pause_reason, c.plan, c.current_stage, c.next_stage_at,
            (select max(x.stage) + 1 from firmware_campaign_lifts x where x.campaign_id = c.id) as stage_count,
            p.version, p.notes_zh, p.notes_en, p.notes_ru,
            coalesce(u.running_version, l.firmware) as running_version,
            cl.stage, cl.offered_at, ${LIFT_STATE} as state, u.percent, u.reason, u.retry_at,
            coalesce(op.time_zone, mk.time_zone, 'UTC') as time_zone,
            coalesce(u.updated_at, cl.cancelled_at, cl.offered_at, c.approved_at, c.created_at) as updated_at
       from ${LIFT_JOIN}
       join firmware_campaigns c on c.id = cl.campaign_id
       join firmware_packages p on p.id = c.package_id
       join lifts l on l.id = cl.lift_id
       join organizations mk on mk.id = l.manufacturer_org_id
       left join organizations op on op.id = l.operator_org_id
      where ${scope.where} and l.device_no is not null
        and ($1::uuid is null or l.id = $1)
        and (c.state = any($3::text[])
             or (cl.offered_at is not null and (u.state is null or u.state <> all($4::text[])))
             or coalesce(u.updated_at, cl.cancelled_at, c.ended_at, c.created_at) > now() - make_interval(days => $2))
      order by updated_at desc
      limit ${LIFT_FIRMWARE_UPDATE_LIST_MAX}`,
    [liftId, LIFT_FIRMWARE_UPDATE_HISTORY_DAYS, OPEN_CAMPAIGN_STATES, FINAL_FIRMWARE_STATES, ...(scope.param ? [scope.param] : [])],
  );
}

function toView(r: Row, now: Date): LiftFirmwareUpdate {
  const plan = typeof r.plan === 'string' ? (JSON.parse(r.plan) as CampaignPlan) : r.plan;
  const base = { campaignState: r.campaign_state, state: r.state };
  // The pause after the stage before is known once that stage ended: the next stage's start.
  const stageStartsAt = r.offered_at ?? (r.campaign_state === 'running' && r.stage === r.current_stage + 1 ? r.next_stage_at : null);
  return {
    liftId: r.lift_id,
    deviceNo: r.device_no,
    alias: r.alias,
    operatorOrgName: r.operator_org_name,
    makerOrgName: r.maker_org_name,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    campaignState: r.campaign_state,
    pauseReason: r.pause_reason,
    version: r.version,
    releaseNotes: { 'zh-CN': r.notes_zh, 'en-US': r.notes_en, 'ru-RU': r.notes_ru },
    runningVersion: r.running_version,
    stage: r.stage,
    stageCount: Number(r.stage_count),
    currentStage: r.current_stage,
    offeredAt: iso(r.offered_at),
    stageStartsAt: iso(stageStartsAt),
    state: r.state,
    percent: r.percent === null ? null : Number(r.percent),
    reason: r.reason,
    retryAt: iso(r.retry_at),
    window: plan.window,
    timeZone: r.time_zone,
    nextWindow: plan.window && isOpenLiftUpdate(base) ? nextCampaignWindow(now, r.time_zone, plan.window) : null,
    updatedAt: iso(r.updated_at)!,
  };
}

/** Open updates first, the furthest along first (offered, then by stage); then those that ended, newest first. */
function byOutlook(a: LiftFirmwareUpdate, b: LiftFirmwareUpdate): number {
  const openA = isOpenLiftUpdate(a);
  const openB = isOpenLiftUpdate(b);
  if (openA !== openB) return openA ? -1 : 1;
  if (!openA) return b.updatedAt.localeCompare(a.updatedAt);
  if (!!a.offeredAt !== !!b.offeredAt) return a.offeredAt ? -1 : 1;
  return a.stage - b.stage || a.deviceNo.localeCompare(b.deviceNo);
}

export async function liftFirmwareUpdates(sql: SqlExecutor, auth: AuthContext, liftId: string | undefined): Promise<LiftFirmwareUpdate[]> {
  // One lift out of the caller's reach is "not found", as on the lift's other pages.
  if (liftId) await ownedLift(sql, auth, liftId);
  const now = new Date();
  return (await liftUpdateRows(sql, auth, liftId ?? null)).map((r) => toView(r, now)).sort(byOutlook);
}

export const liftUpdateRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/auth/access/lift/firmware-updates',
    { config: { access: 'lift.query' }, schema: { tags: ['firmware'], querystring: liftFirmwareUpdateQuerySchema, response: responsesOf(liftFirmwareUpdateListSchema) } },
    async (request) => ok({ list: await liftFirmwareUpdates(app.database.sql, request.auth!, request.query.liftId) }),
  );
};
