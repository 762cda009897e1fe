import { useReducer, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  needsLease,
  type ApprovalView,
  type Command,
  type CommandName,
  type CommandResult,
} from '@liftlink/protocol';
import { useLiftLive } from '../../../lib/live/use-live.ts';
import { controlApi } from '../api/control-api.ts';
import { liftApi, liftDetailKeys } from '../api/lift-api.ts';
import { commandProgress, type CommandEntry } from '../model/command-progress.ts';
import { newIdempotencyKey } from '../../../lib/idempotency-key.ts';

/** The time a command was sent (outside render: only event handlers call it). */
const clock = () => Date.now();

export interface CommandSender {
  entries: CommandEntry[];
  /** The buttons whose click is under way (busy at once: a double click sends once). */
  busy: ReadonlySet<string>;
  /** Marks a button busy; false when it already is (the second click of a double click). */
  claim: (button: string) => boolean;
  unclaim: (button: string) => void;
  /** Sends one click's command with a new key; resolves to the error, if any. */
  send: (name: CommandName, args: Record<string, unknown>) => Promise<unknown>;
  /** Sends a click again with its own key (after a network failure). */
  retry: (entry: CommandEntry) => void;
  /** Cancels a command in its cancel window. */
  cancel: (entry: CommandEntry) => Promise<void>;
  /** Follows a command started another way (approving a request). */
  track: (
    name: CommandName,
    args: Record<string, unknown>,
    run: () => Promise<CommandResult>,
  ) => Promise<unknown>;
  /** Shows the command another user's approval ran for this user's request. */
  approved: (approval: ApprovalView) => void;
}

/**
 * The commands this page sent and how each goes: one idempotency key per click, the lift's
 * answers over the live stream, the cancel window, retries with the click's key.
 */
export function useCommandSender(liftId: string): CommandSender {
  const client = useQueryClient();
  const [entries, dispatch] = useReducer(commandProgress, []);
  const nextId = useRef(1);
  const busyRef = useRef(new Set<string>());
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());

  const refreshHistory = () =>
    void client.invalidateQueries({ queryKey: liftDetailKeys.commands(liftId) });

  useLiftLive(liftId, (message) => {
    if (message.type !== 'command') return;
    dispatch({
      type: 'live',
      commandId: message.commandId,
      name: message.name,
      state: message.state,
      reason: message.reason,
    });
    refreshHistory();
  });

  const follow = async (localId: number, run: () => Promise<CommandResult>) => {
    try {
      const result = await run();
      dispatch({ type: 'response', localId, result });
      return null;
    } catch (error) {
      dispatch({ type: 'failure', localId, error });
      return error;
    } finally {
      refreshHistory();
    }
  };

  return {
    entries,
    busy,
    claim: (button) => {
      if (busyRef.current.has(button)) return false;
      busyRef.current.add(button);
      setBusy(new Set(busyRef.current));
      return true;
    },
    unclaim: (button) => {
      busyRef.current.delete(button);
      setBusy(new Set(busyRef.current));
    },
    send: (name, args) => {
      const localId = nextId.current++;
      const key = newIdempotencyKey();
      const cancellable = needsLease({ name, args } as Command);
      dispatch({ type: 'start', localId, name, args, at: clock(), key, cancellable });
      return follow(localId, () => liftApi.control(liftId, name, args, key));
    },
    retry: (entry) => {
      const key = entry.key;
      if (key === null) return;
      dispatch({ type: 'retry', localId: entry.localId });
      void follow(entry.localId, () => liftApi.control(liftId, entry.name, entry.args, key));
    },
    cancel: async (entry) => {
      if (entry.key === null) return;
      dispatch({ type: 'cancelling', localId: entry.localId });
      try {
        await controlApi.cancel(liftId, entry.key);
        dispatch({ type: 'cancelled', localId: entry.localId });
      } catch (error) {
        dispatch({ type: 'cancelFailed', localId: entry.localId, error });
      } finally {
        refreshHistory();
      }
    },
    track: (name, args, run) => {
      const localId = nextId.current++;
      dispatch({ type: 'start', localId, name, args, at: clock() });
      return follow(localId, run);
    },
    approved: (approval) => {
      if (!approval.commandId) return;
      dispatch({
        type: 'approved',
        localId: nextId.current++,
        name: approval.command,
        args: approval.args,
        commandId: approval.commandId,
        state: approval.commandState,
        reason: approval.commandReason,
        at: clock(),
      });
      if (approval.commandState)
        dispatch({
          type: 'live',
          commandId: approval.commandId,
          name: approval.command,
          state: approval.commandState,
          reason: approval.commandReason,
        });
    },
  };
}
