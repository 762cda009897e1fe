/**
 * Firmware packages and campaigns (their stages and lifts) as the server sends them, for the
 * firmware tests; each test changes what it needs. Ids and names are numbered in each test file.
 */
import {
  DEFAULT_CAMPAIGN_PLAN,
  type CampaignStage,
  type FirmwareCampaign,
  type FirmwareCampaignLift,
  type FirmwarePackage,
} from '@liftlink/protocol';

/** The package a campaign rolls out unless it says otherwise. */
export const PACKAGE_ID = '3c3c3c3c-0000-4000-8000-000000000001';
export const SHA = '0123456789abcdef'.repeat(4);
const COLLEAGUE = '55555555-5555-4555-8555-555555555555';

let seq = 0;
const numbered = (prefix: string) => `${prefix}-${String(++seq).padStart(12, '0')}`;

/** A ready package 1.2.0 for two lift kinds, with release notes, by anna. */
export const packageOf = (extra: Partial<FirmwarePackage> = {}): FirmwarePackage => ({
  id: numbered('3c3c3c3c-0000-4000-8000'),
  orgId: 'org-1',
  orgName: 'Maker',
  kinds: ['inclinedStraightRack', 'verticalHydraulic'],
  version: '1.2.0',
  minVersion: '1.0.0',
  releaseNotes: { 'zh-CN': '修复', 'en-US': 'Fixes the door sensor', 'ru-RU': '' },
  size: 1_572_864,
  sha256: SHA,
  state: 'ready',
  createdByName: 'anna',
  createdAt: '2026-11-20T10:00:00.000Z',
  withdrawnByName: null,
  withdrawnAt: null,
  ...extra,
});

/** Stage `n` of a campaign (0 the canary), empty until `extra` fills it. */
export const stageOf = (n: number, extra: Partial<CampaignStage> = {}): CampaignStage => ({
  stage: n,
  size: 0,
  waiting: 0,
  inProgress: 0,
  done: 0,
  failed: 0,
  cancelled: 0,
  startedAt: null,
  endedAt: null,
  ...extra,
});

/** A running campaign of PACKAGE_ID by boris, not yet approved, its canary done. */
export const campaignOf = (extra: Partial<FirmwareCampaign> = {}): FirmwareCampaign => ({
  id: numbered('6f1c2a4e-0000-4000-8000'),
  name: `Campaign ${seq}`,
  orgId: 'org-1',
  packageId: PACKAGE_ID,
  packageVersion: '2.0.0',
  packageState: 'ready',
  state: 'running',
  pauseReason: null,
  selection: {},
  plan: DEFAULT_CAMPAIGN_PLAN,
  createdBy: { id: COLLEAGUE, name: 'boris' },
  createdAt: '2026-11-21T08:00:00.000Z',
  approvedBy: null,
  approvedAt: null,
  endedAt: null,
  failurePercent: 0,
  stages: [stageOf(0, { size: 1, done: 1 }), stageOf(1, { size: 3, waiting: 3 })],
  ...extra,
});

/** A lift of a campaign's canary, waiting for its offer. */
export const campaignLiftOf = (
  extra: Partial<FirmwareCampaignLift> = {},
): FirmwareCampaignLift => ({
  liftId: `lift-${++seq}`,
  deviceNo: `SL${seq}`,
  alias: null,
  operatorOrgName: 'Metro Lifts',
  stage: 0,
  state: 'waiting',
  percent: null,
  reason: null,
  retryAt: null,
  runningVersion: '1.0.0',
  updatedAt: '2026-11-21T09:00:00.000Z',
  ...extra,
});
