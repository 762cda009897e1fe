import type { LogbookProblem, LogbookVerifyResult } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { GENESIS_HASH, entryHash } from './hash.ts';
import { chainPart, firstAfter, logbookHead } from './repository.ts';

/** Entries read at a time: a long logbook is checked without holding it all in memory. */
const PART = 1_000;

/**
 * Recomputes the lift's chain from its first entry up to the head as it is when the check
 * starts (entries appended meanwhile are left for the next check), and names the first entry
 * that is wrong: `missing` (a seq gap, or fewer entries than the head counts), `altered`
 * (its hash is not the hash of its fields), `unlinked` (its prevHash is not the previous
 * entry's hash, or it is an entry the head does not count).
 */
export async function verifyLogbook(
  sql: SqlExecutor,
  liftId: string,
): Promise<LogbookVerifyResult> {
  const head = await logbookHead(sql, liftId);
  let expected = 1;
  let prevHash = GENESIS_HASH;
  const broken = (seq: number, problem: LogbookProblem): LogbookVerifyResult => ({
    ok: false,
    checked: expected - 1,
    headSeq: head.seq,
    headHash: head.hash,
    broken: { seq, problem },
  });
  for (;;) {
    const part = await chainPart(sql, liftId, expected - 1, head.seq, PART);
    for (const e of part) {
      if (e.seq !== expected) return broken(expected, 'missing');
      const recomputed = entryHash({
        liftId,
        seq: e.seq,
        ts: e.ts,
        kind: e.kind,
        actor: { id: e.actorId, name: e.actorName },
        data: e.data,
        prevHash: e.prevHash,
      });
      if (recomputed !== e.hash) return broken(e.seq, 'altered');
      if (e.prevHash !== prevHash) return broken(e.seq, 'unlinked');
      prevHash = e.hash;
      expected++;
    }
    if (part.length < PART) break;
  }
  if (expected <= head.seq) return broken(expected, 'missing');
  // The head's hash is the last entry's: a last entry rewritten with a hash of its own differs.
  if (head.seq > 0 && head.hash !== prevHash) return broken(head.seq, 'altered');
  // An entry beyond the head that is still not counted once the head is read again: put there past the append.
  const beyond = await firstAfter(sql, liftId, head.seq);
  if (beyond !== null && beyond > (await logbookHead(sql, liftId)).seq)
    return broken(beyond, 'unlinked');
  return { ok: true, checked: head.seq, headSeq: head.seq, headHash: head.hash, broken: null };
}
