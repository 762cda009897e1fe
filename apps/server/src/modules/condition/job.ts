import { setTimeout as sleep } from 'node:timers/promises';
import { CONDITION_JOB_MINUTES } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { JobDefinition } from '../jobs/plugin.ts';
import { allLiftIds, bestRecentScores, conditionInputs, saveScores } from './repository.ts';
import { conditionFactors, conditionScore } from './score.ts';

/** Today in UTC, 'YYYY-MM-DD'. */
export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * Lifts scored at a time. The server's one event loop also takes the lifts' messages: at
 * 20,000 lifts scoring all at once held it for 4.8 s and grew the heap by 600 MB, and
 * the messages that queued meanwhile took seconds more to store; 500 at a time held it
 * up to about 130 ms a chunk (docs/operations.md 7.1).
 */
const CHUNK = 200;

/**
 * After each chunk the job rests three times as long as the chunk took, so it takes at most
 * a quarter of what one database connection could do and the lifts' messages keep the
 * rest. At 19,900 lifts reporting every 5 s (PostgreSQL, 2 cores) a run without rests took
 * 7 s, and in those seconds live pushes waited 73 to 166 ms at p50 (7 to 20 ms around
 * them); with these rests the run takes about four times as long and pushes wait 10 to 46
 * ms at p50 (docs/operations.md 7.1). The next run starts CONDITION_JOB_MINUTES after this
 * one ends, so a longer run never overlaps the next.
 */
const REST_PER_WORK = 3;

/**
 * Computes every lift's condition score of today from the figures ingest kept and writes it
 * (today's row is rewritten on each run, so yesterday's last run stays as its history),
 * CHUNK lifts at a time. Returns how many lifts it scored and how many are listed. The
 * same result whoever runs it.
 */
export async function recomputeCondition(sql: SqlExecutor, today = utcToday(), signal?: AbortSignal, chunkSize = CHUNK): Promise<{ lifts: number; listed: number }> {
  const ids = await allLiftIds(sql);
  let scored = 0;
  let listed = 0;
  let lastChunkMs = 0;
  for (let i = 0; i < ids.length && !signal?.aborted; i += chunkSize) {
    // A server stopping during the rest ends the run there, not after one more chunk.
    if (i > 0 && !(await restUnlessAborted(REST_PER_WORK * lastChunkMs, signal))) break;
    const started = performance.now();
    const chunk = ids.slice(i, i + chunkSize);
    const inputs = await conditionInputs(sql, today, chunk);
    const best = await bestRecentScores(sql, today, chunk);
    const rows = [...inputs].map(([liftId, input]) => ({ liftId, ...conditionScore(conditionFactors(input), best.get(liftId) ?? null) }));
    await saveScores(sql, today, rows);
    lastChunkMs = performance.now() - started;
    scored += rows.length;
    listed += rows.filter((r) => r.listed).length;
  }
  return { lifts: scored, listed };
}

/** Rests `ms`; false when the signal aborts first. */
async function restUnlessAborted(ms: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await sleep(ms, undefined, signal ? { signal } : undefined);
    return true;
  } catch {
    return false;
  }
}

export const conditionJob: JobDefinition = {
  name: 'condition',
  everyMs: CONDITION_JOB_MINUTES * 60_000,
  firstAfterMs: 60_000,
  run: async (app, signal) => recomputeCondition(app.database.sql, utcToday(), signal),
};
