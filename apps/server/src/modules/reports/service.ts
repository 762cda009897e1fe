import type { Language, ReportView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { pdfFont } from '../../lib/pdf-font.ts';
import type { AuthContext } from '../../types.ts';
import { authorize } from '../access/policy.ts';
import { reportCsv } from './csv.ts';
import { reportFigures } from './figures.ts';
import type { ReportContent } from './model.ts';
import { reportPdf } from './pdf.ts';
import { findReport, orgName, saveReport, type OrgScope } from './repository.ts';

/**
 * Whose reports a caller reads and builds: `dashboard.query` over every lift reaches every
 * organization; a narrower grant only the caller's own organization (its figures are of the
 * lifts it operates or made). An organization outside answers "not found".
 */
export function reportScope(auth: AuthContext): OrgScope {
  const grant = authorize(auth, 'dashboard.query');
  if (!grant) return [];
  if (grant.scope === 'all') return 'all';
  return grant.orgId ? [grant.orgId] : [];
}

export function inScope(scope: OrgScope, orgId: string): boolean {
  return scope === 'all' || scope.includes(orgId);
}

export interface BuildRequest {
  orgId: string;
  site: string | null;
  month: string;
  language: Language;
  /** The user who asked (id and name); null: the monthly job. */
  by: { id: string; name: string } | null;
  now: Date;
}

export interface BuiltReport {
  view: ReportView;
  content: ReportContent;
}

/**
 * Builds a report's PDF and CSV from the figures now and stores it: on demand it replaces the
 * stored one; for the monthly job a report another instance stored first is kept. Answers the
 * stored report and what it says.
 */
export async function buildReport(sql: SqlExecutor, r: BuildRequest): Promise<BuiltReport> {
  // The font first: without one nothing is read or stored.
  const font = await pdfFont();
  const name = await orgName(sql, r.orgId);
  if (name === null) throw new AppError('org.notFound');
  const { year, current } = await reportFigures(sql, r.orgId, r.site, r.month, r.now);
  const content: ReportContent = { orgName: name, site: r.site, month: r.month, language: r.language, generatedAt: r.now, generatedBy: r.by?.name ?? null, year, current };
  const pdf = await reportPdf(content, font);
  await saveReport(sql, { orgId: r.orgId, site: r.site, month: r.month, language: r.language, pdf, csv: reportCsv(content), createdBy: r.by?.id ?? null }, r.by !== null);
  const view = await findReport(sql, r.orgId, r.site, r.month, r.language);
  return { view: view!, content };
}
