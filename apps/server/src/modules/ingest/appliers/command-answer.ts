import type { CommandState, LiveChange, RefusalReason } from '@liftlink/protocol';
import { COMMAND_LOG_COLUMNS, appendToLockedHeads, commandFinalEntry, lockLogbookHeads, type CommandLogRow, type NewLogbookEntry } from '../../logbook/index.ts';
import { applyGroupConfigAnswer } from '../../group-config/repository.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/** Lifecycle order: an answer may only move a command forward (a late `accepted` never undoes `done`). */
const NEXT_STATES: Record<string, CommandState[]> = {
  accepted: ['created', 'sent'],
  rejected: ['created', 'sent'],
  done: ['created', 'sent', 'accepted'],
  failed: ['created', 'sent', 'accepted'],
};

/**
 * Command answers: forward-only state changes of the lift's own commands. A lift's
 * 'accepted' and 'done' often arrive in one batch: only the furthest answer per command
 * is written (the earlier one would be overwritten in the same transaction anyway).
 *
 * The batch's answers go in a fixed number of statements, however many there are: a person
 * waits for each, and on a loaded server every statement is a round trip through a busy event
 * loop and database (docs/operations.md 7.1). The heads of the logbooks a final answer writes
 * to are locked first, in one order, before the commands' rows, as the cloud's own final
 * changes lock them; then one update of the commands, then their logbook entries.
 */
export async function applyCommandAnswers(tx: Tx, acks: UplinkOf<'cmd/ack'>[], live: LiveChange[]): Promise<void> {
  const answers = new Map<string, UplinkOf<'cmd/ack'>>();
  for (const m of acks) {
    const key = `${m.liftId}|${m.message.commandId}`;
    const before = answers.get(key);
    if (!before || (before.message.state === 'accepted' && m.message.state !== 'accepted')) answers.set(key, m);
  }
  if (!answers.size) return;
  const inOrder = [...answers.values()];
  const heads = await lockLogbookHeads(tx, inOrder.filter((m) => m.message.state !== 'accepted').map((m) => m.liftId));
  const changed = await tx.query<CommandLogRow & { state: CommandState; reason: RefusalReason | null }>(
    `update lift_commands set state = v.to_state, reason = v.why, issues = v.found, updated_at = now()
       from jsonb_to_recordset($1::jsonb) as v(cid text, lid uuid, to_state text, why text, found jsonb, from_states text)
      where id = v.cid and lift_id = v.lid and state = any(string_to_array(v.from_states, ','))
      returning ${COMMAND_LOG_COLUMNS}`,
    [
      JSON.stringify(
        inOrder.map((m) => ({
          cid: m.message.commandId,
          lid: m.liftId,
          to_state: m.message.state,
          why: m.message.reason ?? null,
          found: m.message.issues ?? null,
          from_states: NEXT_STATES[m.message.state]!.join(','),
        })),
      ),
    ],
  );
  // Rows come back in no particular order: browsers and the logbook get them in the answers' order.
  const byId = new Map(changed.map((r) => [r.id, r]));
  const rows = inOrder.map((m) => byId.get(m.message.commandId)).filter((r) => r !== undefined);
  await appendToLockedHeads(tx, heads, rows.map(commandFinalEntry).filter((e): e is NewLogbookEntry<'command'> => e !== null));
  for (const row of rows) {
    live.push({ type: 'command', liftId: row.lift_id, commandId: row.id, name: row.name, state: row.state, reason: row.reason });
    if (row.kind === 'config/set') await applyGroupConfigAnswer(tx, row.id, row.state, row.reason, live);
  }
}
