import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LANGUAGES, auditActionName, auditResultText, auditSummary, fileResponsesOf, operationLogPageSchema, responsesOf } from '@liftlink/protocol';
import { z } from 'zod';
import { ok } from '../../lib/errors.ts';
import { csvFile } from '../../lib/csv.ts';
import { queryOplog } from './repository.ts';

const querySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  liftId: z.uuid().optional(),
  username: z.string().trim().max(64).optional(),
  action: z.string().trim().regex(/^[a-zA-Z.]{1,40}$/, 'validation.invalid').optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
/** The export also takes the language of its words (the page's), else the user's. */
const exportQuerySchema = querySchema.extend({ lang: z.enum(LANGUAGES).optional() });

const EXPORT_MAX = 100_000;

const oplogRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;

  app.get('/auth/access/operation-log', { config: { access: 'operationLog.query' }, schema: { tags: ['operation log'], response: responsesOf(operationLogPageSchema), querystring: querySchema } }, async (request) => {
    const q = request.query;
    return ok(await queryOplog(sql, request.auth!, q, q.pageSize, (q.page - 1) * q.pageSize));
  });

  app.get('/auth/access/operation-log/export', { config: { access: 'operationLog.export' }, schema: { tags: ['operation log'], response: fileResponsesOf('text/csv', 'The operation log as CSV (UTF-8 with a byte order mark): time, user, lift, action, result, detail; action, result and detail in words of the language asked for.'), querystring: exportQuerySchema } }, async (request, reply) => {
    const lang = request.query.lang ?? request.auth!.language;
    const { list } = await queryOplog(sql, request.auth!, request.query, EXPORT_MAX, 0);
    // The same words as the operation log page: protocol's table names and summarizes every action.
    const rows = list.map((r) => [r.ts, r.username ?? '', r.deviceNo ?? r.liftId, auditActionName(r.action, lang), auditResultText(r.result, lang), auditSummary(r.action, r.detail, lang)]);
    await app.audit({ action: 'operationLog.export', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, detail: { rows: list.length } });
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="operation-log.csv"')
      .send(csvFile(['time', 'user', 'lift', 'action', 'result', 'detail'], rows));
  });
};

export default oplogRoutes;
