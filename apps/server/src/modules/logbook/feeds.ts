import { FINAL_COMMAND_STATES, type CommandState } from '@liftlink/protocol';
import { isHeld, type LeaseRow } from '../control/lease-repository.ts';
import { appendLogbook, type NewLogbookEntry, type Tx } from './append.ts';

/**
 * What the modules that exist today write into the logbook, one call each, in the
 * transaction of what they record (docs/logbook.md "What feeds it"). New feeds (incidents,
 * maintenance visits, firmware updates) call `appendLogbook` with their own kind.
 */

const actorOf = (u: { userId: string; username: string }) => ({ id: u.userId, name: u.username });

/** A command's row as `COMMAND_LOG_COLUMNS` returns it from the statement that changed its state. */
export interface CommandLogRow {
  id: string;
  lift_id: string;
  kind: string;
  name: string;
  args: Record<string, unknown>;
  state: CommandState;
  reason: string | null;
  user_id: string | null;
  username: string | null;
  lease_epoch: number | null;
  approval: { id: string; requester: string; approver: string | null } | null;
}

/** The `returning` list of a statement on `lift_commands` whose row goes to `logCommandFinal`. */
export const COMMAND_LOG_COLUMNS = `id, lift_id, kind, name, args, state, reason, user_id, username, lease_epoch,
  (select json_build_object('id', a.id, 'requester', a.requester_name, 'approver', a.decider_name) from command_approvals a where a.id = approval_id) as approval`;

/**
 * A command that has just reached a final state, in the transaction that wrote it (the lift's
 * answer in ingest's batch, the wait running out, a refusal or a cancel in the cloud). Earlier
 * states and configuration reads (which change nothing on the lift) are left out. The writer
 * locked the lift's head before the command's row (`lockLogbookHead`).
 */
export async function logCommandFinal(tx: Tx, row: CommandLogRow): Promise<void> {
  const entry = commandFinalEntry(row);
  if (entry) await appendLogbook(tx, entry);
}

/** The entry `logCommandFinal` writes for the row, null for none: for writers that append many at once. */
export function commandFinalEntry(row: CommandLogRow): NewLogbookEntry<'command'> | null {
  if (row.kind === 'config/get' || !FINAL_COMMAND_STATES.includes(row.state)) return null;
  return {
    liftId: row.lift_id,
    kind: 'command',
    actor: row.user_id ? { id: row.user_id, name: row.username ?? '' } : null,
    data: {
      commandId: row.id,
      type: row.kind as 'cmd' | 'config/set',
      name: row.name,
      args: row.args,
      state: row.state,
      reason: row.reason,
      leaseEpoch: row.lease_epoch,
      approval: row.approval,
    },
  };
}

/** A lease granted (taken, or taken over from another holder) or released, decided on the locked lease row. */
export async function logLeaseChange(
  tx: Tx,
  holder: { userId: string; username: string },
  change:
    | { kind: 'granted'; before: LeaseRow }
    | { kind: 'cleared'; before: LeaseRow }
    | { kind: 'extended' | 'none' },
  row: LeaseRow,
): Promise<void> {
  if (change.kind === 'granted') {
    const from = isHeld(change.before) ? change.before : null;
    const data = {
      action: from ? 'takenOver' : 'taken',
      epoch: row.epoch,
      previousHolderId: from?.holder_id ?? null,
      previousHolderName: from?.holder_name ?? null,
    } as const;
    await appendLogbook(tx, { liftId: row.lift_id, kind: 'lease', actor: actorOf(holder), data });
  } else if (change.kind === 'cleared') {
    await appendLogbook(tx, {
      liftId: row.lift_id,
      kind: 'lease',
      actor: actorOf(holder),
      data: {
        action: 'released',
        epoch: change.before.epoch,
        previousHolderId: null,
        previousHolderName: null,
      },
    });
  }
}

/** Leases that use on site ended (ingest's batch transaction): nobody in the cloud did it. */
export async function logLeasesEndedOnSite(
  tx: Tx,
  rows: { lift_id: string; epoch: number; ended_holder: string | null }[],
): Promise<void> {
  for (const row of rows) {
    if (!row.ended_holder) continue;
    const [holder] = await tx.query<{ name: string }>(
      `select coalesce(nullif(trim(name), ''), username) as name from users where id = $1`,
      [row.ended_holder],
    );
    await appendLogbook(tx, {
      liftId: row.lift_id,
      kind: 'lease',
      actor: null,
      data: {
        action: 'endedByLocalUse',
        epoch: row.epoch,
        previousHolderId: row.ended_holder,
        previousHolderName: holder?.name ?? null,
      },
    });
  }
}
