import { CONDITION_FACTORS, type ConditionFactorId, type ConditionLift, type ConditionListItem, type ConditionProposal } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { ownedLift } from '../lifts/scope.ts';
import { listedLifts, liftScores, type StoredScore } from './repository.ts';

/** The proposal of a listed score: its main factor's reason and the visit date. */
function proposalOf(s: StoredScore): ConditionProposal | null {
  if (!s.listed || !s.main_factor || !s.visit_on) return null;
  const main = s.factors.find((f) => f.id === s.main_factor);
  if (!main || !(CONDITION_FACTORS as readonly string[]).includes(s.main_factor)) return null;
  return { mainFactor: s.main_factor as ConditionFactorId, reason: main.reason, fellBy: s.fell_by === null ? null : Number(s.fell_by), visitOn: s.visit_on };
}

/** The lifts in the caller's scope whose score is low or fell, worst first. */
export async function conditionList(sql: SqlExecutor, auth: AuthContext, page: { page: number; pageSize: number }): Promise<{ list: ConditionListItem[]; total: number }> {
  const scope = liftFilter(auth, 1);
  const { rows, total } = await listedLifts(sql, scope.where, scope.param ? [scope.param] : [], page);
  const list = rows.flatMap((r) => {
    const proposal = proposalOf(r);
    return proposal ? [{ liftId: r.lift_id, deviceNo: r.device_no, alias: r.alias, liftKind: r.kind, score: Number(r.score), computedAt: new Date(r.computed_at).toISOString(), ...proposal }] : [];
  });
  return { list, total };
}

/** A lift's score, factors and history (`lift.notFound` out of the caller's scope). */
export async function liftCondition(sql: SqlExecutor, auth: AuthContext, liftId: string): Promise<ConditionLift> {
  const lift = await ownedLift(sql, auth, liftId);
  const scores = await liftScores(sql, lift.id);
  const latest = scores.at(-1) ?? null;
  return {
    liftId: lift.id,
    deviceNo: lift.device_no ?? '',
    score: latest ? Number(latest.score) : null,
    computedAt: latest ? new Date(latest.computed_at).toISOString() : null,
    factors: latest?.factors ?? [],
    history: scores.map((s) => ({ day: s.day, score: Number(s.score) })),
    proposal: latest ? proposalOf(latest) : null,
  };
}
