import { beforeAll, describe, expect, it } from 'vitest';
import type { GroupConfigPreviewLift, GroupConfigSend } from '@liftlink/protocol';
import { useEnglish } from '../../../test/render.tsx';
import { withTexts } from '../../../lib/i18n/language.ts';
import {
  applyLive,
  changesOf,
  invalidDeviceNos,
  parseDeviceNos,
  reasonText,
  reviewCounts,
  reviewOutcome,
  selectionOf,
  sendFinished,
} from './group-config.ts';

const A = '6f1c2a3b-0000-4000-8000-000000000001';
const B = '6f1c2a3b-0000-4000-8000-000000000002';

function lift(extra: Partial<GroupConfigPreviewLift>): GroupConfigPreviewLift {
  return {
    liftId: A,
    deviceNo: 'LL-0001',
    alias: null,
    kind: 'inclinedStraightRack',
    firmware: '1.4.2',
    site: 'North',
    online: true,
    version: 3,
    current: { voiceLanguage: 'zh' },
    next: { voiceLanguage: 'en' },
    changed: ['voiceLanguage'],
    issues: [],
    forbidden: [],
    ...extra,
  };
}

const SEND: GroupConfigSend = {
  id: '7a1c2a3b-0000-4000-8000-000000000009',
  createdAt: '2026-11-25T05:00:00.000Z',
  username: 'olga',
  changes: { voiceLanguage: 'en' },
  counts: { pending: 0, sent: 2, done: 0, refused: 0, offline: 0, skipped: 0 },
  selection: { sites: ['North'] },
  lifts: [
    {
      liftId: A,
      deviceNo: 'LL-0001',
      alias: null,
      version: 3,
      commandId: null,
      state: 'sent',
      reason: null,
      answeredAt: null,
    },
    {
      liftId: B,
      deviceNo: 'LL-0002',
      alias: null,
      version: 1,
      commandId: null,
      state: 'sent',
      reason: null,
      answeredAt: null,
    },
  ],
};

describe('group configuration model', () => {
  beforeAll(async () => {
    await useEnglish();
    await withTexts(['groupConfig'], async () => undefined)();
  });

  it('reads pasted device numbers by line, comma or space, upper case, each once', () => {
    expect(parseDeviceNos('ll-0001\nLL-0002, LL-0001;  LL-0003 ')).toEqual([
      'LL-0001',
      'LL-0002',
      'LL-0003',
    ]);
    expect(invalidDeviceNos('LL-0001, x!, LL-0002')).toEqual(['X!']);
    expect(parseDeviceNos(undefined)).toEqual([]);
  });

  it('leaves empty criteria and empty fields out', () => {
    expect(selectionOf({ kinds: [], sites: ['North'], deviceNos: ' \n' })).toEqual({
      sites: ['North'],
    });
    expect(
      changesOf(['rapidSpeed', 'voiceLanguage', 'smartParking'], {
        rapidSpeed: null,
        voiceLanguage: 'en',
        smartParking: false,
      }),
    ).toEqual({ voiceLanguage: 'en', smartParking: false });
  });

  it('tells what the send will do with each lift, as the server decides', () => {
    expect(reviewOutcome(lift({}))).toBe('send');
    expect(
      reviewOutcome(
        lift({ online: false, issues: [{ path: 'x', message: 'validation.invalid' }] }),
      ),
    ).toBe('offline');
    expect(
      reviewOutcome(
        lift({ issues: [{ path: 'unfoldPattern4', message: 'validation.unknownField' }] }),
      ),
    ).toBe('invalid');
    expect(reviewOutcome(lift({ forbidden: ['rapidSpeed'] }))).toBe('forbidden');
    expect(reviewOutcome(lift({ changed: [] }))).toBe('unchanged');
    expect(reviewCounts([lift({}), lift({ online: false }), lift({ changed: [] })])).toEqual({
      send: 1,
      other: 2,
    });
  });

  it('applies live answers forward only, with the counts', () => {
    const done = applyLive(SEND, {
      type: 'groupConfig',
      groupId: SEND.id,
      liftId: A,
      state: 'done',
      reason: null,
    });
    expect(done.lifts[0]!.state).toBe('done');
    expect(done.counts).toMatchObject({ sent: 1, done: 1 });
    expect(sendFinished(done)).toBe(false);
    // A late 'sent' never undoes 'done'; another send's message changes nothing.
    expect(
      applyLive(done, {
        type: 'groupConfig',
        groupId: SEND.id,
        liftId: A,
        state: 'sent',
        reason: null,
      }),
    ).toBe(done);
    expect(
      applyLive(done, {
        type: 'groupConfig',
        groupId: 'other',
        liftId: B,
        state: 'done',
        reason: null,
      }),
    ).toBe(done);
    const refused = applyLive(done, {
      type: 'groupConfig',
      groupId: SEND.id,
      liftId: B,
      state: 'refused',
      reason: 'busy',
    });
    expect(refused.counts).toMatchObject({ sent: 0, done: 1, refused: 1 });
    expect(sendFinished(refused)).toBe(true);
  });

  it('words the reasons in the user language: the lift refusals and the cloud skips', () => {
    expect(reasonText('busy', 'en-US')).toBe('The lift is busy with another operation');
    expect(reasonText('busy', 'ru-RU')).toBe('Лифт занят другой операцией');
    expect(reasonText('versionChanged', 'en-US')).toBe(
      'Its configuration changed after the review; not overwritten',
    );
    expect(reasonText(null, 'en-US')).toBeNull();
  });
});
