import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { monthSchema } from './availability.ts';

/**
 * Scheduled reports (docs/reports.md): an organization's or a site's availability report of
 * one UTC month, as a PDF in one language and a CSV of the same rows, kept on the server.
 * The monthly job builds last month's reports for the users who chose the mail
 * (notification setting `mailReport`); anyone with `dashboard.query` over the organization
 * builds one on demand.
 *
 * Routes (all `dashboard.query`, the organization within the caller's scope):
 * - `GET  /auth/access/dashboard/reports?orgId=&month=`   ← reportListQuerySchema → reportListSchema
 * - `POST /auth/access/dashboard/reports/generate`        ← reportGenerateSchema → reportViewSchema
 * - `GET  /auth/access/dashboard/reports/pdf?id=`         ← reportFileQuerySchema → application/pdf
 * - `GET  /auth/access/dashboard/reports/csv?id=`         ← reportFileQuerySchema → text/csv
 * - `GET  /auth/access/dashboard/reports/targets`         → reportTargetsSchema
 */

/** The current UTC month, `YYYY-MM`. */
export function currentMonth(now: Date = new Date()): string {
  return `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
}

const site = z.string().trim().max(100, 'validation.tooLong');

export const reportGenerateSchema = z.strictObject({
  orgId: z.uuid('validation.id'),
  /** A site of the organization (a lift's location.site); absent: the organization's report. */
  site: site.min(1, 'validation.required').optional(),
  /** The month reported; the current month counts up to now, a later one is refused. */
  month: monthSchema.refine((m) => m <= currentMonth(), 'validation.monthFuture'),
  /** The report's language; absent: the caller's. */
  language: z.enum(LANGUAGES, 'validation.invalid').optional(),
});
export type ReportGenerateRequest = z.infer<typeof reportGenerateSchema>;

export const reportListQuerySchema = z.strictObject({
  orgId: z.uuid('validation.id').optional(),
  month: monthSchema.optional(),
});
export type ReportListQuery = z.infer<typeof reportListQuerySchema>;

export const reportFileQuerySchema = z.strictObject({ id: z.uuid('validation.id') });

export const reportViewSchema = z.strictObject({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  /** The site reported; null: the whole organization. */
  site: z.string().nullable(),
  month: monthSchema,
  language: z.enum(LANGUAGES),
  createdAt: z.string(),
  /** Who built it on demand; null: the monthly job. */
  createdBy: z.string().nullable(),
  pdfSize: z.number().int().min(0),
  csvSize: z.number().int().min(0),
});
export type ReportView = z.infer<typeof reportViewSchema>;

/** The stored reports the caller may read, newest month first (at most REPORT_LIST_MAX). */
export const reportListSchema = z.strictObject({ list: z.array(reportViewSchema) });
export type ReportList = z.infer<typeof reportListSchema>;

export const REPORT_LIST_MAX = 500;

/** What the caller may build reports of: the organizations in scope and their lifts' sites. */
export const reportTargetsSchema = z.strictObject({
  list: z.array(z.strictObject({ orgId: z.string(), orgName: z.string(), sites: z.array(z.string()) })),
});
export type ReportTargets = z.infer<typeof reportTargetsSchema>;
