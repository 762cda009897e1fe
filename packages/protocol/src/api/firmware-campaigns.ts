import { z } from 'zod';
import { FIRMWARE_STATES } from '../device/firmware.ts';
import { DEVICE_KINDS, deviceKindSchema } from '../device/kinds.ts';
import { firmwareSchema } from '../mqtt/wire.ts';
import { FIRMWARE_PACKAGE_STATES } from './firmware.ts';
import { timeZoneOffsetMinutes } from '../time-zone.ts';
import { dateTimeSchema, listOf } from './envelope.ts';

/**
 * Firmware campaigns (docs/firmware.md): one package rolled out to a selection of a
 * manufacturer's lifts in stages — a canary stage first, then waves with a pause between
 * them — each lift offered the package inside its organization's installation window. A
 * campaign starts only when a second person approves it, and pauses itself when too many of
 * its updates fail.
 *
 * Routes (campaigns of the caller's organization; every organization's for `org.edit`):
 * - `GET  /auth/access/firmware/campaigns`                firmware.query → firmwareCampaignListSchema
 * - `GET  /auth/access/firmware/campaigns/get?id=`        firmware.query → firmwareCampaignSchema
 * - `GET  /auth/access/firmware/campaigns/lifts?id=`      firmware.query → firmwareCampaignLiftListSchema
 * - `POST /auth/access/firmware/campaigns/preview`        firmware.add   ← firmwareCampaignCreateSchema → firmwareCampaignPreviewSchema
 * - `POST /auth/access/firmware/campaigns/create`         firmware.add   ← firmwareCampaignCreateSchema → firmwareCampaignSchema (awaitingApproval)
 * - `POST /auth/access/firmware/campaigns/approve`        firmware.add   ← firmwareCampaignIdSchema (not by its author) → running
 * - `POST /auth/access/firmware/campaigns/pause`          firmware.add   ← firmwareCampaignIdSchema → paused
 * - `POST /auth/access/firmware/campaigns/resume`         firmware.add   ← firmwareCampaignIdSchema → running
 * - `POST /auth/access/firmware/campaigns/cancel`         firmware.add   ← firmwareCampaignIdSchema → cancelled
 */

export const CAMPAIGN_STATES = ['awaitingApproval', 'running', 'paused', 'done', 'cancelled'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];
/** The states of a campaign that has not ended: its lifts are taken, it may still offer. */
export const OPEN_CAMPAIGN_STATES: readonly CampaignState[] = ['awaitingApproval', 'running', 'paused'];
/** Why a campaign is paused: a person paused it, or its failures passed the threshold. */
export const CAMPAIGN_PAUSE_REASONS = ['manual', 'failureThreshold'] as const;
export type CampaignPauseReason = (typeof CAMPAIGN_PAUSE_REASONS)[number];

/**
 * A lift in a campaign: `waiting` for its stage, `offered` (sent, no report yet), then the
 * states the lift reports (docs/protocol.md 11.7); `cancelled` when the campaign was
 * cancelled before the lift was offered.
 */
export const CAMPAIGN_LIFT_STATES = ['waiting', 'offered', ...FIRMWARE_STATES, 'cancelled'] as const;
export type CampaignLiftState = (typeof CAMPAIGN_LIFT_STATES)[number];
/** A lift whose update ended: it counts towards its stage being complete. */
export const FINAL_CAMPAIGN_LIFT_STATES: readonly CampaignLiftState[] = ['done', 'failed', 'rolledBack', 'cancelled'];
/** An update that failed: it counts towards the failure threshold. */
export const FAILED_CAMPAIGN_LIFT_STATES: readonly CampaignLiftState[] = ['failed', 'rolledBack'];

export const CAMPAIGN_NAME_MAX = 100;
export const CAMPAIGN_CANARY_MAX = 50;
export const CAMPAIGN_WAVE_MAX = 5000;
/** The longest pause between stages: a week. */
export const CAMPAIGN_PAUSE_MAX_MINUTES = 7 * 24 * 60;
/** The most lifts one campaign may name by id. */
export const CAMPAIGN_LIFT_IDS_MAX = 5000;

/**
 * Which lifts: the package's organization's lifts of the package's kinds, narrowed by each
 * filter given (kinds among the package's, the version they run, their operator
 * organization, a list of lifts). A lift that runs the package's version already is left out.
 */
export const firmwareCampaignSelectionSchema = z.strictObject({
  kinds: z.array(deviceKindSchema).max(DEVICE_KINDS.length).optional(),
  fromVersions: z.array(firmwareSchema).max(20).optional(),
  operatorOrgIds: z.array(z.uuid('validation.id')).max(100).optional(),
  liftIds: z.array(z.uuid('validation.id')).max(CAMPAIGN_LIFT_IDS_MAX).optional(),
});
export type FirmwareCampaignSelection = z.infer<typeof firmwareCampaignSelectionSchema>;

/**
 * The installation window, in hours of each lift's local time (its operator organization's
 * time zone, else its maker's): from `startHour` to `endHour` (exclusive), across midnight
 * when `endHour` is smaller. Null: any time.
 */
export const campaignWindowSchema = z
  .strictObject({
    startHour: z.number().int().min(0).max(23),
    endHour: z.number().int().min(0).max(23),
  })
  .refine((w) => w.startHour !== w.endHour, { path: ['endHour'], message: 'validation.invalid' });
export type CampaignWindow = z.infer<typeof campaignWindowSchema>;

/**
 * How it rolls out: `canaryCount` lifts first; when each of them has ended, after
 * `wavePauseMinutes`, waves of `waveSize` lifts, each after the previous one ended and the
 * pause. Past `failureThresholdPercent` of failed updates among those ended (once at least
 * one has ended), the campaign pauses itself.
 */
export const campaignPlanSchema = z.strictObject({
  canaryCount: z.number().int().min(1).max(CAMPAIGN_CANARY_MAX),
  waveSize: z.number().int().min(1).max(CAMPAIGN_WAVE_MAX),
  wavePauseMinutes: z.number().int().min(0).max(CAMPAIGN_PAUSE_MAX_MINUTES),
  failureThresholdPercent: z.number().int().min(0).max(100),
  window: campaignWindowSchema.nullable(),
});
export type CampaignPlan = z.infer<typeof campaignPlanSchema>;

export const DEFAULT_CAMPAIGN_PLAN: CampaignPlan = {
  canaryCount: 1,
  waveSize: 50,
  wavePauseMinutes: 60,
  failureThresholdPercent: 10,
  window: { startHour: 2, endHour: 5 },
};

export const firmwareCampaignCreateSchema = z.strictObject({
  name: z.string().trim().min(1, 'validation.required').max(CAMPAIGN_NAME_MAX, 'validation.tooLong'),
  packageId: z.uuid('validation.id'),
  selection: firmwareCampaignSelectionSchema,
  plan: campaignPlanSchema,
});
export type FirmwareCampaignCreate = z.infer<typeof firmwareCampaignCreateSchema>;

export const firmwareCampaignIdSchema = z.strictObject({ id: z.uuid('validation.id') });

/** What a selection and plan come to before the campaign is created. */
export const firmwareCampaignPreviewSchema = z.strictObject({
  liftCount: z.number().int(),
  /** Lifts per stage: the canary stage first. */
  stageSizes: z.array(z.number().int()),
  /** The first lifts selected (device numbers), for the reader to recognise the selection. */
  sample: z.array(z.string()),
});
export type FirmwareCampaignPreview = z.infer<typeof firmwareCampaignPreviewSchema>;

const person = z.strictObject({ id: z.string().nullable(), name: z.string() });

export const campaignStageSchema = z.strictObject({
  stage: z.number().int(),
  size: z.number().int(),
  waiting: z.number().int(),
  inProgress: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  /** When its lifts were offered the package; null while it waits. */
  startedAt: dateTimeSchema.nullable(),
  /** When its last lift ended. */
  endedAt: dateTimeSchema.nullable(),
});
export type CampaignStage = z.infer<typeof campaignStageSchema>;

export const firmwareCampaignSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  orgId: z.string(),
  packageId: z.string(),
  packageVersion: z.string(),
  /** The package's state now: a withdrawn one ended the campaign (docs/firmware.md). */
  packageState: z.enum(FIRMWARE_PACKAGE_STATES),
  state: z.enum(CAMPAIGN_STATES),
  pauseReason: z.enum(CAMPAIGN_PAUSE_REASONS).nullable(),
  selection: firmwareCampaignSelectionSchema,
  plan: campaignPlanSchema,
  createdBy: person,
  createdAt: dateTimeSchema,
  approvedBy: person.nullable(),
  approvedAt: dateTimeSchema.nullable(),
  endedAt: dateTimeSchema.nullable(),
  /** The failed share of the updates that ended, in percent (0 before any ended). */
  failurePercent: z.number(),
  stages: z.array(campaignStageSchema),
});
export type FirmwareCampaign = z.infer<typeof firmwareCampaignSchema>;
export const firmwareCampaignListSchema = listOf(firmwareCampaignSchema);

export const firmwareCampaignLiftSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  alias: z.string().nullable(),
  operatorOrgName: z.string().nullable(),
  stage: z.number().int(),
  state: z.enum(CAMPAIGN_LIFT_STATES),
  percent: z.number().int().nullable(),
  reason: z.string().nullable(),
  retryAt: dateTimeSchema.nullable(),
  runningVersion: z.string().nullable(),
  updatedAt: dateTimeSchema,
});
export type FirmwareCampaignLift = z.infer<typeof firmwareCampaignLiftSchema>;
export const firmwareCampaignLiftListSchema = listOf(firmwareCampaignLiftSchema);

/** Lifts per stage: `canaryCount` first (fewer when fewer lifts), then waves of `waveSize`. */
export function campaignStageSizes(liftCount: number, plan: Pick<CampaignPlan, 'canaryCount' | 'waveSize'>): number[] {
  const sizes: number[] = [];
  let left = Math.max(0, liftCount);
  const canary = Math.min(left, plan.canaryCount);
  if (canary > 0) sizes.push(canary);
  left -= canary;
  while (left > 0) {
    const wave = Math.min(left, plan.waveSize);
    sizes.push(wave);
    left -= wave;
  }
  return sizes;
}

/** The stage of the lift at `index` (0-based, in the campaign's order). */
export function campaignStageOf(index: number, plan: Pick<CampaignPlan, 'canaryCount' | 'waveSize'>): number {
  if (index < plan.canaryCount) return 0;
  return 1 + Math.floor((index - plan.canaryCount) / plan.waveSize);
}

/** The failed share of ended updates, percent, one decimal; 0 when none ended. */
export function campaignFailurePercent(failed: number, ended: number): number {
  return ended > 0 ? Math.round((failed / ended) * 1000) / 10 : 0;
}

/** Whether the failures pass the threshold: more than `threshold` percent of those ended failed. */
export function campaignOverThreshold(failed: number, ended: number, thresholdPercent: number): boolean {
  return ended > 0 && failed * 100 > thresholdPercent * ended;
}

/**
 * The installation window a lift is offered at `now`: the one it is in, else the next one,
 * in `timeZone`'s local hours, as UTC instants (what the manifest carries). Daylight-saving
 * changes move it with the local clock.
 */
export function nextCampaignWindow(now: Date, timeZone: string, window: CampaignWindow): { start: string; end: string } {
  const lengthHours = (window.endHour - window.startHour + 24) % 24;
  const localNow = new Date(now.getTime() + timeZoneOffsetMinutes(timeZone, now) * 60_000);
  // Today's and yesterday's start (a window across midnight may have begun yesterday), then tomorrow's.
  for (const dayShift of [-1, 0, 1]) {
    const localStart = Date.UTC(localNow.getUTCFullYear(), localNow.getUTCMonth(), localNow.getUTCDate() + dayShift, window.startHour);
    const start = toUtc(localStart, timeZone);
    const end = toUtc(localStart + lengthHours * 3_600_000, timeZone);
    if (end > now.getTime()) return { start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  }
  throw new Error('unreachable: tomorrow’s window ends after now');
}

/** A local wall-clock instant (as if UTC) in `timeZone` to the real UTC instant. */
function toUtc(localMs: number, timeZone: string): number {
  const guess = localMs - timeZoneOffsetMinutes(timeZone, new Date(localMs)) * 60_000;
  return localMs - timeZoneOffsetMinutes(timeZone, new Date(guess)) * 60_000;
}

export const isFinalCampaignLiftState = (s: CampaignLiftState) => FINAL_CAMPAIGN_LIFT_STATES.includes(s);
