import type { FastifyInstance } from 'fastify';
import { LANGUAGES, scopeOf, type Language, type Permission } from '@liftlink/protocol';
import type { JobDefinition } from '../jobs/plugin.ts';
import type { SqlExecutor } from '../../db/client.ts';
import { fill } from '../../lib/pdf.ts';
import { addMonths } from './figures.ts';
import { buildReport, type BuiltReport } from './service.ts';
import { REPORT_TEXTS, formatCount, formatMonth, formatPercent } from './texts.ts';

/**
 * The monthly report (docs/reports.md). From the first day of a month at the configured hour
 * (UTC) on, each user who chose it (notification setting `mailReport`), has an address, is
 * active, belongs to an organization and holds `dashboard.query` gets last month's report of
 * their organization in their language, the PDF attached, with links to download it and the
 * reports of the organization's sites (built and stored for them too). Reports are stored
 * once per organization, site, month and language, whoever needs them first. A user is mailed
 * once per month: a row in `report_mail_marks`, inserted in the transaction that sends the
 * mail, claims it, so two instances mail a user once and a failed send is tried again at the
 * next run.
 */

/** The month whose reports are due at `now`: the previous month once its successor's first day reached `hour`; else none. */
export function dueReportMonth(now: Date, hour: number): string | null {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, hour));
  if (now < start) return null;
  const current = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return addMonths(current, -1);
}

interface Recipient {
  id: string;
  email: string;
  language: string;
  org_id: string;
  permissions: Permission[];
}

interface OrgReports {
  report: BuiltReport;
  sites: BuiltReport[];
}

/** The organization's report of the month and one per site of it (lifts without a site are in the organization's only). */
async function buildOrgReports(sql: SqlExecutor, orgId: string, month: string, language: Language, now: Date): Promise<OrgReports> {
  const report = await buildReport(sql, { orgId, site: null, month, language, by: null, now });
  const sites: BuiltReport[] = [];
  for (const row of report.content.current.rows) if (row.key !== '') sites.push(await buildReport(sql, { orgId, site: row.key, month, language, by: null, now }));
  return { report, sites };
}

/** The mail's text: the month's figures in a line, the links to the reports, how to stop it. */
function mailText(org: OrgReports, publicUrl: string): string {
  const { content } = org.report;
  const lang = content.language;
  const tr = (key: keyof typeof REPORT_TEXTS, values?: Record<string, string | number>) => fill(REPORT_TEXTS[key], lang, values);
  const link = (id: string) => `${publicUrl}/dashboard/reports?id=${id}`;
  const total = content.current.total;
  return [
    tr('mailIntro', { org: content.orgName, month: formatMonth(content.month, lang) }),
    tr('mailFigures', { availability: formatPercent(total.availability, lang), trips: formatCount(total.trips, lang), failures: formatCount(total.failures, lang) }),
    '',
    tr('mailLinks'),
    link(org.report.view.id),
    ...(org.sites.length ? ['', tr('mailSites'), ...org.sites.map((s) => `- ${s.content.site}: ${link(s.view.id)}`)] : []),
    '',
    tr('mailOptOut'),
    '',
  ].join('\n');
}

export async function sendMonthlyReports(app: FastifyInstance, signal: AbortSignal, now = new Date()): Promise<Record<string, number>> {
  const month = dueReportMonth(now, app.config.reportMailHour);
  if (!month) return { mails: 0, reports: 0 };
  const { sql } = app.database;
  const candidates = await sql.query<Recipient>(
    `select u.id, u.email, u.language, u.org_id, r.permissions from users u join roles r on r.id = u.role_id
      where u.status = 'active' and u.email is not null and u.org_id is not null and coalesce((u.notifications->>'mailReport')::boolean, false)
        and not exists (select 1 from report_mail_marks m where m.user_id = u.id and m.month = $1)
      order by u.id limit 1000`,
    [month],
  );
  let mails = 0;
  let reports = 0;
  // One organization's reports in one language serve all its recipients of that language.
  const built = new Map<string, Promise<OrgReports>>();
  for (const user of candidates) {
    if (signal.aborted) break;
    // Who may read the dashboards may read the report; nobody else gets it by mail.
    if (!scopeOf(user.permissions, 'dashboard.query')) continue;
    const lang: Language = (LANGUAGES as readonly string[]).includes(user.language) ? (user.language as Language) : 'zh-CN';
    const key = `${user.org_id}/${lang}`;
    if (!built.has(key)) {
      built.set(key, buildOrgReports(sql, user.org_id, month, lang, now));
      reports += 1 + (await built.get(key)!).sites.length;
    }
    const org = await built.get(key)!;
    const mailed = await sql.transaction(async (tx) => {
      // The claim: only one transaction inserts this user's mark for the month.
      const claimed = await tx.query(`insert into report_mail_marks (user_id, month) values ($1, $2) on conflict do nothing returning user_id`, [user.id, month]);
      if (!claimed.length) return false;
      const [stored] = await tx.query<{ pdf: Uint8Array }>('select pdf from reports where id = $1', [org.report.view.id]);
      await app.mailer.send({ to: user.email, subject: fill(REPORT_TEXTS.mailSubject, lang, { month, org: org.report.content.orgName }), text: mailText(org, app.config.publicUrl), attachments: [{ filename: `report-${month}-${lang}.pdf`, content: Buffer.from(stored!.pdf), contentType: 'application/pdf' }] });
      return true;
    });
    if (mailed) mails += 1;
  }
  return { mails, reports };
}

/** Looks every 10 minutes whether last month's reports are due (`app.jobs.run('monthly-report')` runs it now). */
export const monthlyReportJob: JobDefinition = {
  name: 'monthly-report',
  everyMs: 10 * 60_000,
  firstAfterMs: 90_000,
  run: (app, signal) => sendMonthlyReports(app, signal),
};
