import type { CommandState, LiveChange, RefusalReason } from '@liftlink/protocol';
import { COMMAND_LOG_COLUMNS, lockLogbookHead, logCommandFinal, type CommandLogRow } from '../../logbook/index.ts';
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
 */
export async function applyCommandAnswers(tx: Tx, acks: UplinkOf<'cmd/ack'>[], live: LiveChange[]): Promise<void> {
  const answers = new Map<string, UplinkOf<'cmd/ack'>>();
  for (const m of acks) {
    const key = `${m.liftId}|${m.message.commandId}`;
    const before = answers.get(key);
    if (!before || (before.message.state === 'accepted' && m.message.state !== 'accepted')) answers.set(key, m);
  }
  for (const m of answers.values()) {
    // A final answer goes into the lift's logbook: its head is locked before the command's row, as the cloud's own final changes lock them.
    if (m.message.state !== 'accepted') await lockLogbookHead(tx, m.liftId);
    const [row] = await tx.query<CommandLogRow & { state: CommandState; reason: RefusalReason | null }>(
      `update lift_commands set state = $3, reason = $4, issues = $5::jsonb, updated_at = now()
        where id = $1 and lift_id = $2 and state = any($6::text[]) returning ${COMMAND_LOG_COLUMNS}`,
      [m.message.commandId, m.liftId, m.message.state, m.message.reason ?? null, m.message.issues ? JSON.stringify(m.message.issues) : null, NEXT_STATES[m.message.state]],
    );
    if (row) await logCommandFinal(tx, row);
    if (row) live.push({ type: 'command', liftId: m.liftId, commandId: m.message.commandId, name: row.name, state: row.state, reason: row.reason });
    if (row && row.kind === 'config/set') await applyGroupConfigAnswer(tx, row.id, row.state, row.reason, live);
  }
}
