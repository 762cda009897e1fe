import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  LANGUAGES,
  type FirmwarePackage,
  type FirmwarePackageCreate,
  type FirmwarePackageState,
} from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { authorize } from '../access/policy.ts';
import {
  CHUNK_BYTES,
  abandonUpload,
  claimUpload,
  completeUpload,
  findPackage,
  insertChunk,
  insertPackage,
  listPackages,
  organizationKind,
  withdrawPackage,
} from './repository.ts';

/**
 * Firmware packages (docs/firmware.md). A package belongs to the organization of the user who
 * created it, which must be a manufacturer. A caller sees and manages its organization's
 * packages; one who may administer organizations (`org.edit`, the administrator) every
 * organization's. A package out of reach is "not found".
 */

/** Whether the caller reaches every organization's packages. */
export function reachesAllOrganizations(auth: AuthContext): boolean {
  return authorize(auth, 'org.edit') !== null;
}

/** The package, if the caller reaches its organization. */
export async function packageInReach(
  app: FastifyInstance,
  auth: AuthContext,
  id: string,
): Promise<FirmwarePackage> {
  const pkg = await findPackage(app.database.sql, id);
  if (!pkg || (!reachesAllOrganizations(auth) && pkg.orgId !== auth.orgId))
    throw new AppError('firmware.notFound');
  return pkg;
}

export async function packagesInReach(
  app: FastifyInstance,
  auth: AuthContext,
  state: FirmwarePackageState | undefined,
): Promise<FirmwarePackage[]> {
  if (reachesAllOrganizations(auth)) return listPackages(app.database.sql, null, state);
  if (!auth.orgId) return [];
  return listPackages(app.database.sql, auth.orgId, state);
}

/** The organization the caller acts for on firmware: its own, a manufacturer. */
export async function manufacturerOf(app: FastifyInstance, orgId: string | null): Promise<string> {
  if (!orgId || (await organizationKind(app.database.sql, orgId)) !== 'manufacturer')
    throw new AppError('firmware.notManufacturer');
  return orgId;
}

const audit = (
  app: FastifyInstance,
  request: FastifyRequest,
  action: 'firmware.create' | 'firmware.upload' | 'firmware.withdraw',
  pkg: FirmwarePackage,
  detail: Record<string, unknown>,
) =>
  app.audit({
    action,
    result: 'ok',
    userId: request.auth!.userId,
    username: request.auth!.username,
    ip: request.ip,
    targetType: 'firmware',
    targetId: pkg.id,
    detail: { orgId: pkg.orgId, version: pkg.version, ...detail },
  });

export async function createPackage(
  app: FastifyInstance,
  request: FastifyRequest,
  input: FirmwarePackageCreate,
): Promise<FirmwarePackage> {
  const auth = request.auth!;
  const orgId = await manufacturerOf(app, auth.orgId);
  const notes = Object.fromEntries(
    LANGUAGES.map((l) => [l, input.releaseNotes?.[l] ?? '']),
  ) as Record<(typeof LANGUAGES)[number], string>;
  const pkg = await insertPackage(app.database.sql, {
    orgId,
    kinds: input.kinds,
    version: input.version,
    minVersion: input.minVersion,
    notes: { zh: notes['zh-CN'], en: notes['en-US'], ru: notes['ru-RU'] },
    userId: auth.userId,
    username: auth.username,
  });
  if (!pkg) throw new AppError('firmware.exists', { version: input.version });
  await audit(app, request, 'firmware.create', pkg, {
    minVersion: pkg.minVersion,
    kinds: pkg.kinds,
  });
  return pkg;
}

/**
 * Stores the request body as the package's image: read as it arrives, written in chunks of
 * CHUNK_BYTES, hashed on the way; never held whole in memory. An empty body, one over
 * FIRMWARE_MAX_BYTES, a broken connection or a second upload leaves the package as it was
 * (`uploading`, no chunks; or `ready` with its first image).
 */
export async function uploadImage(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
  body: unknown,
): Promise<FirmwarePackage> {
  const auth = request.auth!;
  const { sql } = app.database;
  const maxBytes = app.config.firmware.maxBytes;
  const pkg = await packageInReach(app, auth, id);
  if (pkg.state === 'withdrawn') throw new AppError('firmware.withdrawn');
  if (pkg.state !== 'uploading') throw new AppError('firmware.uploaded');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new AppError('firmware.tooLarge', { maxBytes }, undefined, { connection: 'close' });
  const stream = isReadable(body) ? body : null;
  if (!stream)
    throw new AppError('validation.failed', {
      issues: [{ path: 'file', message: 'validation.required' }],
    });

  const claim = randomUUID();
  if (!(await claimUpload(sql, id, claim))) throw new AppError('firmware.uploaded');
  const hash = createHash('sha256');
  let size = 0;
  let chunkNo = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const flush = async (all: boolean) => {
    while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
      const joined = Buffer.concat(pending, pendingBytes);
      const chunk = joined.subarray(0, Math.min(CHUNK_BYTES, joined.length));
      const rest = joined.subarray(chunk.length);
      await insertChunk(sql, id, chunkNo, Buffer.from(chunk));
      chunkNo += 1;
      pending = rest.length ? [rest] : [];
      pendingBytes = rest.length;
    }
  };
  try {
    // Not destroyed when the loop stops early: the refusal still has to reach the client.
    for await (const piece of stream.iterator({ destroyOnReturn: false })) {
      const buf = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as string);
      size += buf.length;
      // The rest is never read: the answer closes the connection.
      if (size > maxBytes)
        throw new AppError('firmware.tooLarge', { maxBytes }, undefined, { connection: 'close' });
      hash.update(buf);
      pending.push(buf);
      pendingBytes += buf.length;
      if (pendingBytes >= CHUNK_BYTES) await flush(false);
    }
    if (size === 0)
      throw new AppError('validation.failed', {
        issues: [{ path: 'file', message: 'validation.required' }],
      });
    await flush(true);
  } catch (err) {
    await abandonUpload(sql, id, claim);
    throw err;
  }
  const sha256 = hash.digest('hex');
  if (!(await completeUpload(sql, id, claim, size, sha256))) {
    await abandonUpload(sql, id, claim);
    throw new AppError('firmware.uploaded');
  }
  const ready = (await findPackage(sql, id))!;
  await audit(app, request, 'firmware.upload', ready, { size, sha256 });
  return ready;
}

function isReadable(body: unknown): body is Readable {
  return (
    !!body &&
    typeof (body as Readable).pipe === 'function' &&
    typeof (body as Readable)[Symbol.asyncIterator] === 'function'
  );
}

export async function withdraw(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<FirmwarePackage> {
  const auth = request.auth!;
  await packageInReach(app, auth, id);
  if (!(await withdrawPackage(app.database.sql, id, auth.userId, auth.username)))
    throw new AppError('firmware.withdrawn');
  const after = (await findPackage(app.database.sql, id))!;
  await audit(app, request, 'firmware.withdraw', after, {});
  return after;
}
