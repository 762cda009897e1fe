import {
  CONDITION_FACTORS,
  CONDITION_FACTOR_RULES,
  CONDITION_PROPOSAL,
  conditionVisitInDays,
  type ConditionFactor,
  type ConditionFactorId,
  type ConditionReasonKey,
} from '@liftlink/protocol';

/**
 * The condition score of one lift from its figures (docs/condition.md): pure arithmetic, so
 * the job, the tests and the docs' worked examples agree. Each factor compares a measured
 * value with a baseline (the lift's own first weeks, else the default for every lift) and
 * turns the deviation into a sub-score with the factor's rule; the score is 100 minus the
 * points the factors take off.
 */

/** Figures of a span of days (the measuring window, or the baseline weeks). */
export interface Figures {
  days: number;
  chargeRatio: number | null;
  chargeSeconds: number | null;
  sag: number | null;
  trips: number;
  overloads: number;
  flapPedal: number;
  faults: number;
  topFault: string | null;
  /** Mean trip seconds per floor pair, with how many trips. */
  travel: { from: number; to: number; trips: number; seconds: number }[];
}

export interface LiftInputs {
  measured: Figures;
  /** null: the lift's first weeks are not over yet (its baseline is the default). */
  baseline: Figures | null;
  /** The charge ratio the lift is configured with, %. */
  chargeRatioPercent: number;
  /** Hours since the alarm device's last passed self-test (or since the lift was watched). */
  alarmHours: number;
  alarmFailed: string[] | null;
}

/** Least samples in the window for a value to count. */
export const MIN_SAMPLES = { chargeRatio: 3, charges: 1, sags: 3, pairTrips: 3 } as const;

const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;

function subScore(id: ConditionFactorId, deviation: number): number {
  const r = CONDITION_FACTOR_RULES[id];
  if (deviation <= r.tolerance) return 100;
  if (deviation >= r.limit) return 0;
  return Math.round(100 * (1 - (deviation - r.tolerance) / (r.limit - r.tolerance)));
}

function factor(id: ConditionFactorId, value: number | null, baseline: number | null, baselineFrom: 'lift' | 'kind' | null, params: Record<string, string | number>, score?: number): ConditionFactor {
  const rule = CONDITION_FACTOR_RULES[id];
  const base = { id, weight: rule.weight, unit: rule.unit, value: value === null ? null : round(value, 3), baseline: baseline === null ? null : round(baseline, 3), baselineFrom };
  if (value === null || baseline === null) return { ...base, state: 'learning', score: null, points: 0, baselineFrom: null, reason: { key: `${id}.learning` as ConditionReasonKey, params } };
  const deviation = rule.deviation === 'count' ? value - baseline : baseline === 0 ? 0 : ((rule.lowerIsWorse ? -1 : 1) * (value - baseline)) / baseline;
  const s = score ?? subScore(id, deviation);
  const points = round((rule.weight * (100 - s)) / 100);
  return { ...base, state: s < 100 ? 'worse' : 'ok', score: s, points, reason: { key: `${id}.${s < 100 ? 'worse' : 'ok'}` as ConditionReasonKey, params: { ...params, percent: Math.round(Math.abs(deviation) * 100) } } };
}

/** The lift's own baseline of a value when it has one, else the default (or none). */
function pick(own: number | null | undefined, kindDefault: number | null): [number | null, 'lift' | 'kind' | null] {
  if (own !== null && own !== undefined) return [own, 'lift'];
  return kindDefault === null ? [null, null] : [kindDefault, 'kind'];
}

export function conditionFactors(input: LiftInputs): ConditionFactor[] {
  const m = input.measured;
  const b = input.baseline;
  const R = CONDITION_FACTOR_RULES;
  const per100 = (f: Figures) => (f.overloads * 100) / Math.max(f.trips, 10);
  const perDay = (n: number, f: Figures) => n / Math.max(1, f.days);
  const out: Record<ConditionFactorId, ConditionFactor> = {} as Record<ConditionFactorId, ConditionFactor>;

  const [ratioBase, ratioFrom] = pick(b?.chargeRatio, input.chargeRatioPercent / 100);
  out.batteryCharge = factor('batteryCharge', m.chargeRatio, ratioBase, ratioFrom, {
    value: m.chargeRatio === null ? '–' : round(m.chargeRatio * 100),
    baseline: ratioBase === null ? '–' : round(ratioBase * 100),
  });
  const [chargeBase, chargeFrom] = pick(b?.chargeSeconds, R.chargingTime.kindDefault);
  out.chargingTime = factor('chargingTime', m.chargeSeconds, chargeBase, chargeFrom, {
    value: m.chargeSeconds === null ? '–' : round(m.chargeSeconds / 60),
    baseline: chargeBase === null ? '–' : round(chargeBase / 60),
  });
  const [sagBase, sagFrom] = pick(b?.sag, R.voltageSag.kindDefault);
  out.voltageSag = factor('voltageSag', m.sag, sagBase, sagFrom, { value: m.sag === null ? '–' : round(m.sag, 2), baseline: sagBase === null ? '–' : round(sagBase, 2) });

  // travel: the floor pair that drifted most, among those measured enough in both spans
  let worst: { from: number; to: number; value: number; baseline: number; drift: number } | null = null;
  for (const t of m.travel) {
    const base = b?.travel.find((x) => x.from === t.from && x.to === t.to);
    if (t.trips < MIN_SAMPLES.pairTrips || !base || base.trips < MIN_SAMPLES.pairTrips) continue;
    const drift = t.seconds / base.seconds - 1;
    if (!worst || drift > worst.drift) worst = { from: t.from, to: t.to, value: t.seconds, baseline: base.seconds, drift };
  }
  out.travelTime = worst
    ? factor('travelTime', worst.value, worst.baseline, 'lift', { from: worst.from, to: worst.to, value: round(worst.value), baseline: round(worst.baseline) })
    : factor('travelTime', null, null, null, {});

  const faultBase = b ? (b.faults / Math.max(1, b.days)) * Math.max(1, m.days) : 0;
  out.faults = factor('faults', m.faults, faultBase, b ? 'lift' : 'kind', { value: m.faults, baseline: round(faultBase), code: m.topFault ?? '–', days: m.days });
  const overBase = b ? per100(b) : 0;
  out.overloads = factor('overloads', per100(m), overBase, b ? 'lift' : 'kind', { value: round(per100(m)), baseline: round(overBase), count: m.overloads });
  const flapBase = b ? perDay(b.flapPedal, b) : 0;
  out.flapPedal = factor('flapPedal', perDay(m.flapPedal, m), flapBase, b ? 'lift' : 'kind', { value: round(perDay(m.flapPedal, m)), baseline: round(flapBase), count: m.flapPedal });

  const alarmParams = { value: round(input.alarmHours), baseline: R.alarmTests.kindDefault ?? 24, failed: input.alarmFailed?.join(', ') ?? '' };
  out.alarmTests = factor('alarmTests', input.alarmHours, R.alarmTests.kindDefault, 'kind', alarmParams, input.alarmFailed ? 0 : undefined);

  return CONDITION_FACTORS.map((id) => out[id]);
}

export interface ConditionResult {
  score: number;
  factors: ConditionFactor[];
  mainFactor: ConditionFactorId | null;
  listed: boolean;
  fellBy: number | null;
  /** Days from today to the proposed visit (when listed). */
  visitInDays: number | null;
}

/** The score from the factors, and whether the lift is listed: `bestRecent` is its best score of the last 14 days before today. */
export function conditionScore(factors: ConditionFactor[], bestRecent: number | null): ConditionResult {
  const taken = factors.reduce((sum, f) => sum + f.points, 0);
  const score = Math.max(0, Math.min(100, Math.round(100 - taken)));
  const main = factors.reduce<ConditionFactor | null>((a, f) => (f.points > 0 && (!a || f.points > a.points) ? f : a), null);
  const fell = bestRecent !== null && bestRecent - score >= CONDITION_PROPOSAL.fallPoints ? bestRecent - score : null;
  const listed = main !== null && (score < CONDITION_PROPOSAL.scoreBelow || fell !== null);
  return { score, factors, mainFactor: main?.id ?? null, listed, fellBy: listed ? fell : null, visitInDays: listed ? conditionVisitInDays(score) : null };
}
