import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LANGUAGES, fileResponsesOf, reportFileQuerySchema, reportGenerateSchema, reportListQuerySchema, reportListSchema, reportTargetsSchema, reportViewSchema, responsesOf, type Language } from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { monthlyReportJob } from './job.ts';
import { listReports, reportById, reportBytes, reportTargets } from './repository.ts';
import { buildReport, inScope, reportScope } from './service.ts';

/** The caller's language as a report language (an unknown one: the default). */
const languageOf = (lang: string): Language => ((LANGUAGES as readonly string[]).includes(lang) ? (lang as Language) : 'zh-CN');

/**
 * Scheduled reports (docs/reports.md): list, build on demand, download the PDF or the CSV.
 * Every route needs `dashboard.query`, and the report's organization within its scope
 * (`reportScope`): another organization's report is "not found". Builds and downloads are
 * audited like the other exports.
 */
export default fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { sql } = app.database;
    app.jobs.add(monthlyReportJob);
    const base = '/auth/access/dashboard/reports';
    const tags = ['reports'];
    const actor = (request: FastifyRequest) => ({ userId: request.auth!.userId, username: request.auth!.username, ip: request.ip });

    app.get(base, { config: { access: 'dashboard.query' }, schema: { tags, response: responsesOf(reportListSchema), querystring: reportListQuerySchema } }, async (request) =>
      ok({ list: await listReports(sql, reportScope(request.auth!), request.query) }),
    );

    app.get(`${base}/targets`, { config: { access: 'dashboard.query' }, schema: { tags, response: responsesOf(reportTargetsSchema) } }, async (request) => ok({ list: await reportTargets(sql, reportScope(request.auth!)) }));

    app.post(`${base}/generate`, { config: { access: 'dashboard.query' }, schema: { tags, response: responsesOf(reportViewSchema), body: reportGenerateSchema } }, async (request) => {
      const auth = request.auth!;
      const { orgId, site, month } = request.body;
      if (!inScope(reportScope(auth), orgId)) throw new AppError('org.notFound');
      const language = request.body.language ?? languageOf(auth.language);
      const { view } = await buildReport(sql, { orgId, site: site ?? null, month, language, by: { id: auth.userId, name: auth.username }, now: new Date() });
      await app.audit({ action: 'report.generate', result: 'ok', ...actor(request), targetType: 'org', targetId: orgId, detail: { month, site: site ?? null, language } });
      return ok(view);
    });

    const download = (format: 'pdf' | 'csv') => async (request: FastifyRequest<{ Querystring: { id: string } }>, reply: FastifyReply) => {
      const report = await reportById(sql, request.query.id, reportScope(request.auth!));
      if (!report) throw new AppError('report.notFound');
      const body = await reportBytes(sql, report.id, format);
      await app.audit({ action: 'report.download', result: 'ok', ...actor(request), targetType: 'org', targetId: report.orgId, detail: { month: report.month, site: report.site, format } });
      const name = `report-${report.month}${report.site ? '-site' : ''}-${report.language}.${format}`;
      return reply
        .header('content-type', format === 'pdf' ? 'application/pdf' : 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(body);
    };

    app.get(`${base}/pdf`, { config: { access: 'dashboard.query' }, schema: { tags, querystring: reportFileQuerySchema, response: fileResponsesOf('application/pdf', 'The report as a PDF in its language (docs/reports.md).') } }, download('pdf'));

    app.get(`${base}/csv`, { config: { access: 'dashboard.query' }, schema: { tags, querystring: reportFileQuerySchema, response: fileResponsesOf('text/csv', 'The report\'s rows and total as CSV (UTF-8 with a byte order mark), the header in the report\'s language (docs/reports.md).') } }, download('csv'));
  },
  { name: 'liftlink-reports', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database', 'audit', 'mailer'] } },
);
