import type { FastifyInstance } from 'fastify';
import {
  FIRMWARE_FORMAT_VERSION,
  FIRMWARE_OFFER_TOPIC,
  FIRMWARE_SEQ_MAX,
  FIRMWARE_TOKEN_TTL_MS,
  firmwareTime,
  type FirmwareEnvelope,
  type FirmwareManifest,
  type FirmwareWindow,
  liftTopic,
} from '@liftlink/protocol';
import { signManifest } from '@liftlink/protocol/firmware-signature';
import { newToken, sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { FirmwareKeys } from './keys.ts';
import { findPackage, issueOffer, offerLift } from './repository.ts';

/** The path of a package's image on this server (docs/protocol.md 11.5). */
export const imagePath = (packageId: string) => `/api/iot/firmware/${packageId}/image`;

/**
 * The image's address in the manifest: absolute on PUBLIC_URL when that is https (lifts
 * provisioned so far hold only their broker address), else the path, which a lift resolves
 * against the HTTPS address it was given.
 */
export function downloadUrl(publicUrl: string, packageId: string): string {
  const base = new URL(publicUrl);
  return base.protocol === 'https:'
    ? new URL(imagePath(packageId), base).toString()
    : imagePath(packageId);
}

export interface Offer {
  envelope: FirmwareEnvelope;
  manifest: FirmwareManifest;
  /** Only in the manifest; the server keeps its SHA-256. */
  token: string;
  tokenExpiresAt: Date;
}

/**
 * Builds and signs one lift's offer of a package (what `firmware/offer` carries): the lift's
 * next offer number, a new download token for this lift and package valid
 * FIRMWARE_TOKEN_TTL_MS, signed with the package organization's key. Refuses a package that
 * is not ready (`firmware.notReady`, `firmware.withdrawn`) and a lift it is not made for: of
 * another kind, or made by another organization (its lifts do not trust that key). Who may
 * offer what to which lift is the caller's question (campaigns).
 */
export async function buildOffer(
  app: FastifyInstance,
  keys: FirmwareKeys,
  o: {
    packageId: string;
    liftId: string;
    campaignId?: string;
    window?: FirmwareWindow;
    now?: Date;
  },
): Promise<Offer> {
  const { sql } = app.database;
  const pkg = await findPackage(sql, o.packageId);
  if (!pkg) throw new AppError('firmware.notFound');
  if (pkg.state === 'withdrawn') throw new AppError('firmware.withdrawn');
  if (pkg.state !== 'ready' || pkg.size === null || pkg.sha256 === null)
    throw new AppError('firmware.notReady');
  const lift = await offerLift(sql, o.liftId);
  if (!lift) throw new AppError('lift.notFound');
  if (!lift.deviceNo) throw new AppError('lift.noDeviceNo');
  if (lift.manufacturerOrgId !== pkg.orgId || !pkg.kinds.includes(lift.kind))
    throw new AppError('firmware.notForLift', { kind: lift.kind, kinds: pkg.kinds });
  const key = await keys.forOrg(pkg.orgId);
  const issuedAt = o.now ?? new Date();
  const tokenExpiresAt = new Date(issuedAt.getTime() + FIRMWARE_TOKEN_TTL_MS);
  const token = newToken();
  const seq = await issueOffer(sql, {
    liftId: lift.id,
    packageId: pkg.id,
    version: pkg.version,
    campaignId: o.campaignId ?? null,
    tokenHash: sha256(token),
    expiresAt: tokenExpiresAt,
  });
  if (seq > FIRMWARE_SEQ_MAX) throw new Error(`offer numbers of lift ${lift.id} are exhausted`);
  const manifest: FirmwareManifest = {
    v: FIRMWARE_FORMAT_VERSION,
    ...(o.campaignId ? { campaignId: o.campaignId } : {}),
    packageId: pkg.id,
    deviceNo: lift.deviceNo,
    seq,
    kinds: pkg.kinds,
    version: pkg.version,
    minVersion: pkg.minVersion,
    size: pkg.size,
    sha256: pkg.sha256,
    url: downloadUrl(app.config.publicUrl, pkg.id),
    token,
    tokenExpiresAt: firmwareTime(tokenExpiresAt),
    issuedAt: firmwareTime(issuedAt),
    ...(o.window ? { window: o.window } : {}),
  };
  return { envelope: signManifest(manifest, key.privateKey), manifest, token, tokenExpiresAt };
}

/**
 * Builds a lift's offer and sends it on `lifts/{deviceNo}/firmware/offer`. The broker keeps
 * it no longer than its download token lives (as a command until its expiry, plugins/mqtt.ts):
 * a lift that comes back later is offered again, with a new number and token.
 */
export async function sendOffer(
  app: FastifyInstance,
  keys: FirmwareKeys,
  o: Parameters<typeof buildOffer>[2],
): Promise<Offer> {
  const offer = await buildOffer(app, keys, o);
  await app.publishCommand(
    liftTopic(offer.manifest.deviceNo, FIRMWARE_OFFER_TOPIC),
    JSON.stringify(offer.envelope),
    offer.tokenExpiresAt,
  );
  return offer;
}
