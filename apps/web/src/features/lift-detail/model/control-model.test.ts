import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMMAND_CANCEL_WINDOW_MS,
  type ApprovalView,
  type LiveLeaseMessage,
} from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';
import { useEnglish } from '../../../test/render.tsx';
import { mergeApproval, shownState, timeLeft } from './approvals.ts';
import { cancelWindowLeft, commandProgress, type CommandEntry } from './command-progress.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';
import { controlView, leaseNoticeOf } from './lease.ts';
import { refusalView } from './refusal.ts';

const ME = 'me';
const lease = (holderId: string) => ({
  liftId: 'l',
  epoch: 3,
  holderId,
  holderName: 'Alice',
  acquiredAt: '2026-01-01T00:00:00.000Z',
  expiresAt: '2026-01-01T00:01:00.000Z',
});

function started(): CommandEntry[] {
  return commandProgress([], {
    type: 'start',
    localId: 1,
    name: 'summon',
    args: { floor: 2 },
    at: 1_000,
    key: 'k'.repeat(32),
    cancellable: true,
  });
}

describe('remote control on the page', () => {
  beforeAll(useEnglish);

  it('makes keys the server accepts, a new one each time', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });

  it('opens the cancel window for the window only, and not once the lift has the command', () => {
    const entries = started();
    expect(cancelWindowLeft(entries[0]!, 1_000)).toBe(COMMAND_CANCEL_WINDOW_MS);
    expect(cancelWindowLeft(entries[0]!, 1_000 + COMMAND_CANCEL_WINDOW_MS)).toBeNull();
    const sent = commandProgress(entries, {
      type: 'live',
      commandId: 'c',
      name: 'summon',
      state: 'sent',
      reason: null,
    });
    expect(cancelWindowLeft(sent[0]!, 1_500)).toBeNull();
    const cancelled = commandProgress(entries, { type: 'cancelled', localId: 1 });
    expect(cancelled[0]!.state).toBe('cancelled');
    expect(cancelWindowLeft(cancelled[0]!, 1_500)).toBeNull();
  });

  it("turns the cloud's refusals into reasons with the holder or the end of local use, and advice", () => {
    const held = commandProgress(started(), {
      type: 'failure',
      localId: 1,
      error: new ApiError(409, 'lease.held', 'held', { holderName: 'Alice', expiresAt: 'x' }),
    })[0]!;
    expect(held).toMatchObject({ state: 'rejected', reason: 'leaseHeld', errorCode: 'lease.held' });
    expect(refusalView(held, 'en-US')).toEqual({
      text: 'Alice controls this lift',
      advice: 'Wait until they release control, or take over if you are allowed to.',
    });
    const local = commandProgress(started(), {
      type: 'failure',
      localId: 1,
      error: new ApiError(409, 'lease.localControl', 'local', {
        localUntil: '2026-01-01T10:00:30.000Z',
      }),
    })[0]!;
    expect(refusalView(local, 'en-US')!.text).toMatch(
      /^The lift is in use on site; remote control is paused until \d\d:\d\d:30$/,
    );
    expect(refusalView(local, 'ru-RU')!.advice).toBe(
      'Лифтом пользуются на месте. Согласуйте с ними и затем снова возьмите управление.',
    );
    const forbidden = commandProgress(started(), {
      type: 'failure',
      localId: 1,
      error: new ApiError(403, 'forbidden', 'no'),
    })[0]!;
    expect(refusalView(forbidden, 'en-US')).toEqual({
      text: 'You do not have permission to do this',
      advice: null,
    });
  });

  it('tells the holder when another took over or local use ended the lease, not when they released it', () => {
    const message = (
      ended: LiveLeaseMessage['ended'],
      endedHolderId: string,
    ): LiveLeaseMessage => ({
      type: 'lease',
      liftId: 'l',
      lease: ended === 'takenOver' ? lease('bob') : null,
      localUntil: null,
      ended,
      endedHolderId,
    });
    expect(leaseNoticeOf(message('takenOver', ME), ME)).toMatchObject({
      reason: 'takenOver',
      byName: 'Alice',
    });
    expect(leaseNoticeOf(message('localControl', ME), ME)?.reason).toBe('localControl');
    expect(leaseNoticeOf(message('released', ME), ME)).toBeNull();
    expect(leaseNoticeOf(message('takenOver', 'bob'), ME)).toBeNull();
  });

  it('reads who controls the lift and counts local use down', () => {
    expect(controlView({ lease: lease(ME), localUntil: null }, ME, 0).holder).toBe('me');
    expect(controlView({ lease: lease('bob'), localUntil: null }, ME, 0).holder).toBe('other');
    const until = '2026-01-01T00:00:30.000Z';
    const at = Date.parse('2026-01-01T00:00:00.000Z');
    expect(controlView({ lease: null, localUntil: until }, ME, at).localUntil).toBe(at + 30_000);
    expect(controlView({ lease: null, localUntil: until }, ME, at + 30_000).localUntil).toBeNull();
  });

  it('keeps the approval list current: replaced by id, pending first, expired when its time ran out', () => {
    const base = {
      liftId: 'l',
      command: 'aging',
      args: {},
      commandClass: 'aging',
      reason: 'r',
      requesterId: 'bob',
      requesterName: 'Bob',
      requestedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-01T00:10:00.000Z',
      deciderId: null,
      deciderName: null,
      decidedAt: null,
      commandId: null,
      commandState: null,
      commandReason: null,
    } as const;
    const a: ApprovalView = { ...base, id: 'a', state: 'rejected' };
    const b: ApprovalView = { ...base, id: 'b', state: 'pending' };
    let list = mergeApproval([a], b);
    expect(list.map((x) => x.id)).toEqual(['b', 'a']);
    list = mergeApproval(list, { ...b, state: 'approved' });
    expect(list).toHaveLength(2);
    expect(list.find((x) => x.id === 'b')!.state).toBe('approved');
    const start = Date.parse(base.requestedAt);
    expect(timeLeft(b, start + 61_000)).toBe('8:59');
    expect(shownState(b, start + 599_000)).toBe('pending');
    expect(shownState(b, start + 600_000)).toBe('expired');
  });
});
