import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/http.ts';
import { commandProgress, type CommandEntry, type ProgressAction } from './command-progress.ts';

function run(actions: ProgressAction[]): CommandEntry[] {
  return actions.reduce(commandProgress, [] as CommandEntry[]);
}

const start = (localId: number, name: 'summon' | 'pause' | 'lock' = 'summon'): ProgressAction => ({
  type: 'start',
  localId,
  name,
  args: name === 'summon' ? { floor: 2 } : {},
  at: 0,
});

describe('command progress', () => {
  it('shows sent, then the lift accepting and finishing a summon, in order', () => {
    let entries = run([start(1)]);
    expect(entries[0]).toMatchObject({ state: 'sending', commandId: null });
    // The lift answers before the HTTP reply names the command: matched by name.
    entries = commandProgress(entries, {
      type: 'live',
      commandId: 'c1',
      name: 'summon',
      state: 'accepted',
      reason: null,
    });
    expect(entries[0]).toMatchObject({ state: 'accepted', commandId: 'c1' });
    // The HTTP reply comes after 10 s with "accepted"; the trip is still running.
    entries = commandProgress(entries, {
      type: 'response',
      localId: 1,
      result: { commandId: 'c1', state: 'accepted', reason: null, reasonText: null },
    });
    expect(entries[0]!.state).toBe('accepted');
    entries = commandProgress(entries, {
      type: 'live',
      commandId: 'c1',
      name: 'summon',
      state: 'done',
      reason: null,
    });
    expect(entries[0]!.state).toBe('done');
  });

  it('never moves back when a late answer arrives after the final one', () => {
    const entries = run([
      start(1),
      { type: 'live', commandId: 'c1', name: 'summon', state: 'done', reason: null },
      {
        type: 'response',
        localId: 1,
        result: { commandId: 'c1', state: 'accepted', reason: null, reasonText: null },
      },
      { type: 'live', commandId: 'c1', name: 'summon', state: 'accepted', reason: null },
    ]);
    expect(entries[0]!.state).toBe('done');
  });

  it("keeps the lift's refusal reason", () => {
    const refused = new ApiError(409, 'lift.refused', 'The lift is locked out', {
      commandId: 'c2',
      state: 'rejected',
      reason: 'lockout',
      reasonText: 'The lift is locked out',
    });
    const entries = run([start(1), { type: 'failure', localId: 1, error: refused }]);
    expect(entries[0]).toMatchObject({ state: 'rejected', reason: 'lockout', commandId: 'c2' });
  });

  it('says "lift offline" and "timed out" for those answers, and keeps other errors by code', () => {
    const offline = new ApiError(503, 'lift.offline', 'offline', {
      commandId: null,
      state: 'failed',
      reason: 'offline',
    });
    const timeout = new ApiError(504, 'lift.timeout', 'timeout', {
      commandId: 'c3',
      state: 'timeout',
      reason: 'timeout',
    });
    const forbidden = new ApiError(403, 'forbidden', 'no');
    const entries = run([
      start(1),
      start(2, 'pause'),
      start(3, 'lock'),
      { type: 'failure', localId: 1, error: offline },
      { type: 'failure', localId: 2, error: timeout },
      { type: 'failure', localId: 3, error: forbidden },
    ]);
    const byId = new Map(entries.map((e) => [e.localId, e]));
    expect(byId.get(1)).toMatchObject({ state: 'offline', reason: 'offline' });
    expect(byId.get(2)).toMatchObject({ state: 'timeout', reason: 'timeout', commandId: 'c3' });
    expect(byId.get(3)).toMatchObject({ state: 'error', errorCode: 'forbidden' });
  });

  it('lets the lift answer after the cloud stopped waiting', () => {
    const timeout = new ApiError(504, 'lift.timeout', 'timeout', {
      commandId: 'c4',
      state: 'timeout',
      reason: 'timeout',
    });
    const entries = run([
      start(1),
      { type: 'failure', localId: 1, error: timeout },
      { type: 'live', commandId: 'c4', name: 'summon', state: 'done', reason: null },
    ]);
    expect(entries[0]!.state).toBe('done');
  });

  it('matches a live answer to the oldest waiting command of that name only', () => {
    const entries = run([
      start(1),
      start(2),
      start(3, 'pause'),
      { type: 'live', commandId: 'x', name: 'summon', state: 'rejected', reason: 'busy' },
      { type: 'live', commandId: 'y', name: 'restart', state: 'accepted', reason: null },
    ]);
    const byId = new Map(entries.map((e) => [e.localId, e]));
    expect(byId.get(1)).toMatchObject({ state: 'rejected', reason: 'busy', commandId: 'x' });
    expect(byId.get(2)).toMatchObject({ state: 'sending', commandId: null });
    expect(byId.get(3)!.state).toBe('sending');
  });
});
