import type { CommandName, CommandResult, CommandState, RefusalReason } from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';

/**
 * What the user sees of a command they sent: `sending` until the lift answers (the
 * spec's "sent"), then the lift's `accepted` / `done`, or a refusal with its reason, a
 * time-out, or "lift offline". `error` is anything else (no permission, network).
 */
export type ProgressState = 'sending' | CommandState | 'offline' | 'error';

export interface CommandEntry {
  localId: number;
  name: CommandName;
  args: Record<string, unknown>;
  commandId: string | null;
  state: ProgressState;
  reason: RefusalReason | null;
  /** The API code of an `error`. */
  errorCode: string | null;
  startedAt: number;
}

export type ProgressAction =
  | { type: 'start'; localId: number; name: CommandName; args: Record<string, unknown>; at: number }
  | { type: 'response'; localId: number; result: CommandResult }
  | { type: 'failure'; localId: number; error: unknown }
  | {
      type: 'live';
      commandId: string;
      name: string;
      state: CommandState;
      reason: RefusalReason | null;
    };

const RANK: Record<ProgressState, number> = {
  sending: 0,
  created: 0,
  sent: 1,
  accepted: 2,
  // The cloud stopped waiting, but the lift may still answer: its answer wins.
  timeout: 2.5,
  done: 3,
  rejected: 3,
  failed: 3,
  expired: 3,
  cancelled: 3,
  offline: 3,
  error: 3,
};

export function isSettled(state: ProgressState): boolean {
  return RANK[state] >= 3 || state === 'timeout';
}

export function isFailure(state: ProgressState): boolean {
  return ['rejected', 'failed', 'expired', 'timeout', 'offline', 'error'].includes(state);
}

/** Moves an entry forward; an answer that arrives late never moves it back. */
function advance(
  entry: CommandEntry,
  state: ProgressState,
  reason: RefusalReason | null,
  commandId: string | null = entry.commandId,
): CommandEntry {
  if (RANK[state] < RANK[entry.state] || (RANK[entry.state] >= 3 && state !== entry.state))
    return commandId === entry.commandId ? entry : { ...entry, commandId };
  return { ...entry, state, reason: reason ?? entry.reason, commandId };
}

/** The state a failed `control` call leaves a command in. */
export function failureOf(
  error: unknown,
): Pick<CommandEntry, 'state' | 'reason' | 'errorCode' | 'commandId'> {
  if (error instanceof ApiError) {
    const result = error.result as Partial<CommandResult> | null;
    if (error.code === 'lift.offline')
      return { state: 'offline', reason: 'offline', errorCode: null, commandId: null };
    if (error.code === 'lift.timeout')
      return {
        state: 'timeout',
        reason: 'timeout',
        errorCode: null,
        commandId: result?.commandId ?? null,
      };
    if (error.code === 'lift.refused' && result?.state)
      return {
        state: result.state,
        reason: result.reason ?? null,
        errorCode: null,
        commandId: result.commandId ?? null,
      };
    return { state: 'error', reason: null, errorCode: error.code, commandId: null };
  }
  return { state: 'error', reason: null, errorCode: 'unknown', commandId: null };
}

/** Newest first; at most `MAX_ENTRIES` are kept. */
export const MAX_ENTRIES = 8;

export function commandProgress(entries: CommandEntry[], action: ProgressAction): CommandEntry[] {
  switch (action.type) {
    case 'start':
      return [
        {
          localId: action.localId,
          name: action.name,
          args: action.args,
          commandId: null,
          state: 'sending' as const,
          reason: null,
          errorCode: null,
          startedAt: action.at,
        },
        ...entries,
      ].slice(0, MAX_ENTRIES);
    case 'response':
      return entries.map((e) =>
        e.localId === action.localId
          ? advance(e, action.result.state, action.result.reason, action.result.commandId)
          : e,
      );
    case 'failure': {
      const failure = failureOf(action.error);
      return entries.map((e) => {
        if (e.localId !== action.localId) return e;
        const next = advance(e, failure.state, failure.reason, failure.commandId ?? e.commandId);
        return next.state === failure.state ? { ...next, errorCode: failure.errorCode } : next;
      });
    }
    case 'live': {
      let index = entries.findIndex((e) => e.commandId === action.commandId);
      // The lift may answer before the HTTP reply has told us the command's id: the
      // oldest entry of that name still waiting is the one.
      if (index < 0)
        index = entries.findLastIndex(
          (e) => e.commandId === null && e.name === action.name && e.state === 'sending',
        );
      if (index < 0) return entries;
      const next = entries.slice();
      next[index] = advance(entries[index]!, action.state, action.reason, action.commandId);
      return next;
    }
  }
}
