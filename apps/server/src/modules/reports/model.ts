import type { AvailabilityReport, Language } from '@liftlink/protocol';

/** What one report says: whose, which month, and the figures read for it. */
export interface ReportContent {
  orgName: string;
  /** Null: the organization's report (a row per site); else the site's (a row per lift). */
  site: string | null;
  month: string;
  language: Language;
  generatedAt: Date;
  /** The user who asked for it; null: the monthly job. */
  generatedBy: string | null;
  /** The 12 months up to `month`: the charts. */
  year: AvailabilityReport;
  /** `month` alone: the key figures, the state times and the table. */
  current: AvailabilityReport;
}

/** The report's rows with the names they show (a site without a name: `noSite`), by name in the language's order. */
export function namedRows(content: ReportContent, noSite: string): AvailabilityReport['rows'] {
  return content.current.rows.map((r) => ({ ...r, name: r.name === '' ? noSite : r.name })).sort((a, b) => a.name.localeCompare(b.name, content.language));
}
