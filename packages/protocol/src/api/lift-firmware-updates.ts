import { z } from 'zod';
import { dateTimeSchema, listOf } from './envelope.ts';
import { CAMPAIGN_LIFT_STATES, CAMPAIGN_PAUSE_REASONS, CAMPAIGN_STATES, campaignWindowSchema, type CampaignLiftState, type CampaignState } from './firmware-campaigns.ts';

/**
 * What firmware campaigns will do, are doing and did to the lifts a user reaches
 * (docs/firmware.md, "What operators see"): the operator of a lift sees which version its
 * maker rolls out, whether the campaign still waits for approval, which stage the lift is
 * in, the installation window in the lift's local hours and when it next opens, and the
 * lift's own progress — without any right on the maker's packages or campaigns.
 *
 * Route: `GET /auth/access/lift/firmware-updates?liftId=` lift.query (each lift in the
 * grant's scope; `liftId` narrows to one) → liftFirmwareUpdateListSchema: every lift of an
 * open campaign (awaiting approval, running, paused), and the updates that ended in the last
 * LIFT_FIRMWARE_UPDATE_HISTORY_DAYS days; open ones first, the soonest first.
 */

/** How long an ended update stays in the list. */
export const LIFT_FIRMWARE_UPDATE_HISTORY_DAYS = 30;
/** The most rows the list returns. */
export const LIFT_FIRMWARE_UPDATE_LIST_MAX = 1000;

export const liftFirmwareUpdateQuerySchema = z.strictObject({
  liftId: z.uuid('validation.id').optional(),
});
export type LiftFirmwareUpdateQuery = z.infer<typeof liftFirmwareUpdateQuerySchema>;

export const liftFirmwareUpdateSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  alias: z.string().nullable(),
  operatorOrgName: z.string().nullable(),
  /** The lift's maker, whose campaign it is. */
  makerOrgName: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  campaignState: z.enum(CAMPAIGN_STATES),
  pauseReason: z.enum(CAMPAIGN_PAUSE_REASONS).nullable(),
  /** The version the campaign installs, and its release notes in each language. */
  version: z.string(),
  releaseNotes: z.strictObject({ 'zh-CN': z.string(), 'en-US': z.string(), 'ru-RU': z.string() }),
  /** The version the lift runs now (the new one once done). */
  runningVersion: z.string().nullable(),
  /** The lift's stage (0: the canary stage), the campaign's number of stages and the stage it is at. */
  stage: z.number().int(),
  stageCount: z.number().int(),
  currentStage: z.number().int(),
  /** When the lift was offered the package; when its stage starts, if the campaign knows (the pause after the stage before). */
  offeredAt: dateTimeSchema.nullable(),
  stageStartsAt: dateTimeSchema.nullable(),
  state: z.enum(CAMPAIGN_LIFT_STATES),
  percent: z.number().int().nullable(),
  /** Why it waits or failed (docs/protocol.md 11.8), and when a deferred lift tries again. */
  reason: z.string().nullable(),
  retryAt: dateTimeSchema.nullable(),
  /** The installation window in the lift's local hours (null: any time), that time zone, and the window's next opening while the update is open. */
  window: campaignWindowSchema.nullable(),
  timeZone: z.string(),
  nextWindow: z.strictObject({ start: dateTimeSchema, end: dateTimeSchema }).nullable(),
  updatedAt: dateTimeSchema,
});
export type LiftFirmwareUpdate = z.infer<typeof liftFirmwareUpdateSchema>;
export const liftFirmwareUpdateListSchema = listOf(liftFirmwareUpdateSchema);

/**
 * Where an update stands for the person whose lift it is, in one word:
 * - `awaitingApproval`: planned, a second engineer of the maker has not approved it yet;
 * - `paused`: the campaign is paused (its failures passed the threshold, or a person paused it);
 * - `scheduled`: approved, the lift's stage has not started;
 * - `inProgress`: offered to the lift, which is downloading, verifying, waiting for a safe moment or installing;
 * - `done`, `failed` (the lift went back to its working image), `cancelled`.
 */
export const LIFT_UPDATE_OUTLOOKS = ['awaitingApproval', 'paused', 'scheduled', 'inProgress', 'done', 'failed', 'cancelled'] as const;
export type LiftUpdateOutlook = (typeof LIFT_UPDATE_OUTLOOKS)[number];

export function liftUpdateOutlook(u: { campaignState: CampaignState; state: CampaignLiftState }): LiftUpdateOutlook {
  if (u.state === 'done') return 'done';
  if (u.state === 'failed' || u.state === 'rolledBack') return 'failed';
  if (u.state === 'cancelled' || (u.campaignState === 'cancelled' && u.state === 'waiting')) return 'cancelled';
  if (u.campaignState === 'awaitingApproval') return 'awaitingApproval';
  if (u.state === 'waiting') return u.campaignState === 'paused' ? 'paused' : u.campaignState === 'done' ? 'cancelled' : 'scheduled';
  return 'inProgress';
}

/** Whether the update may still change the lift (it has not ended). */
export const isOpenLiftUpdate = (u: { campaignState: CampaignState; state: CampaignLiftState }) =>
  !['done', 'failed', 'cancelled'].includes(liftUpdateOutlook(u));
