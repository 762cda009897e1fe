import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CAMPAIGN_PLAN,
  campaignFailurePercent,
  campaignOverThreshold,
  campaignStageOf,
  campaignStageSizes,
  firmwareCampaignCreateSchema,
  nextCampaignWindow,
} from './firmware-campaigns.ts';
import { isTimeZone, timeZoneOffsetMinutes } from '../time-zone.ts';

describe('firmware campaign plans', () => {
  it('puts the canary stage first, then waves of the wave size, the last one shorter', () => {
    const plan = { canaryCount: 2, waveSize: 3 };
    expect(campaignStageSizes(10, plan)).toEqual([2, 3, 3, 2]);
    expect(campaignStageSizes(1, plan)).toEqual([1]);
    expect(campaignStageSizes(0, plan)).toEqual([]);
    expect(Array.from({ length: 10 }, (_, i) => campaignStageOf(i, plan))).toEqual([0, 0, 1, 1, 1, 2, 2, 2, 3, 3]);
  });

  it('pauses past the threshold of failed among ended updates, never before one ended', () => {
    expect(campaignOverThreshold(0, 0, 0)).toBe(false);
    expect(campaignOverThreshold(1, 10, 10)).toBe(false);
    expect(campaignOverThreshold(2, 10, 10)).toBe(true);
    expect(campaignOverThreshold(1, 1, 0)).toBe(true);
    expect(campaignOverThreshold(1, 1, 100)).toBe(false);
    expect(campaignFailurePercent(1, 3)).toBe(33.3);
    expect(campaignFailurePercent(0, 0)).toBe(0);
  });

  it('validates a new campaign with translated keys', () => {
    const ok = { name: 'Spring', packageId: '6f1c2a4e-1b2c-4d5e-8f90-123456789abc', selection: {}, plan: DEFAULT_CAMPAIGN_PLAN };
    expect(firmwareCampaignCreateSchema.safeParse(ok).success).toBe(true);
    const bad = firmwareCampaignCreateSchema.safeParse({
      ...ok,
      name: ' ',
      plan: { ...DEFAULT_CAMPAIGN_PLAN, canaryCount: 0, window: { startHour: 3, endHour: 3 } },
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual(
      expect.arrayContaining([
        ['name', 'validation.required'],
        ['plan.window.endHour', 'validation.invalid'],
      ]),
    );
    expect(bad.error!.issues.some((i) => i.path.join('.') === 'plan.canaryCount')).toBe(true);
  });
});

describe('installation windows in local time', () => {
  it('knows time zones and their offsets, daylight saving included', () => {
    expect(isTimeZone('Europe/Moscow')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(timeZoneOffsetMinutes('Asia/Shanghai', new Date('2026-06-01T00:00:00Z'))).toBe(480);
    expect(timeZoneOffsetMinutes('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe(60);
    expect(timeZoneOffsetMinutes('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe(120);
    expect(timeZoneOffsetMinutes('UTC', new Date())).toBe(0);
  });

  it('offers the next window of the local night, or the one the lift is in', () => {
    const w = { startHour: 2, endHour: 5 };
    // 20:00 UTC = 04:00 next day in Shanghai: inside that night's window.
    expect(nextCampaignWindow(new Date('2026-11-27T20:00:00Z'), 'Asia/Shanghai', w)).toEqual({
      start: '2026-11-27T18:00:00.000Z',
      end: '2026-11-27T21:00:00.000Z',
    });
    // 22:00 UTC = 06:00 in Shanghai: the window has passed, the next night's.
    expect(nextCampaignWindow(new Date('2026-11-27T22:00:00Z'), 'Asia/Shanghai', w)).toEqual({
      start: '2026-11-28T18:00:00.000Z',
      end: '2026-11-28T21:00:00.000Z',
    });
    // Moscow, UTC+3: 02:00-05:00 local is 23:00-02:00 UTC.
    expect(nextCampaignWindow(new Date('2026-11-27T12:00:00Z'), 'Europe/Moscow', w)).toEqual({
      start: '2026-11-27T23:00:00.000Z',
      end: '2026-11-28T02:00:00.000Z',
    });
  });

  it('spans midnight when the end hour is smaller, and follows a change of daylight saving', () => {
    expect(nextCampaignWindow(new Date('2026-11-27T12:00:00Z'), 'UTC', { startHour: 22, endHour: 4 })).toEqual({
      start: '2026-11-27T22:00:00.000Z',
      end: '2026-11-28T04:00:00.000Z',
    });
    // Inside a window begun the day before.
    expect(nextCampaignWindow(new Date('2026-11-28T01:00:00Z'), 'UTC', { startHour: 22, endHour: 4 })).toEqual({
      start: '2026-11-27T22:00:00.000Z',
      end: '2026-11-28T04:00:00.000Z',
    });
    // Berlin, the night after clocks go forward (29 March 2026): 02:00-05:00 summer time.
    expect(nextCampaignWindow(new Date('2026-03-29T12:00:00Z'), 'Europe/Berlin', { startHour: 2, endHour: 5 })).toEqual({
      start: '2026-03-30T00:00:00.000Z',
      end: '2026-03-30T03:00:00.000Z',
    });
  });
});
