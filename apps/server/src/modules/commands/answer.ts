import type { FastifyInstance } from 'fastify';
import { isFinalCommandState, refusalText, type CommandResult, type CommandState, type RefusalReason } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import { commandByKey, readCommand } from './repository.ts';

/** A command's outcome as the caller gets it: the result, or the refusal carrying it. */
export function answerOf(c: { commandId: string; state: CommandState; reason: RefusalReason | null; issues: CommandResult['issues'] | null }, lang: string): CommandResult {
  const result: CommandResult = { commandId: c.commandId, state: c.state, reason: c.reason, reasonText: c.reason ? refusalText(c.reason, lang) : null, ...(c.issues ? { issues: c.issues } : {}) };
  if (c.state === 'timeout' || c.state === 'created' || c.state === 'sent') throw new AppError('lift.timeout', result);
  if (c.state === 'rejected' || c.state === 'failed' || c.state === 'expired' || c.state === 'cancelled') throw new AppError('lift.refused', result, result.reasonText ?? undefined);
  return result;
}

/**
 * A click seen before (a double click, a retry, the same request on another instance): no
 * second command. Waits for the first command's outcome (its final state, or the end of its
 * wait) and answers the same; another command under the same key is a conflict.
 */
export async function answerOfFirst(
  app: FastifyInstance,
  click: { liftId: string; userId: string; key: string; kind: string; name: string; args: Record<string, unknown> },
  lang: string,
  flight: { end: () => void },
  maxWaitMs: number,
): Promise<CommandResult> {
  const { sql } = app.database;
  const first = await commandByKey(sql, click.userId, click.key, click);
  if (!first?.same) throw new AppError('conflict', { idempotencyKey: click.key });
  let wake: () => void = () => {};
  let ended = false;
  flight.end = () => {
    ended = true;
    wake();
  };
  const stop = app.live.on((msg) => {
    if (msg.type === 'command' && msg.commandId === first.id) wake();
  });
  const deadline = Date.now() + maxWaitMs;
  try {
    for (;;) {
      const row = (await readCommand(sql, first.id))!;
      const waitOver = row.sent_at !== null && new Date(row.now) > new Date(row.expires_at) && row.state !== 'created' && row.state !== 'sent';
      if (isFinalCommandState(row.state) || waitOver || ended || app.commands.ended || Date.now() > deadline) {
        return answerOf({ commandId: row.id, state: row.state, reason: row.reason, issues: row.issues }, lang);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    stop();
  }
}
