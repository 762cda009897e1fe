import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DOCUMENT_KINDS,
  MAX_DOCUMENT_BYTES,
  documentDownloadName,
  documentIdSchema,
  documentUploadQuerySchema,
  documentViewSchema,
  emptyResultSchema,
  fileResponsesOf,
  listOf,
  responsesOf,
} from '@liftlink/protocol';
import { AppError, ok } from '../../lib/errors.ts';
import { deleteDocument, documentFile, insertDocument, listDocuments } from './repository.ts';
import { seedDocuments, storeSeedDocuments } from './seed-documents.ts';

/** Types served as themselves; anything else (HTML, scripts) is served as bytes to download. */
const SAFE_TYPES = /^(application\/(pdf|zip|gzip|x-gzip|x-tar|octet-stream|vnd\.openxmlformats-officedocument\.[\w.]+|msword|vnd\.ms-excel)|text\/(plain|markdown|csv)|image\/(png|jpeg|gif|webp))(;\s*charset=[\w-]+)?$/i;
const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  zip: 'application/zip',
  tgz: 'application/gzip',
  gz: 'application/gzip',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
};

function contentTypeFor(name: string, given: string | undefined): string {
  const type = given?.trim() ?? '';
  if (type && SAFE_TYPES.test(type) && !/^application\/octet-stream/i.test(type)) return type;
  return BY_EXTENSION[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** RFC 6266 / 5987: an ASCII fallback name and the exact UTF-8 name. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * Stored documents: the manuals per device kind and the serial bridge package (seeded at
 * start), and what a manufacturer uploads. Download path (spec section 7):
 * `/api/document/download/{id}/{name}`; the file is sent under its stored name with
 * slashes as underscores and '#' as the full-width '＃'.
 */
const documentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  await storeSeedDocuments(sql, await seedDocuments());

  // Uploads arrive as the raw file; this parser lives only in this plugin's scope.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_DOCUMENT_BYTES }, (_request, body, done) => done(null, body));

  app.get(
    '/api/document/list',
    { config: { access: 'document.query' }, schema: { tags: ['documents'], response: responsesOf(listOf(documentViewSchema)), querystring: z.strictObject({ kind: z.enum(DOCUMENT_KINDS).optional() }) } },
    async (request) => {
      return ok({ list: await listDocuments(sql, request.query.kind ?? null) });
    },
  );

  app.get(
    '/api/document/download/:id/:name',
    {
      config: { access: 'document.query' },
      schema: {
        tags: ['documents'],
        response: fileResponsesOf('application/octet-stream', 'The file under its stored name; its stored type when that is a safe one (PDF, archives, office documents, plain text, Markdown, CSV, images), bytes to download otherwise.'),
        params: z.strictObject({ id: z.uuid('validation.id'), name: z.string().max(400) }),
      },
    },
    async (request, reply) => {
      const row = await documentFile(sql, request.params.id);
      if (!row) throw new AppError('document.notFound');
      return reply
        .header('content-type', SAFE_TYPES.test(row.content_type) ? row.content_type : 'application/octet-stream')
        .header('content-disposition', contentDisposition(documentDownloadName(row.name)))
        .header('cache-control', 'private, no-cache')
        // A file answer: its schema describes bytes, which the typed reply cannot express.
        .send(Buffer.from(row.data) as unknown as string);
    },
  );

  app.post(
    '/api/document/upload',
    { config: { access: 'document.import' }, bodyLimit: MAX_DOCUMENT_BYTES, schema: { tags: ['documents'], response: responsesOf(documentViewSchema), querystring: documentUploadQuerySchema } },
    async (request) => {
      // The web client sends application/octet-stream; a text body from another client is taken as it is.
      const data = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
      if (!Buffer.isBuffer(data) || data.length === 0) throw new AppError('validation.failed', { issues: [{ path: 'file', message: 'validation.required' }] });
      const { name, kind, deviceKind } = request.query;
      const type = contentTypeFor(name, request.headers['content-type']);
      const sha = createHash('sha256').update(data).digest('hex');
      const doc = await insertDocument(sql, { name, kind, deviceKind: deviceKind ?? null, contentType: type, sha256: sha, data, uploadedBy: request.auth!.username });
      await app.audit({ action: 'document.upload', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'document', targetId: doc.id, detail: { name, kind, size: data.length, sha256: sha } });
      return ok(doc);
    },
  );

  app.post('/api/document/delete', { config: { access: 'document.delete' }, schema: { tags: ['documents'], response: responsesOf(emptyResultSchema), body: documentIdSchema } }, async (request) => {
    const row = await deleteDocument(sql, request.body.id);
    if (!row) throw new AppError('document.notFound');
    await app.audit({ action: 'document.delete', result: 'ok', userId: request.auth!.userId, username: request.auth!.username, ip: request.ip, targetType: 'document', targetId: request.body.id, detail: { name: row.name } });
    return ok(null);
  });
};

export default documentRoutes;
