import { describe, expect, it } from 'vitest';
import { isOpenLiftUpdate, liftUpdateOutlook } from './lift-firmware-updates.ts';

describe('where a lift’s firmware update stands for its operator', () => {
  it('is planned until a second engineer approves the campaign', () => {
    expect(liftUpdateOutlook({ campaignState: 'awaitingApproval', state: 'waiting' })).toBe('awaitingApproval');
  });

  it('is scheduled while its stage waits, paused with its campaign, and in progress once offered', () => {
    expect(liftUpdateOutlook({ campaignState: 'running', state: 'waiting' })).toBe('scheduled');
    expect(liftUpdateOutlook({ campaignState: 'paused', state: 'waiting' })).toBe('paused');
    for (const state of ['offered', 'queued', 'downloading', 'verifying', 'deferred', 'installing', 'rebooting'] as const)
      expect(liftUpdateOutlook({ campaignState: 'running', state })).toBe('inProgress');
    // A cancelled or paused campaign lets an offered lift finish what it started.
    expect(liftUpdateOutlook({ campaignState: 'cancelled', state: 'downloading' })).toBe('inProgress');
    expect(liftUpdateOutlook({ campaignState: 'paused', state: 'deferred' })).toBe('inProgress');
  });

  it('ends done, failed (rolled back too) or cancelled, and only then is no longer open', () => {
    expect(liftUpdateOutlook({ campaignState: 'running', state: 'done' })).toBe('done');
    expect(liftUpdateOutlook({ campaignState: 'done', state: 'failed' })).toBe('failed');
    expect(liftUpdateOutlook({ campaignState: 'running', state: 'rolledBack' })).toBe('failed');
    expect(liftUpdateOutlook({ campaignState: 'cancelled', state: 'cancelled' })).toBe('cancelled');
    expect(liftUpdateOutlook({ campaignState: 'cancelled', state: 'waiting' })).toBe('cancelled');
    expect(isOpenLiftUpdate({ campaignState: 'running', state: 'deferred' })).toBe(true);
    expect(isOpenLiftUpdate({ campaignState: 'awaitingApproval', state: 'waiting' })).toBe(true);
    expect(isOpenLiftUpdate({ campaignState: 'done', state: 'done' })).toBe(false);
    expect(isOpenLiftUpdate({ campaignState: 'cancelled', state: 'waiting' })).toBe(false);
  });
});
