import { beforeAll, describe, expect, it } from 'vitest';
import { useEnglish } from '../../../test/render.tsx';
import { logbookSummary } from './logbook-summary.ts';

const command = (extra: Record<string, unknown>) => ({
  kind: 'command' as const,
  data: {
    commandId: 'c1',
    type: 'cmd',
    name: 'summon',
    args: { floor: 1 },
    state: 'done',
    reason: null,
    leaseEpoch: 1,
    approval: null,
    ...extra,
  },
});

describe('logbook summary line', () => {
  beforeAll(useEnglish);

  it('tells what a maintenance visit found, used and closed', () => {
    const visit = {
      kind: 'visit' as const,
      data: {
        visitId: 12,
        startedAt: '2026-11-25T08:00:00.000Z',
        endedAt: '2026-11-25T09:00:00.000Z',
        checked: 14,
        failed: 1,
        failedItems: ['brake'],
        findings: 'Brake pad worn',
        partsUsed: ['Brake pad', 'Fuse 5 A'],
        incidentIds: [3, 7],
      },
    };
    expect(logbookSummary(visit, 'en-US')).toBe(
      'Maintenance visit #12: 14 items checked, 1 failed; findings: Brake pad worn; parts used: Brake pad, Fuse 5 A; closed incidents #3, #7',
    );
  });

  it('tells which firmware a campaign installed, or why it did not and what the lift runs', () => {
    const firmware = (extra: Record<string, unknown>) => ({
      kind: 'firmware' as const,
      data: {
        offerSeq: 3,
        version: 'FW-2.1.0',
        state: 'done',
        reason: null,
        runningVersion: 'FW-2.1.0',
        campaignId: 'c1',
        campaignName: 'Gentler stop',
        approvedBy: 'boris',
        ...extra,
      },
    });
    expect(logbookSummary(firmware({}), 'en-US')).toBe(
      'Firmware FW-2.1.0 installed, runs FW-2.1.0; campaign “Gentler stop”, approved by boris',
    );
    expect(
      logbookSummary(
        firmware({ state: 'failed', reason: 'hashMismatch', runningVersion: 'FW-2.0.0', campaignId: null, campaignName: null, approvedBy: null }),
        'en-US',
      ),
    ).toBe('Firmware FW-2.1.0 not installed: The image is corrupted (SHA-256 mismatch); runs FW-2.0.0');
  });

  it('names why a command was refused, and who approved one', () => {
    expect(logbookSummary(command({ state: 'rejected', reason: 'busy' }), 'en-US')).toBe(
      'Summon to floor 1: Refused (The lift is busy with another operation)',
    );
    expect(
      logbookSummary(
        command({
          name: 'aging',
          args: { target: 'overall' },
          approval: { id: 'a', requester: 'bob', approver: 'eve' },
        }),
        'en-US',
      ),
    ).toBe('Overall aging: Done · approved by eve');
    expect(
      logbookSummary(command({ type: 'config/set', name: 'config/set', args: {} }), 'en-US'),
    ).toBe('Send configuration: Done');
  });

  it('reads an incident opening and the lease ended on site', () => {
    expect(
      logbookSummary(
        {
          kind: 'incident',
          data: { incidentId: 3, cause: 'help', code: null, from: null, to: 'open' },
        },
        'en-US',
      ),
    ).toBe('Incident #3 opened (open)');
    expect(
      logbookSummary(
        {
          kind: 'lease',
          data: {
            action: 'endedByLocalUse',
            epoch: 4,
            previousHolderId: 'u',
            previousHolderName: 'Olga',
          },
        },
        'en-US',
      ),
    ).toBe('Remote control of Olga ended by use on site');
  });

  it('names a photo added to an incident by its fingerprint', () => {
    expect(
      logbookSummary(
        {
          kind: 'incident',
          data: {
            incidentId: 5,
            photo: { id: 'p1', contentType: 'image/jpeg', size: 1200, sha256: 'ab'.repeat(32) },
          },
        },
        'en-US',
      ),
    ).toBe('Incident #5: photo added (SHA-256 abababababab…)');
  });

  it('shows data of another shape as its plain fields rather than nothing', () => {
    expect(logbookSummary({ kind: 'visit', data: { technician: 'Ivan', hours: 2 } }, 'en-US')).toBe(
      'technician: Ivan, hours: 2',
    );
    expect(logbookSummary({ kind: 'config', data: { odd: true } }, 'en-US')).toBe('odd: true');
  });
});
