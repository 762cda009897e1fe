import { z } from 'zod';
import { DEVICE_KINDS } from '../device/kinds.ts';
import { dateTimeSchema, pageOf } from './envelope.ts';

/**
 * Condition-based maintenance (issue 17, docs/condition.md): a score per lift, 0–100, from
 * what lifts already report, explained factor by factor. (`health` is the server's own health
 * endpoint, api/health.ts; this is the lift's condition.)
 *
 * Routes:
 * - `GET /auth/access/dashboard/condition?page=&pageSize=`  dashboard.query → conditionListSchema
 *   (the lifts in the caller's scope whose score is low or fell, worst first, with the main
 *   reason and a proposed visit)
 * - `GET /auth/access/lift/condition?liftId=`               lift.get → conditionLiftSchema
 *   (score, factors, 30-day history; a lift out of scope is `lift.notFound`)
 */

/** The factors of the score, in the order they are shown. */
export const CONDITION_FACTORS = ['batteryCharge', 'chargingTime', 'voltageSag', 'travelTime', 'faults', 'overloads', 'flapPedal', 'alarmTests'] as const;
export type ConditionFactorId = (typeof CONDITION_FACTORS)[number];

/**
 * How a factor turns its measured value into a sub-score: `deviation` is how much worse the
 * value is than the baseline (a share for relative factors, a count for counting ones); up to
 * `tolerance` the sub-score is 100, from `limit` on 0, linear between. `weight` is the most
 * points the factor can take off the score of 100 (sub-score 0 takes all of them).
 * `kindDefault` is the baseline while the lift has no baseline of its own (null: none — the
 * factor waits for the lift's own). All in one place, documented in docs/condition.md.
 */
export interface ConditionFactorRule {
  weight: number;
  tolerance: number;
  limit: number;
  /** 'relative': deviation = (value − baseline) / baseline, worse upwards (or downwards with `lowerIsWorse`); 'count': deviation = value − baseline. */
  deviation: 'relative' | 'count';
  lowerIsWorse?: boolean;
  kindDefault: number | null;
  unit: string;
}

export const CONDITION_FACTOR_RULES: Record<ConditionFactorId, ConditionFactorRule> = {
  /** Check value / charge value while at a charging node (1 = what the charge ratio promises). */
  batteryCharge: { weight: 35, tolerance: 0.02, limit: 0.08, deviation: 'relative', lowerIsWorse: true, kindDefault: 1, unit: 'ratio' },
  /** Seconds from charging on until a full battery stops it, at a standing lift. */
  chargingTime: { weight: 25, tolerance: 0.25, limit: 1.5, deviation: 'relative', kindDefault: 600, unit: 's' },
  /** Volts between the lift at rest before a trip and the lowest voltage during it. */
  voltageSag: { weight: 30, tolerance: 0.15, limit: 0.8, deviation: 'relative', kindDefault: 2.5, unit: 'V' },
  /** Seconds from the start of a trip to its arrival, the floor pair with the largest drift. */
  travelTime: { weight: 45, tolerance: 0.08, limit: 0.4, deviation: 'relative', kindDefault: null, unit: 's' },
  /** Fault entries in the measuring window, above the lift's usual number. */
  faults: { weight: 30, tolerance: 1, limit: 8, deviation: 'count', kindDefault: 0, unit: 'count' },
  /** Times the load went over the rated load, per 100 trips. */
  overloads: { weight: 10, tolerance: 3, limit: 20, deviation: 'count', kindDefault: 0, unit: 'per100trips' },
  /** Flap-not-in-place and pedal anti-collision signals per day (a flap that chatters). */
  flapPedal: { weight: 40, tolerance: 2, limit: 20, deviation: 'count', kindDefault: 0, unit: 'perDay' },
  /** Hours since the alarm device's last passed self-test, against the daily test (a failed last test scores 0); 0 at ALARM_TEST_MAX_HOURS. */
  alarmTests: { weight: 40, tolerance: 4, limit: 48, deviation: 'count', kindDefault: 24, unit: 'h' },
};

/** When a lift is listed and when its visit is proposed (docs/condition.md, "The proposal"). */
export const CONDITION_PROPOSAL = {
  /** Listed when the score is below this. */
  scoreBelow: 65,
  /** ... or when it fell by at least this many points against the best score of the last `fallDays` days. */
  fallPoints: 15,
  fallDays: 14,
  /** Proposed visit: in (score − 20) / 3 days, at least 1 and at most 14 (sooner when worse). */
  urgentScore: 20,
  pointsPerDay: 3,
  maxDays: 14,
} as const;

/** Days of figures the measured value is taken from (today and yesterday, UTC). */
export const CONDITION_MEASURE_DAYS = 2;
/** A lift's own baseline: its first days with figures; used once they lie before the measuring window. */
export const CONDITION_BASELINE_DAYS = 14;
/** Days of score history the lift page shows. */
export const CONDITION_HISTORY_DAYS = 30;

/** Days until the proposed visit for a listed lift with this score. */
export function conditionVisitInDays(score: number): number {
  const p = CONDITION_PROPOSAL;
  return Math.min(p.maxDays, Math.max(1, Math.ceil((score - p.urgentScore) / p.pointsPerDay)));
}

/** What a factor says: measured and compared (`worse` or `ok`), or still without figures or baseline (`learning`). */
export const CONDITION_STATES = ['ok', 'worse', 'learning'] as const;
export type ConditionState = (typeof CONDITION_STATES)[number];

/** The text keys of the reasons, `<factor>.<state>`, with the parameters named in docs/condition.md. */
export const CONDITION_REASON_KEYS = CONDITION_FACTORS.flatMap((f) => CONDITION_STATES.map((s) => `${f}.${s}` as const));
export type ConditionReasonKey = (typeof CONDITION_REASON_KEYS)[number];

export const conditionReasonSchema = z.strictObject({
  key: z.enum(CONDITION_REASON_KEYS),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type ConditionReason = z.infer<typeof conditionReasonSchema>;

export const conditionFactorSchema = z.strictObject({
  id: z.enum(CONDITION_FACTORS),
  state: z.enum(CONDITION_STATES),
  /** 0–100; null while learning. */
  score: z.number().nullable(),
  weight: z.number(),
  /** Points this factor takes off the score. */
  points: z.number(),
  value: z.number().nullable(),
  baseline: z.number().nullable(),
  /** Whose baseline: the lift's own first weeks, or the default for every lift. */
  baselineFrom: z.enum(['lift', 'kind']).nullable(),
  unit: z.string(),
  reason: conditionReasonSchema,
});
export type ConditionFactor = z.infer<typeof conditionFactorSchema>;

export const conditionProposalSchema = z.strictObject({
  mainFactor: z.enum(CONDITION_FACTORS),
  reason: conditionReasonSchema,
  /** Points the score fell against the best of the last 14 days (null: it did not fall that far). */
  fellBy: z.number().nullable(),
  visitOn: z.string(),
});
export type ConditionProposal = z.infer<typeof conditionProposalSchema>;

export const conditionLiftSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  /** null: not computed yet (the job runs every CONDITION_JOB_MINUTES). */
  score: z.number().nullable(),
  computedAt: dateTimeSchema.nullable(),
  factors: z.array(conditionFactorSchema),
  history: z.array(z.strictObject({ day: z.string(), score: z.number() })),
  proposal: conditionProposalSchema.nullable(),
});
export type ConditionLift = z.infer<typeof conditionLiftSchema>;

export const conditionListItemSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  alias: z.string().nullable(),
  liftKind: z.enum(DEVICE_KINDS),
  score: z.number(),
  computedAt: dateTimeSchema,
  ...conditionProposalSchema.shape,
});
export type ConditionListItem = z.infer<typeof conditionListItemSchema>;
export const conditionListSchema = pageOf(conditionListItemSchema);

export const conditionListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export const conditionLiftQuerySchema = z.strictObject({ liftId: z.uuid('validation.id') });

/** How often the server recomputes the scores, minutes. */
export const CONDITION_JOB_MINUTES = 10;
