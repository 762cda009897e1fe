import { z } from 'zod';

/**
 * Availability and reliability figures (docs/insight.md, "Availability").
 *
 * Time is cut into UTC calendar months. Within a month every millisecond of every lift is in
 * exactly one availability state, decided in this order (the first that holds wins):
 *
 * 1. `maintenance`  a declared maintenance window covers the lift (counted apart: planned);
 * 2. `offline`      the lift is not connected (from its ONLINE / OFFLINE transitions);
 * 3. `faulted`      its last status lists an active fault;
 * 4. `stopped`      its mode is `emergency` (an emergency stop: an unplanned stop);
 * 5. `locked`       its mode is `lockout` (locked by an engineer);
 * 6. `disabled`     its mode is `disabled`;
 * 7. `inService`    otherwise.
 *
 * availability = inService / (month's time − maintenance), null when nothing is left.
 * MTBF = inService time / failures, a failure being a transition into `faulted`: the lift's active
 * fault appearing (none listed → one listed; a lift that reconnects still listing it is the same failure).
 * MTTA = mean of (acknowledged − opened) of the incidents acknowledged in the month;
 * MTTR = mean of (resolved − opened) of the incidents resolved in the month.
 * Time is booked when the state changes, at the message's time clamped to [the state's start, now]
 * (a lift clock ahead of ours books nothing of the future); the open interval counts up to now.
 * Ingest keeps the figures per lift and month as it stores the lift's messages; nothing here
 * scans the run log.
 *
 * Routes:
 * - `GET /auth/access/dashboard/availability?level=&orgId=&site=&liftId=&from=&to=`  dashboard.query
 *   ← availabilityQuerySchema → availabilityReportSchema
 */

export const AVAILABILITY_STATES = ['inService', 'faulted', 'stopped', 'locked', 'disabled', 'offline', 'maintenance'] as const;
export type AvailabilityState = (typeof AVAILABILITY_STATES)[number];

/** How far the figures are cut: the caller's organizations, one organization's sites, one site's lifts, or one lift. */
export const AVAILABILITY_LEVELS = ['orgs', 'sites', 'lifts', 'lift'] as const;
export type AvailabilityLevel = (typeof AVAILABILITY_LEVELS)[number];

/** A UTC calendar month, `YYYY-MM`. */
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'validation.month');

/** The most months one request covers. */
export const AVAILABILITY_MONTHS_MAX = 24;

function monthIndex(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return y * 12 + m - 1;
}

/** The months from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i++) out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return out;
}

export const availabilityQuerySchema = z
  .strictObject({
    level: z.enum(AVAILABILITY_LEVELS, 'validation.invalid'),
    /** Required for `sites` and `lifts`. */
    orgId: z.uuid('validation.id').optional(),
    /** For `lifts`: the site (a lift's location.site); '' is the lifts without a site. */
    site: z.string().max(100, 'validation.tooLong').optional(),
    /** Required for `lift`. */
    liftId: z.uuid('validation.id').optional(),
    from: monthSchema,
    to: monthSchema,
  })
  .superRefine((q, ctx) => {
    if ((q.level === 'sites' || q.level === 'lifts') && !q.orgId) ctx.addIssue({ code: 'custom', path: ['orgId'], message: 'validation.required' });
    if (q.level === 'lifts' && q.site === undefined) ctx.addIssue({ code: 'custom', path: ['site'], message: 'validation.required' });
    if (q.level === 'lift' && !q.liftId) ctx.addIssue({ code: 'custom', path: ['liftId'], message: 'validation.required' });
    if (monthIndex(q.to) < monthIndex(q.from)) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.monthOrder' });
    else if (monthIndex(q.to) - monthIndex(q.from) + 1 > AVAILABILITY_MONTHS_MAX) ctx.addIssue({ code: 'custom', path: ['to'], message: 'validation.monthSpan' });
  });
export type AvailabilityQuery = z.infer<typeof availabilityQuerySchema>;

const ms = z.number().int().min(0);

/** Milliseconds in each state. */
export const stateTimesSchema = z.strictObject(Object.fromEntries(AVAILABILITY_STATES.map((s) => [s, ms])) as Record<AvailabilityState, typeof ms>);
export type StateTimes = z.infer<typeof stateTimesSchema>;

/** The figures of one row (a whole span, or one month of it). */
export const availabilityFiguresSchema = z.strictObject({
  /** Time counted in each state, ms (lift-milliseconds: a site of 3 lifts has 3 × the month). */
  times: stateTimesSchema,
  /** inService / (total − maintenance), 0..1; null when no time is left to count. */
  availability: z.number().min(0).max(1).nullable(),
  trips: z.number().int().min(0),
  /** Transitions into `faulted` (an active fault appearing). */
  failures: z.number().int().min(0),
  incidents: z.number().int().min(0),
  /** Mean time to acknowledge, ms; null: none acknowledged. */
  mtta: ms.nullable(),
  /** Mean time to restore (opened → resolved), ms; null: none resolved. */
  mttr: ms.nullable(),
  /** Mean time between failures (inService / failures), ms; null: no failure. */
  mtbf: ms.nullable(),
});
export type AvailabilityFigures = z.infer<typeof availabilityFiguresSchema>;

export const availabilityRowSchema = z.strictObject({
  /** What the row is: an organization id, a site name ('' = no site), or a lift id. */
  key: z.string(),
  /** Its name: the organization's name, the site, the lift's alias or device number. */
  name: z.string(),
  /** How many lifts it holds now. */
  lifts: z.number().int().min(0),
  figures: availabilityFiguresSchema,
});
export type AvailabilityRow = z.infer<typeof availabilityRowSchema>;

export const availabilityReportSchema = z.strictObject({
  level: z.enum(AVAILABILITY_LEVELS),
  from: monthSchema,
  to: monthSchema,
  /** Figures of everything the report covers, per month (for the charts). */
  months: z.array(z.strictObject({ month: monthSchema, figures: availabilityFiguresSchema })),
  /** Figures of everything the report covers, the whole span. */
  total: availabilityFiguresSchema,
  /** One row per organization, site or lift of the level (for `lift`: the lift itself), the whole span. */
  rows: z.array(availabilityRowSchema),
  /** When the figures were read; the current month counts up to this moment. */
  asOf: z.string(),
});
export type AvailabilityReport = z.infer<typeof availabilityReportSchema>;

/** Availability from state times: inService over the time not under maintenance. */
export function availabilityOf(times: StateTimes): number | null {
  const counted = AVAILABILITY_STATES.reduce((sum, s) => sum + (s === 'maintenance' ? 0 : times[s]), 0);
  return counted > 0 ? times.inService / counted : null;
}
