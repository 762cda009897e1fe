/**
 * Firmware updates as the server sends them (GET /auth/access/lift/firmware-updates), for the
 * tests of the firmware updates page and the lift card; each test changes what it needs.
 */
import type { LiftFirmwareUpdate } from '@liftlink/protocol';

export const LIFT_ID = '6f1c2a3b-0000-4000-8000-000000000001';
/** The time the tests run at: before the next window (it opens 2026-11-29 23:00 UTC). */
export const TEST_NOW = '2026-11-28T09:00:00.000Z';

let seq = 0;

/** DEMO-0001 in the second of three stages of a running campaign, waiting for its stage. */
export const updateOf = (extra: Partial<LiftFirmwareUpdate> = {}): LiftFirmwareUpdate => ({
  liftId: LIFT_ID,
  deviceNo: 'DEMO-0001',
  alias: 'Station hall',
  operatorOrgName: 'City Transit',
  makerOrgName: 'Stairway Works',
  campaignId: `6f1c2a4e-0000-4000-8000-${String(++seq).padStart(12, '0')}`,
  campaignName: 'Gentler stop',
  campaignState: 'running',
  pauseReason: null,
  version: 'SIM-1.2.0',
  releaseNotes: { 'zh-CN': '停靠更平稳', 'en-US': 'Gentler stop at the landings', 'ru-RU': '' },
  runningVersion: 'SIM-1.0.0',
  stage: 1,
  stageCount: 3,
  currentStage: 0,
  offeredAt: null,
  stageStartsAt: null,
  state: 'waiting',
  percent: null,
  reason: null,
  retryAt: null,
  window: { startHour: 2, endHour: 5 },
  timeZone: 'Europe/Moscow',
  nextWindow: { start: '2026-11-29T23:00:00.000Z', end: '2026-11-30T02:00:00.000Z' },
  updatedAt: '2026-11-28T08:00:00.000Z',
  ...extra,
});

/** An update that ended (`done`, `failed` …) at `updatedAt`: no window any more. */
export const endedOf = (extra: Partial<LiftFirmwareUpdate> = {}): LiftFirmwareUpdate =>
  updateOf({
    campaignState: 'done',
    offeredAt: '2026-11-27T10:00:00.000Z',
    state: 'done',
    runningVersion: 'SIM-1.2.0',
    nextWindow: null,
    updatedAt: '2026-11-27T10:30:00.000Z',
    ...extra,
  });
