import {
  COMMAND_CANCEL_WINDOW_MS,
  type CommandName,
  type CommandResult,
  type CommandState,
  type RefusalReason,
} from '@liftlink/protocol';
import { ApiError } from '../../../lib/http.ts';

/**
 * What the user sees of a command they sent: `sending` until the lift answers (the
 * spec's "sent"), then the lift's `accepted` / `done`, or a refusal with its reason, a
 * time-out, or "lift offline". `error` is anything else (no permission, network).
 */
export type ProgressState = 'sending' | CommandState | 'offline' | 'error';

/** What a refusal of the cloud names: the lease's holder and until when, or the end of local use. */
export interface RefusalDetail {
  holderName: string | null;
  until: string | null;
}

/** Cancelling in the cancel window: asked, or refused (`cancelError` names why). */
export type CancelState = 'none' | 'pending' | 'failed';

export interface CommandEntry {
  localId: number;
  name: CommandName;
  args: Record<string, unknown>;
  commandId: string | null;
  state: ProgressState;
  reason: RefusalReason | null;
  /** The server's text of the reason, in the user's language. */
  reasonText: string | null;
  /** The API code of an `error`, or of a refusal by the cloud (lease, approval). */
  errorCode: string | null;
  detail: RefusalDetail | null;
  startedAt: number;
  /** The click's idempotency key, reused by its retries and naming it for a cancel; null for a command run by an approval. */
  key: string | null;
  /** A leased-class command this page sent: it may be cancelled in its cancel window. */
  cancellable: boolean;
  cancel: CancelState;
  cancelError: string | null;
}

export type ProgressAction =
  | {
      type: 'start';
      localId: number;
      name: CommandName;
      args: Record<string, unknown>;
      at: number;
      key?: string | null;
      cancellable?: boolean;
    }
  /** The same click sent again with its key, after a network failure. */
  | { type: 'retry'; localId: number }
  | { type: 'cancelling'; localId: number }
  | { type: 'cancelled'; localId: number }
  | { type: 'cancelFailed'; localId: number; error: unknown }
  /** A command another user's approval ran for this user's request. */
  | {
      type: 'approved';
      localId: number;
      name: CommandName;
      args: Record<string, unknown>;
      commandId: string;
      state: CommandState | null;
      reason: RefusalReason | null;
      at: number;
    }
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

/**
 * Milliseconds left to cancel the entry (its cancel window, counted from the click, so it
 * closes a little before the server's), or null when it cannot be cancelled now. A cancel
 * on its way keeps the button until the answer.
 */
export function cancelWindowLeft(entry: CommandEntry, now: number): number | null {
  if (!entry.cancellable || entry.key === null || entry.cancel === 'failed') return null;
  if (entry.state !== 'sending' && entry.state !== 'created') return null;
  const left = Math.min(COMMAND_CANCEL_WINDOW_MS, entry.startedAt + COMMAND_CANCEL_WINDOW_MS - now);
  if (left > 0) return left;
  return entry.cancel === 'pending' ? 0 : null;
}

/** Codes of a request that never reached the server (or whose answer was lost): the click may be sent again. */
export function isRetryable(entry: CommandEntry): boolean {
  return (
    entry.state === 'error' &&
    entry.key !== null &&
    (entry.errorCode === 'request.network' || entry.errorCode === 'request.timeout')
  );
}

/** The cloud's refusals before anything is sent, as the lift's reasons (their texts and advice). */
const CLOUD_REFUSALS: Record<string, RefusalReason> = {
  'lease.held': 'leaseHeld',
  'lease.lost': 'noLease',
  'lease.localControl': 'localControl',
  'approval.required': 'approvalRequired',
};

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
type Failure = Pick<
  CommandEntry,
  'state' | 'reason' | 'reasonText' | 'errorCode' | 'commandId' | 'detail'
>;

export function failureOf(error: unknown): Failure {
  const none = { reasonText: null, detail: null };
  if (error instanceof ApiError) {
    const result = error.result as
      | (Partial<CommandResult> & { holderName?: string; expiresAt?: string; localUntil?: string })
      | null;
    if (error.code === 'lift.offline')
      return { ...none, state: 'offline', reason: 'offline', errorCode: null, commandId: null };
    if (error.code === 'lift.timeout')
      return {
        ...none,
        state: 'timeout',
        reason: 'timeout',
        errorCode: null,
        commandId: result?.commandId ?? null,
      };
    if (error.code === 'lift.refused' && result?.state)
      return {
        ...none,
        state: result.state,
        reason: result.reason ?? null,
        reasonText: result.reasonText ?? null,
        errorCode: null,
        commandId: result.commandId ?? null,
      };
    const cloud = CLOUD_REFUSALS[error.code];
    if (cloud)
      return {
        state: 'rejected',
        reason: cloud,
        reasonText: null,
        errorCode: error.code,
        commandId: null,
        detail: {
          holderName: result?.holderName ?? null,
          until: result?.localUntil ?? result?.expiresAt ?? null,
        },
      };
    return { ...none, state: 'error', reason: null, errorCode: error.code, commandId: null };
  }
  return { ...none, state: 'error', reason: null, errorCode: 'unknown', commandId: null };
}

function newEntry(
  localId: number,
  name: CommandName,
  args: Record<string, unknown>,
  at: number,
): CommandEntry {
  return {
    localId,
    name,
    args,
    commandId: null,
    state: 'sending',
    reason: null,
    reasonText: null,
    errorCode: null,
    detail: null,
    startedAt: at,
    key: null,
    cancellable: false,
    cancel: 'none',
    cancelError: null,
  };
}

function update(
  entries: CommandEntry[],
  localId: number,
  change: (entry: CommandEntry) => CommandEntry,
): CommandEntry[] {
  return entries.map((e) => (e.localId === localId ? change(e) : e));
}

/** Newest first; at most `MAX_ENTRIES` are kept. */
export const MAX_ENTRIES = 8;

export function commandProgress(entries: CommandEntry[], action: ProgressAction): CommandEntry[] {
  switch (action.type) {
    case 'start':
      return [
        {
          ...newEntry(action.localId, action.name, action.args, action.at),
          key: action.key ?? null,
          cancellable: action.cancellable ?? false,
        },
        ...entries,
      ].slice(0, MAX_ENTRIES);
    case 'retry':
      return update(entries, action.localId, (e) =>
        isRetryable(e) ? { ...e, state: 'sending', errorCode: null } : e,
      );
    case 'cancelling':
      return update(entries, action.localId, (e) => ({ ...e, cancel: 'pending' }));
    case 'cancelled':
      return update(entries, action.localId, (e) => ({
        ...advance(e, 'cancelled', 'cancelled'),
        cancel: 'none',
      }));
    case 'cancelFailed':
      return update(entries, action.localId, (e) => ({
        ...e,
        cancel: 'failed',
        cancelError: action.error instanceof ApiError ? action.error.code : 'unknown',
      }));
    case 'approved': {
      if (entries.some((e) => e.commandId === action.commandId)) return entries;
      const entry = {
        ...newEntry(action.localId, action.name, action.args, action.at),
        commandId: action.commandId,
      };
      return [advance(entry, action.state ?? 'created', action.reason), ...entries].slice(
        0,
        MAX_ENTRIES,
      );
    }
    case 'response':
      return update(entries, action.localId, (e) => {
        const next = advance(e, action.result.state, action.result.reason, action.result.commandId);
        return next.state === action.result.state && action.result.reasonText
          ? { ...next, reasonText: action.result.reasonText }
          : next;
      });
    case 'failure': {
      const failure = failureOf(action.error);
      return entries.map((e) => {
        if (e.localId !== action.localId) return e;
        const next = advance(e, failure.state, failure.reason, failure.commandId ?? e.commandId);
        return next.state === failure.state && next !== e
          ? {
              ...next,
              errorCode: failure.errorCode,
              reasonText: failure.reasonText,
              detail: failure.detail,
            }
          : next;
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
