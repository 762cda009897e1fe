import { CONDITION_JOB_MINUTES } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { JobDefinition } from '../jobs/plugin.ts';
import { bestRecentScores, conditionInputs, saveScores } from './repository.ts';
import { conditionFactors, conditionScore } from './score.ts';

/** Today in UTC, 'YYYY-MM-DD'. */
export const utcToday = (now = new Date()) => now.toISOString().slice(0, 10);

/**
 * Computes every lift's condition score of today from the figures ingest kept and writes it
 * (today's row is rewritten on each run, so yesterday's last run stays as its history).
 * Returns how many lifts it scored and how many are listed. The same result whoever runs it.
 */
export async function recomputeCondition(sql: SqlExecutor, today = utcToday()): Promise<{ lifts: number; listed: number }> {
  const inputs = await conditionInputs(sql, today);
  const best = await bestRecentScores(sql, today);
  const rows = [...inputs].map(([liftId, input]) => {
    const result = conditionScore(conditionFactors(input), best.get(liftId) ?? null);
    return { liftId, ...result };
  });
  await saveScores(sql, today, rows);
  return { lifts: rows.length, listed: rows.filter((r) => r.listed).length };
}

export const conditionJob: JobDefinition = {
  name: 'condition',
  everyMs: CONDITION_JOB_MINUTES * 60_000,
  firstAfterMs: 60_000,
  run: async (app) => recomputeCondition(app.database.sql),
};
