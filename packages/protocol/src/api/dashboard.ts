import { z } from 'zod';

/** Answer shapes of the fleet dashboards (`/auth/access/dashboard/...`). */
export const ATTENTION_REASONS = ['fault', 'lowBattery', 'offline'] as const;

export const workplaceDashboardSchema = z.strictObject({
  counts: z.strictObject({ total: z.number(), online: z.number(), offline: z.number(), fault: z.number() }),
  /** Lifts needing attention: faults first, then low batteries, then lifts offline for over an hour. */
  attention: z.array(
    z.strictObject({
      liftId: z.string(),
      deviceNo: z.string().nullable(),
      alias: z.string(),
      reason: z.enum(ATTENTION_REASONS),
      since: z.string().nullable(),
      code: z.string().nullable(),
    }),
  ),
  recentEvents: z.array(
    z.strictObject({
      id: z.number(),
      liftId: z.string(),
      deviceNo: z.string().nullable(),
      ts: z.string(),
      code: z.string(),
      fault: z.boolean(),
      text: z.string(),
    }),
  ),
});
export type WorkplaceDashboard = z.infer<typeof workplaceDashboardSchema>;

const codeCount = z.strictObject({ code: z.string(), count: z.number() });

export const analysisDashboardSchema = z.strictObject({
  tripsToday: z.number(),
  trips30d: z.array(z.strictObject({ day: z.string(), trips: z.number() })),
  /** Share of the fleet online now, 0..1. */
  onlineRatio: z.number(),
  faults24h: z.array(codeCount),
  faults7d: z.array(codeCount),
  topLifts: z.array(z.strictObject({ liftId: z.string(), deviceNo: z.string().nullable(), alias: z.string(), trips: z.number() })),
});
export type AnalysisDashboard = z.infer<typeof analysisDashboardSchema>;
