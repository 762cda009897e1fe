import { createHash } from 'node:crypto';
import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_INCIDENT_PHOTOS,
  MAX_INCIDENT_PHOTO_BYTES,
  fileResponsesOf,
  incidentPhotoFileQuerySchema,
  incidentPhotoListSchema,
  incidentPhotoQuerySchema,
  incidentPhotoSchema,
  responsesOf,
  sniffPhotoType,
  type IncidentPhoto,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError, ok } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { appendLogbook } from '../logbook/append.ts';
import { incidentMessage, type Executor } from './repository.ts';

/**
 * Photos on incidents (docs/service.md), stored like documents (modules/documents): the bytes
 * in the database with their type, size and SHA-256. The upload's body is the image itself
 * (`image/*` or `application/octet-stream`), one photo per request: the web client sends the
 * camera's file as it is, with no multipart parser on the server and no base64 third more on
 * a slow network. Its type is read from its first bytes; anything but JPEG, PNG or WebP, or a
 * file over MAX_INCIDENT_PHOTO_BYTES, is refused and nothing is stored. Each photo is audited
 * and written to the lift's logbook (its SHA-256), and told live to open screens.
 */

interface PhotoRow {
  id: string;
  incident_id: string;
  content_type: IncidentPhoto['contentType'];
  size: number;
  sha256: string;
  added_by: string | null;
  added_by_name: string;
  added_at: Date;
}

const COLUMNS = 'p.id, p.incident_id, p.content_type, p.size, p.sha256, p.added_by, p.added_by_name, p.added_at';

const toPhoto = (r: PhotoRow): IncidentPhoto => ({
  id: r.id,
  incidentId: Number(r.incident_id),
  contentType: r.content_type,
  size: Number(r.size),
  sha256: r.sha256,
  addedById: r.added_by,
  addedByName: r.added_by_name,
  addedAt: new Date(r.added_at).toISOString(),
});

/** The incident's id and lift, if the caller's grant for the route reaches its lift; "not found" otherwise. */
async function scopedIncident(sql: Executor, auth: AuthContext, id: number): Promise<{ id: number; liftId: string }> {
  const scope = liftFilter(auth, 2);
  const [row] = await sql.query<{ id: string; lift_id: string }>(
    `select i.id, i.lift_id from incidents i join lifts l on l.id = i.lift_id where i.id = $1 and ${scope.where}`,
    scope.param ? [id, scope.param] : [id],
  );
  if (!row) throw new AppError('incident.notFound');
  return { id: Number(row.id), liftId: row.lift_id };
}

export async function photosOf(sql: Executor, incidentId: number): Promise<IncidentPhoto[]> {
  const rows = await sql.query<PhotoRow>(`select ${COLUMNS} from incident_photos p where p.incident_id = $1 order by p.added_at, p.id`, [incidentId]);
  return rows.map(toPhoto);
}

/** A photo's bytes and type, if the caller's grant reaches the lift of its incident. */
async function photoFile(sql: SqlExecutor, auth: AuthContext, id: string): Promise<{ content_type: string; data: Uint8Array; sha256: string } | null> {
  const scope = liftFilter(auth, 2);
  const [row] = await sql.query<{ content_type: string; data: Uint8Array; sha256: string }>(
    `select p.content_type, p.data, p.sha256 from incident_photos p join incidents i on i.id = p.incident_id join lifts l on l.id = i.lift_id
      where p.id = $1 and ${scope.where}`,
    scope.param ? [id, scope.param] : [id],
  );
  return row ?? null;
}

const incidentPhotoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sql } = app.database;
  const base = '/auth/access/incidents/photos';
  const tags = ['incidents'];

  // The image as the body; these parsers and the error mapping live only in this plugin's scope.
  const raw = { parseAs: 'buffer', bodyLimit: MAX_INCIDENT_PHOTO_BYTES } as const;
  app.addContentTypeParser('application/octet-stream', raw, (_request, body, done) => done(null, body));
  app.addContentTypeParser(/^image\//, raw, (_request, body, done) => done(null, body));
  app.setErrorHandler((err: FastifyError) => {
    // Too large for the parser: refused before anything is read further; the others go to the app's handler.
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError('incident.photoTooLarge', { maxBytes: MAX_INCIDENT_PHOTO_BYTES });
    throw err;
  });

  app.get(base, { config: { access: 'incident.get' }, schema: { tags, response: responsesOf(incidentPhotoListSchema), querystring: incidentPhotoQuerySchema } }, async (request) => {
    const incident = await scopedIncident(sql, request.auth!, request.query.id);
    return ok({ list: await photosOf(sql, incident.id) });
  });

  app.get(
    `${base}/file`,
    {
      config: { access: 'incident.get' },
      schema: { tags, response: fileResponsesOf('image/jpeg', 'The photo as it was taken: image/jpeg, image/png or image/webp.'), querystring: incidentPhotoFileQuerySchema },
    },
    async (request, reply) => {
      const row = await photoFile(sql, request.auth!, request.query.id);
      if (!row) throw new AppError('incident.photoNotFound');
      return reply
        .header('content-type', row.content_type)
        .header('content-disposition', 'inline')
        .header('x-content-type-options', 'nosniff')
        // A photo never changes: its id names these bytes for good.
        .header('cache-control', 'private, max-age=86400, immutable')
        .header('etag', `"${row.sha256}"`)
        // A file answer: its schema describes bytes, which the typed reply cannot express.
        .send(Buffer.from(row.data) as unknown as string);
    },
  );

  app.post(
    `${base}/add`,
    { config: { access: 'incident.edit' }, bodyLimit: MAX_INCIDENT_PHOTO_BYTES, schema: { tags, response: responsesOf(incidentPhotoSchema), querystring: incidentPhotoQuerySchema } },
    async (request) => {
      const auth = request.auth!;
      const incident = await scopedIncident(sql, auth, request.query.id);
      const data = Buffer.isBuffer(request.body) ? request.body : null;
      if (!data || data.length === 0) throw new AppError('validation.failed', { issues: [{ path: 'file', message: 'validation.required' }] });
      if (data.length > MAX_INCIDENT_PHOTO_BYTES) throw new AppError('incident.photoTooLarge', { maxBytes: MAX_INCIDENT_PHOTO_BYTES });
      const type = sniffPhotoType(data);
      if (!type) throw new AppError('incident.photoType');
      const sha256 = createHash('sha256').update(data).digest('hex');
      const photo = await sql.transaction(async (tx) => {
        const [count] = await tx.query<{ n: string }>(`select count(*) as n from incident_photos where incident_id = $1`, [incident.id]);
        if (Number(count!.n) >= MAX_INCIDENT_PHOTOS) return null;
        const [row] = await tx.query<PhotoRow>(
          `insert into incident_photos as p (incident_id, content_type, size, sha256, data, added_by, added_by_name) values ($1, $2, $3, $4, $5, $6, $7) returning ${COLUMNS}`,
          [incident.id, type, data.length, sha256, data, auth.userId, auth.username],
        );
        const added = toPhoto(row!);
        // The logbook keeps the photo's fingerprint: a photo swapped later no longer matches it.
        await appendLogbook(tx, {
          liftId: incident.liftId,
          kind: 'incident',
          actor: { id: auth.userId, name: auth.username },
          data: { incidentId: incident.id, photo: { id: added.id, contentType: type, size: added.size, sha256 } },
        });
        return added;
      });
      if (!photo) throw new AppError('incident.photoLimit', { max: MAX_INCIDENT_PHOTOS });
      await app.audit({
        action: 'incident.photo',
        result: 'ok',
        userId: auth.userId,
        username: auth.username,
        ip: request.ip,
        liftId: incident.liftId,
        targetType: 'incident',
        targetId: String(incident.id),
        detail: { incidentId: incident.id, photoId: photo.id, size: photo.size, sha256 },
      });
      await app.live.publish([await incidentMessage(sql, incident.id)]).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
      return ok(photo);
    },
  );
};

export default incidentPhotoRoutes;
