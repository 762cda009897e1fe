import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  LOGBOOK_CSV_COLUMNS,
  fileResponsesOf,
  logbookExportRequestSchema,
  logbookPageRequestSchema,
  logbookPageSchema,
  logbookVerifyRequestSchema,
  logbookVerifyResultSchema,
  responsesOf,
  type LogbookExportRequest,
} from '@liftlink/protocol';
import { ok } from '../../lib/errors.ts';
import { csvFile } from '../../lib/csv.ts';
import { ownedLift, type OwnedLift } from '../lifts/scope.ts';
import type { AuthContext } from '../../types.ts';
import { canonicalJson } from './hash.ts';
import { logbookPage, logbookRows } from './repository.ts';
import { verifyLogbook } from './verify.ts';
import { logbookPdf } from './pdf.ts';
import { pdfFont, type PdfFont } from '../../lib/pdf-font.ts';

/** Rows of one export at most (five years of a busy lift fit). */
const CSV_EXPORT_MAX = 200_000;
/** Rows of one PDF at most (some 500 pages): a longer logbook is exported a range at a time. */
const PDF_EXPORT_MAX = 10_000;

/**
 * The lift's logbook (docs/logbook.md): a page of entries, the chain's verification and the
 * CSV export. Every route loads the lift within the scope of its grant, so another
 * organization's lift is "not found"; verify and export are audited.
 */
const logbookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/lift/logbook';
  const actor = (r: { auth: { userId: string; username: string } | null; ip: string }) => ({
    userId: r.auth!.userId,
    username: r.auth!.username,
    ip: r.ip,
  });

  type Filter = Omit<LogbookExportRequest, 'liftId' | 'format' | 'timeZone'>;
  interface ExportFile {
    body: Buffer | string;
    type: string;
    rows: number;
  }

  /** The CSV: every field the hash covers, so an auditor can recompute the chain. */
  const csvExport = async (liftId: string, filter: Filter): Promise<ExportFile> => {
    const rows = await logbookRows(sql, { ...filter, liftId }, CSV_EXPORT_MAX);
    const body = csvFile(
      LOGBOOK_CSV_COLUMNS,
      rows.map((e) => [e.seq, e.ts, e.kind, e.actorId ?? '', e.actorName ?? '', canonicalJson(e.data), e.prevHash, e.hash]),
    );
    return { body, type: 'text/csv; charset=utf-8', rows: rows.length };
  };

  /** The PDF: the lift, the chain's verification now, the entries in words in the caller's language. */
  const pdfExport = async (auth: AuthContext, lift: OwnedLift, filter: Filter, timeZone: string | undefined, font: PdfFont): Promise<ExportFile> => {
    const entries = await logbookRows(sql, { ...filter, liftId: lift.id }, PDF_EXPORT_MAX);
    const verify = await verifyLogbook(sql, lift.id);
    const [names] = await sql.query<{ alias: string; maker: string | null; operator: string | null }>(
      `select l.alias, m.name as maker, o.name as operator from lifts l
         left join organizations m on m.id = l.manufacturer_org_id left join organizations o on o.id = l.operator_org_id
        where l.id = $1`,
      [lift.id],
    );
    const body = await logbookPdf({
      lift: { deviceNo: lift.device_no, alias: names?.alias ?? '', kind: lift.kind, maker: names?.maker ?? null, operator: names?.operator ?? null },
      entries,
      verify,
      filter,
      exportedAt: new Date(),
      exportedBy: auth.username,
      language: auth.language,
      timeZone: timeZone ?? 'UTC',
      font,
    });
    return { body, type: 'application/pdf', rows: entries.length };
  };

  app.post(
    `${base}/page`,
    {
      config: { access: 'lift.get' },
      schema: {
        tags: ['lifts'],
        response: responsesOf(logbookPageSchema),
        body: logbookPageRequestSchema,
      },
    },
    async (request) => {
      const lift = await ownedLift(sql, request.auth!, request.body.liftId);
      const { page, pageSize, ...filter } = request.body;
      return ok(await logbookPage(sql, { ...filter, liftId: lift.id }, page, pageSize));
    },
  );

  app.post(
    `${base}/verify`,
    {
      config: { access: 'lift.get' },
      schema: {
        tags: ['lifts'],
        response: responsesOf(logbookVerifyResultSchema),
        body: logbookVerifyRequestSchema,
      },
    },
    async (request) => {
      const lift = await ownedLift(sql, request.auth!, request.body.liftId);
      const result = await verifyLogbook(sql, lift.id);
      const detail = {
        checked: result.checked,
        headSeq: result.headSeq,
        ...(result.broken ? { brokenSeq: result.broken.seq, problem: result.broken.problem } : {}),
      };
      await app.audit({
        action: 'lift.verifyLogbook',
        result: result.ok ? 'ok' : 'failed',
        ...actor(request),
        liftId: lift.id,
        targetType: 'lift',
        targetId: lift.device_no ?? lift.id,
        detail,
      });
      return ok(result);
    },
  );

  app.post(
    `${base}/export`,
    {
      config: { access: 'lift.export' },
      schema: {
        tags: ['lifts'],
        response: {
          ...fileResponsesOf(
            'text/csv',
            'The logbook, oldest first. `format` csv (the default): CSV (UTF-8 with a byte order mark): seq, ts, kind, actorId, actorName, data (canonical JSON), prevHash, hash — every field the hash covers. `format` pdf: a PDF in the caller\'s language (times in `timeZone`, else UTC) with the lift, the range, the chain\'s verification and each entry in words with its hash shortened; 503 `logbook.pdfFont` when the server has no font for it (docs/logbook.md).',
          ),
          200: {
            description: 'The logbook as CSV or PDF (see `format`).',
            content: {
              'text/csv': { schema: z.string().meta({ format: 'binary' }) },
              'application/pdf': { schema: z.string().meta({ format: 'binary' }) },
            },
          },
        },
        body: logbookExportRequestSchema,
      },
    },
    async (request, reply) => {
      const lift = await ownedLift(sql, request.auth!, request.body.liftId);
      const { format = 'csv', timeZone, ...filter } = request.body;
      // The PDF's font first: without one nothing is read, built or audited.
      const file = format === 'pdf' ? await pdfExport(request.auth!, lift, filter, timeZone, await pdfFont()) : await csvExport(lift.id, filter);
      await app.audit({
        action: 'lift.exportLogbook',
        result: 'ok',
        ...actor(request),
        liftId: lift.id,
        targetType: 'lift',
        targetId: lift.device_no ?? lift.id,
        detail: { rows: file.rows, ...(format === 'pdf' ? { format } : {}) },
      });
      return reply
        .header('content-type', file.type)
        .header('content-disposition', `attachment; filename="logbook-${lift.device_no ?? lift.id}.${format}"`)
        // A file answer: its schema describes bytes, which the typed reply cannot express.
        .send(file.body as unknown as string);
    },
  );
};

export default logbookRoutes;
