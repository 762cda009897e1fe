import {
  DEFAULT_CAMPAIGN_PLAN,
  type CampaignLiftState,
  type CampaignPlan,
  type CampaignStage,
  type CampaignState,
  type DeviceKind,
  type FirmwareCampaign,
  type FirmwareCampaignCreate,
  type FirmwareCampaignPreview,
} from '@liftlink/protocol';

/**
 * Firmware campaigns without the UI (docs/firmware.md, packages/protocol/src/api/
 * firmware-campaigns.ts): the progress of a campaign from its stages, how a stage is named,
 * which actions a user may take, when the screens poll, the form's values to the create
 * request, and the preview's summary.
 */

/** The campaign's lifts by how far they got, summed over its stages. */
export interface CampaignProgress {
  total: number;
  waiting: number;
  inProgress: number;
  done: number;
  failed: number;
  cancelled: number;
  /** Percent of all lifts that ended done. */
  donePercent: number;
  /** Percent of all lifts that ended done or failed (the bar's length). */
  endedPercent: number;
}

const percentOf = (part: number, total: number) =>
  total > 0 ? Math.round((part / total) * 1000) / 10 : 0;

export function campaignProgress(stages: readonly CampaignStage[]): CampaignProgress {
  const sum = (pick: (s: CampaignStage) => number) => stages.reduce((n, s) => n + pick(s), 0);
  const total = sum((s) => s.size);
  const done = sum((s) => s.done);
  const failed = sum((s) => s.failed);
  return {
    total,
    waiting: sum((s) => s.waiting),
    inProgress: sum((s) => s.inProgress),
    done,
    failed,
    cancelled: sum((s) => s.cancelled),
    donePercent: percentOf(done, total),
    endedPercent: percentOf(done + failed, total),
  };
}

/** Stage 0 is the canary stage; the others are waves numbered from 1. */
export type StageLabel = { kind: 'canary' } | { kind: 'wave'; number: number };

export function stageLabel(stage: number): StageLabel {
  return stage === 0 ? { kind: 'canary' } : { kind: 'wave', number: stage };
}

/** Why approve is refused: nobody approves their own campaign (the server says `campaign.ownApproval`). */
export type ApproveBlock = 'ownCampaign' | null;

export interface CampaignActions {
  approve: boolean;
  /** Approve would be allowed by the state, but this user is the campaign's author. */
  approveBlocked: ApproveBlock;
  pause: boolean;
  resume: boolean;
  cancel: boolean;
}

const NONE: CampaignActions = {
  approve: false,
  approveBlocked: null,
  pause: false,
  resume: false,
  cancel: false,
};

/**
 * What the user may do with a campaign in its state. Every change needs `firmware.add`;
 * approve is shown to the author too, disabled, so they see that someone else must approve.
 */
export function campaignActions(
  campaign: Pick<FirmwareCampaign, 'state' | 'createdBy'>,
  userId: string | null,
  mayChange: boolean,
): CampaignActions {
  if (!mayChange) return NONE;
  const own = userId !== null && campaign.createdBy.id === userId;
  switch (campaign.state) {
    case 'awaitingApproval':
      return { ...NONE, approve: !own, approveBlocked: own ? 'ownCampaign' : null, cancel: true };
    case 'running':
      return { ...NONE, pause: true, cancel: true };
    case 'paused':
      return { ...NONE, resume: true, cancel: true };
    default:
      return NONE;
  }
}

/** A campaign that may still change by itself (or by someone else): its screens poll. */
export function campaignIsLive(state: CampaignState | undefined): boolean {
  return state === 'running' || state === 'paused' || state === 'awaitingApproval';
}

/** A lift whose update is under way: between being offered and ending. */
export function liftInProgress(state: CampaignLiftState): boolean {
  return !['waiting', 'done', 'failed', 'rolledBack', 'cancelled'].includes(state);
}

/** What the "New campaign" dialog's form holds. */
export interface CampaignFormValues {
  name: string;
  packageId: string;
  kinds?: DeviceKind[];
  fromVersions?: string[];
  operatorOrgIds?: string[];
  canaryCount: number;
  waveSize: number;
  wavePauseMinutes: number;
  failureThresholdPercent: number;
  /** True: no installation window (any time). */
  anyTime: boolean;
  startHour?: number;
  endHour?: number;
}

export function defaultFormValues(
  plan: CampaignPlan = DEFAULT_CAMPAIGN_PLAN,
): Partial<CampaignFormValues> {
  return {
    canaryCount: plan.canaryCount,
    waveSize: plan.waveSize,
    wavePauseMinutes: plan.wavePauseMinutes,
    failureThresholdPercent: plan.failureThresholdPercent,
    anyTime: plan.window === null,
    startHour: plan.window?.startHour ?? 2,
    endHour: plan.window?.endHour ?? 5,
  };
}

/** The create (and preview) request: empty filters left out, so they do not narrow the selection. */
export function campaignRequest(values: CampaignFormValues): FirmwareCampaignCreate {
  const filled = <T>(list: T[] | undefined) => (list && list.length > 0 ? list : undefined);
  const kinds = filled(values.kinds);
  const fromVersions = filled(values.fromVersions?.map((v) => v.trim()).filter((v) => v !== ''));
  const operatorOrgIds = filled(values.operatorOrgIds);
  return {
    name: values.name.trim(),
    packageId: values.packageId,
    selection: {
      ...(kinds ? { kinds } : {}),
      ...(fromVersions ? { fromVersions } : {}),
      ...(operatorOrgIds ? { operatorOrgIds } : {}),
    },
    plan: {
      canaryCount: values.canaryCount,
      waveSize: values.waveSize,
      wavePauseMinutes: values.wavePauseMinutes,
      failureThresholdPercent: values.failureThresholdPercent,
      window: values.anyTime
        ? null
        : { startHour: values.startHour ?? 0, endHour: values.endHour ?? 0 },
    },
  };
}

/** Equal sizes in a row written once with their count: [50, 50, 50, 19] → "50 × 3, 19". */
export function waveSizesText(sizes: readonly number[]): string {
  const runs: { size: number; count: number }[] = [];
  for (const size of sizes) {
    const last = runs.at(-1);
    if (last?.size === size) last.count += 1;
    else runs.push({ size, count: 1 });
  }
  return runs.map((r) => (r.count > 1 ? `${r.size} × ${r.count}` : String(r.size))).join(', ');
}

/** What the preview sentence says: no lifts, the canary stage alone, or the canary then waves. */
export type PreviewSummary =
  | { kind: 'none' }
  | { kind: 'canaryOnly'; lifts: number }
  | { kind: 'waves'; lifts: number; stages: number; canary: number; waves: string };

export function previewSummary(preview: FirmwareCampaignPreview): PreviewSummary {
  const [canary, ...waves] = preview.stageSizes;
  if (preview.liftCount === 0 || canary === undefined) return { kind: 'none' };
  if (waves.length === 0) return { kind: 'canaryOnly', lifts: preview.liftCount };
  return {
    kind: 'waves',
    lifts: preview.liftCount,
    stages: preview.stageSizes.length,
    canary,
    waves: waveSizesText(waves),
  };
}

/** A percent in the user's number format: "12.5%", "12,5 %" in Russian. */
export function formatPercent(percent: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(
    percent / 100,
  );
}
