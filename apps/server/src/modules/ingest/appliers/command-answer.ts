import type { CommandState, LiveChange, RefusalReason } from '@liftlink/protocol';
import { COMMAND_LOG_COLUMNS, appendToLockedHeads, commandFinalEntry, headOrder, lockHeadsQuery, withMissingHeads, type CommandLogRow, type LockedHeadRow, type NewLogbookEntry } from '../../logbook/index.ts';
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
 * The batch's answers go in two statements, however many there are: a person waits for
 * each, and on a loaded server every statement is a round trip through a busy event loop and
 * database (docs/operations.md 7.1). The first locks the heads of the logbooks a final answer
 * writes to, in one order, before the commands' rows (as the cloud's own final changes lock
 * them), and changes the commands; the second adds their logbook entries.
 *
 * With `heardWithinSeconds` (`storeAnswers`, which leaves the lift rows alone), the first
 * statement changes nothing unless every answering lift is online and was heard within it, and the answers return false (`storeAnswers` then stores
 * the batch the whole way); else true.
 */
export async function applyCommandAnswers(tx: Tx, acks: UplinkOf<'cmd/ack'>[], live: LiveChange[], heardWithinSeconds?: number): Promise<boolean> {
  const answers = new Map<string, UplinkOf<'cmd/ack'>>();
  for (const m of acks) {
    const key = `${m.liftId}|${m.message.commandId}`;
    const before = answers.get(key);
    if (!before || (before.message.state === 'accepted' && m.message.state !== 'accepted')) answers.set(key, m);
  }
  if (!answers.size) return true;
  const inOrder = [...answers.values()];
  const headIds = headOrder(inOrder.filter((m) => m.message.state !== 'accepted').map((m) => m.liftId));
  const liftIds = [...new Set(inOrder.map((m) => m.liftId))];
  // The one-time conditions (heard lately; the heads locked, which their count forces) are
  // evaluated before the update touches its first row: the heads are locked first. Nothing
  // is locked when the lifts were not heard lately: `storeBatch` then locks their rows first.
  const [result] = await tx.query<{ heard: boolean; heads: LockedHeadRow[]; changed: AnsweredRow[] }>(
    `with heard as (
       select $4::float8 is null or count(*) = cardinality($3::uuid[]) as ok from lifts
        where $4::float8 is not null and id = any($3::uuid[]) and online and last_seen_at > now() - make_interval(secs => $4::float8)
     ),
     heads as (${lockHeadsQuery('$2', '(select ok from heard)')}),
     changed as (
       update lift_commands set state = v.to_state, reason = v.why, issues = v.found, updated_at = now()
         from jsonb_to_recordset($1::jsonb) as v(cid text, lid uuid, to_state text, why text, found jsonb, from_states text)
        where id = v.cid and lift_id = v.lid and state = any(string_to_array(v.from_states, ','))
          and (select ok from heard) and (select count(*) from heads) >= 0
        returning ${COMMAND_LOG_COLUMNS}
     )
     select (select ok from heard) as heard,
            (select coalesce(json_agg(h), '[]'::json) from heads h) as heads,
            (select coalesce(json_agg(c), '[]'::json) from changed c) as changed`,
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
      headIds,
      liftIds,
      heardWithinSeconds ?? null,
    ],
  );
  if (!result!.heard) return false;
  // Rows come back in no particular order: browsers and the logbook get them in the answers' order.
  const byId = new Map(result!.changed.map((r) => [r.id, r]));
  const rows = inOrder.map((m) => byId.get(m.message.commandId)).filter((r) => r !== undefined);
  const entries = rows.map(commandFinalEntry).filter((e): e is NewLogbookEntry<'command'> => e !== null);
  if (entries.length) {
    const heads = await withMissingHeads(tx, headIds, result!.heads);
    await appendToLockedHeads(tx, heads, entries);
  }
  for (const row of rows) {
    live.push({ type: 'command', liftId: row.lift_id, commandId: row.id, name: row.name, state: row.state, reason: row.reason });
    if (row.kind === 'config/set') await applyGroupConfigAnswer(tx, row.id, row.state, row.reason, live);
  }
  return true;
}

type AnsweredRow = CommandLogRow & { state: CommandState; reason: RefusalReason | null };
