import { Readable } from 'node:stream';
import {
  FIRMWARE_DEVICE_NO_HEADER,
  downloadTokenSchema,
  formatContentRange,
  parseRangeHeader,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { safeEqual, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { CHUNK_BYTES, readChunk, tokenGrant } from './repository.ts';

/**
 * The lift's download of an image (docs/protocol.md 11.5, docs/firmware.md): the token of its
 * offer as `Authorization: Bearer`, its device number in FIRMWARE_DEVICE_NO_HEADER. Refused
 * with 401 `firmware.tokenRefused`: no token, an unknown or expired one, one issued to
 * another lift or for another package. 410 `firmware.withdrawn` once the package is
 * withdrawn. One range `bytes=N-` / `bytes=N-M` is answered 206, a start past the end 416;
 * anything else the whole image, 200. The bytes come from the chunk rows as they are sent.
 */

const refused = () =>
  new AppError('firmware.tokenRefused', null, undefined, {
    'www-authenticate': 'Bearer error="invalid_token"',
  });

export interface ImageAnswer {
  status: 200 | 206;
  headers: Record<string, string>;
  body: Readable;
}

export async function imageDownload(
  sql: SqlExecutor,
  packageId: string,
  headers: Record<string, string | string[] | undefined>,
  now = new Date(),
): Promise<ImageAnswer> {
  const authorization = typeof headers.authorization === 'string' ? headers.authorization : '';
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  const token = match?.[1] ?? '';
  const deviceNo = headers[FIRMWARE_DEVICE_NO_HEADER];
  if (!downloadTokenSchema.safeParse(token).success || typeof deviceNo !== 'string')
    throw refused();
  const grant = await tokenGrant(sql, sha256(token));
  if (
    !grant ||
    grant.packageId !== packageId ||
    !grant.deviceNo ||
    !safeEqual(grant.deviceNo, deviceNo.trim()) ||
    grant.expiresAt.getTime() <= now.getTime()
  )
    throw refused();
  if (grant.state === 'withdrawn') throw new AppError('firmware.withdrawn');
  if (grant.state !== 'ready' || grant.size === null || grant.sha256 === null)
    throw new AppError('firmware.notReady');
  const size = grant.size;
  const range = parseRangeHeader(typeof headers.range === 'string' ? headers.range : null, size);
  const common = {
    'content-type': 'application/octet-stream',
    'accept-ranges': 'bytes',
    etag: `"${grant.sha256}"`,
    'cache-control': 'no-store',
  };
  if (range.kind === 'unsatisfiable')
    throw new AppError('firmware.range', { size }, undefined, {
      'content-range': formatContentRange(null, size),
      'accept-ranges': 'bytes',
    });
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : size - 1;
  return {
    status: range.kind === 'partial' ? 206 : 200,
    headers: {
      ...common,
      'content-length': String(end - start + 1),
      ...(range.kind === 'partial'
        ? { 'content-range': formatContentRange({ start, end }, size) }
        : {}),
    },
    body: Readable.from(chunks(sql, packageId, start, end), { objectMode: false }),
  };
}

/** Bytes `start`…`end` (inclusive), one chunk row at a time; stops when the package is withdrawn meanwhile. */
async function* chunks(
  sql: SqlExecutor,
  packageId: string,
  start: number,
  end: number,
): AsyncGenerator<Buffer> {
  for (let no = Math.floor(start / CHUNK_BYTES); no <= Math.floor(end / CHUNK_BYTES); no += 1) {
    const data = await readChunk(sql, packageId, no);
    // Withdrawn meanwhile: the body ends early and the lift's hash check never passes.
    if (!data) throw new Error(`chunk ${no} of package ${packageId} is gone`);
    const offset = no * CHUNK_BYTES;
    yield data.subarray(Math.max(0, start - offset), Math.min(data.length, end - offset + 1));
  }
}
