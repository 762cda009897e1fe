import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CAMPAIGN_PLAN,
  firmwareCampaignCreateSchema,
  type FirmwareCampaign,
} from '@liftlink/protocol';
import {
  campaignActions,
  campaignIsLive,
  campaignProgress,
  campaignRequest,
  defaultFormValues,
  formatPercent,
  liftInProgress,
  previewSummary,
  stageLabel,
  waveSizesText,
  type CampaignFormValues,
} from './campaign-model.ts';
import { campaignOf, PACKAGE_ID, stageOf } from './firmware-fixtures.ts';

const AUTHOR = '11111111-1111-4111-8111-111111111111';
const OTHER = '99999999-9999-4999-8999-999999999999';

const campaign = (state: FirmwareCampaign['state']) =>
  campaignOf({ state, createdBy: { id: AUTHOR, name: 'anna' } });

describe('firmware campaign model', () => {
  it('sums the progress over the stages', () => {
    const p = campaignProgress([
      stageOf(0, { size: 2, done: 1, failed: 1 }),
      stageOf(1, { size: 5, done: 2, inProgress: 1, waiting: 1, cancelled: 1 }),
      stageOf(2, { size: 3, waiting: 3 }),
    ]);
    expect(p).toEqual({
      total: 10,
      waiting: 4,
      inProgress: 1,
      done: 3,
      failed: 1,
      cancelled: 1,
      donePercent: 30,
      endedPercent: 40,
    });
    expect(campaignProgress([])).toMatchObject({ total: 0, donePercent: 0, endedPercent: 0 });
  });

  it('names stage 0 the canary and the others waves from 1', () => {
    expect(stageLabel(0)).toEqual({ kind: 'canary' });
    expect(stageLabel(1)).toEqual({ kind: 'wave', number: 1 });
    expect(stageLabel(7)).toEqual({ kind: 'wave', number: 7 });
  });

  it('allows the actions of each state; approve never to the author', () => {
    expect(campaignActions(campaign('awaitingApproval'), OTHER, true)).toEqual({
      approve: true,
      approveBlocked: null,
      pause: false,
      resume: false,
      cancel: true,
    });
    expect(campaignActions(campaign('awaitingApproval'), AUTHOR, true)).toEqual({
      approve: false,
      approveBlocked: 'ownCampaign',
      pause: false,
      resume: false,
      cancel: true,
    });
    expect(campaignActions(campaign('running'), AUTHOR, true)).toMatchObject({
      approve: false,
      pause: true,
      resume: false,
      cancel: true,
    });
    expect(campaignActions(campaign('paused'), AUTHOR, true)).toMatchObject({
      pause: false,
      resume: true,
      cancel: true,
    });
    for (const state of ['done', 'cancelled'] as const)
      expect(campaignActions(campaign(state), OTHER, true)).toEqual({
        approve: false,
        approveBlocked: null,
        pause: false,
        resume: false,
        cancel: false,
      });
    // Without `firmware.add` nothing, not even the disabled approve.
    expect(campaignActions(campaign('awaitingApproval'), AUTHOR, false)).toMatchObject({
      approve: false,
      approveBlocked: null,
      cancel: false,
    });
    // An author who is gone (null id) is nobody's own campaign.
    expect(
      campaignActions({ state: 'awaitingApproval', createdBy: { id: null, name: 'x' } }, null, true)
        .approve,
    ).toBe(true);
  });

  it('polls campaigns that may still change, and knows updates under way', () => {
    expect(
      ['awaitingApproval', 'running', 'paused'].map((s) => campaignIsLive(s as never)),
    ).toEqual([true, true, true]);
    expect(campaignIsLive('done')).toBe(false);
    expect(campaignIsLive('cancelled')).toBe(false);
    expect(campaignIsLive(undefined)).toBe(false);
    expect(liftInProgress('downloading')).toBe(true);
    expect(liftInProgress('offered')).toBe(true);
    expect(liftInProgress('waiting')).toBe(false);
    expect(liftInProgress('rolledBack')).toBe(false);
  });

  it('builds the request the server accepts: defaults, empty filters left out, the window or none', () => {
    const values = {
      ...defaultFormValues(),
      name: '  Spring update ',
      packageId: PACKAGE_ID,
      kinds: [],
      fromVersions: [' 1.0.0 ', ''],
    } as CampaignFormValues;
    const request = campaignRequest(values);
    expect(request).toEqual({
      name: 'Spring update',
      packageId: PACKAGE_ID,
      selection: { fromVersions: ['1.0.0'] },
      plan: DEFAULT_CAMPAIGN_PLAN,
    });
    expect(firmwareCampaignCreateSchema.safeParse(request).success).toBe(true);
    const anyTime = campaignRequest({ ...values, anyTime: true, kinds: ['verticalHydraulic'] });
    expect(anyTime.plan.window).toBeNull();
    expect(anyTime.selection.kinds).toEqual(['verticalHydraulic']);
    expect(firmwareCampaignCreateSchema.safeParse(anyTime).success).toBe(true);
  });

  it('sums up a preview: none, the canary alone, or the canary then waves', () => {
    expect(previewSummary({ liftCount: 0, stageSizes: [], sample: [] })).toEqual({ kind: 'none' });
    expect(previewSummary({ liftCount: 1, stageSizes: [1], sample: ['A1'] })).toEqual({
      kind: 'canaryOnly',
      lifts: 1,
    });
    expect(previewSummary({ liftCount: 120, stageSizes: [1, 50, 50, 19], sample: ['A1'] })).toEqual(
      { kind: 'waves', lifts: 120, stages: 4, canary: 1, waves: '50 × 2, 19' },
    );
    expect(waveSizesText([5])).toBe('5');
    expect(waveSizesText([3, 3, 3])).toBe('3 × 3');
  });

  it('formats percents in the user’s language', () => {
    expect(formatPercent(12.5, 'en-US')).toBe('12.5%');
    expect(formatPercent(12.5, 'ru-RU')).toBe('12,5\u00a0%');
    expect(formatPercent(0, 'zh-CN')).toBe('0%');
  });
});
