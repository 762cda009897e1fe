import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { DEVICE_KINDS, deviceKindSchema } from '../device/kinds.ts';
import {
  firmwareAtLeast,
  firmwareKeyIdSchema,
  firmwareVersionSchema,
  sha256HexSchema,
} from '../device/firmware.ts';
import { dateTimeSchema, listOf } from './envelope.ts';

/**
 * Firmware packages on the server (docs/firmware.md): a manufacturer organization's images,
 * each for one or more lift kinds, stored in chunks, signed per offer with the
 * organization's Ed25519 key (docs/protocol.md section 11).
 *
 * Routes (packages of the caller's organization; every organization's for a caller who may
 * administer organizations, `org.edit`):
 * - `GET  /auth/access/firmware/packages?state=`       firmware.query  → firmwarePackageListSchema
 * - `GET  /auth/access/firmware/packages/get?id=`      firmware.query  → firmwarePackageSchema
 * - `POST /auth/access/firmware/packages/create`       firmware.add    ← firmwarePackageCreateSchema → firmwarePackageSchema
 * - `POST /auth/access/firmware/packages/upload?id=`   firmware.add    ← the image as application/octet-stream → firmwarePackageSchema
 * - `POST /auth/access/firmware/packages/withdraw`     firmware.delete ← firmwarePackageIdSchema → firmwarePackageSchema
 * - `GET  /manufacture/firmware/signing-key?orgId=`    manufacture.add → firmwareSigningKeySchema (what the bench writes to lifts)
 * - `GET  /api/iot/firmware/:packageId/image`          the lift: `Authorization: Bearer <token>` and FIRMWARE_DEVICE_NO_HEADER, optional `Range`
 */

/** The header in which a lift names its device number when it downloads an image. */
export const FIRMWARE_DEVICE_NO_HEADER = 'x-device-no';

/** The longest release note, per language. */
export const FIRMWARE_NOTES_MAX = 4000;

export const FIRMWARE_PACKAGE_STATES = ['uploading', 'ready', 'withdrawn'] as const;
export type FirmwarePackageState = (typeof FIRMWARE_PACKAGE_STATES)[number];

const notes = z.string().trim().max(FIRMWARE_NOTES_MAX, 'validation.tooLong');

/** Release notes in the three languages; a language left out is empty. */
export const firmwareReleaseNotesSchema = z.strictObject(
  Object.fromEntries(LANGUAGES.map((l) => [l, notes.optional()])) as Record<
    (typeof LANGUAGES)[number],
    z.ZodOptional<typeof notes>
  >,
);

/**
 * A new package: its metadata; the image follows with `upload`. `kinds`: the lift kinds the
 * image is built for, each once. `minVersion`: the lowest version it may be installed over,
 * never above `version`.
 */
export const firmwarePackageCreateSchema = z
  .strictObject({
    kinds: z.array(deviceKindSchema).min(1, 'validation.required').max(DEVICE_KINDS.length),
    version: firmwareVersionSchema,
    minVersion: firmwareVersionSchema,
    releaseNotes: firmwareReleaseNotesSchema.optional(),
  })
  .superRefine((p, ctx) => {
    if (new Set(p.kinds).size !== p.kinds.length)
      ctx.addIssue({ code: 'custom', path: ['kinds'], message: 'validation.invalid' });
    if (!firmwareAtLeast(p.version, p.minVersion))
      ctx.addIssue({ code: 'custom', path: ['minVersion'], message: 'validation.invalid' });
  });
export type FirmwarePackageCreate = z.infer<typeof firmwarePackageCreateSchema>;

export const firmwarePackageIdSchema = z.strictObject({ id: z.uuid('validation.id') });
export const firmwarePackageListQuerySchema = z.strictObject({
  state: z.enum(FIRMWARE_PACKAGE_STATES).optional(),
});

export const firmwarePackageSchema = z.strictObject({
  id: z.string(),
  orgId: z.string(),
  orgName: z.string(),
  kinds: z.array(deviceKindSchema),
  version: z.string(),
  minVersion: z.string(),
  releaseNotes: z.strictObject({ 'zh-CN': z.string(), 'en-US': z.string(), 'ru-RU': z.string() }),
  /** Null until the image is uploaded. */
  size: z.number().nullable(),
  sha256: sha256HexSchema.nullable(),
  state: z.enum(FIRMWARE_PACKAGE_STATES),
  createdByName: z.string(),
  createdAt: dateTimeSchema,
  withdrawnByName: z.string().nullable(),
  withdrawnAt: dateTimeSchema.nullable(),
});
export type FirmwarePackage = z.infer<typeof firmwarePackageSchema>;
export const firmwarePackageListSchema = listOf(firmwarePackageSchema);

export const firmwareSigningKeyQuerySchema = z.strictObject({
  orgId: z.uuid('validation.id').optional(),
});

/** An organization's signing key, public half: what the factory bench writes into its lifts. */
export const firmwareSigningKeySchema = z.strictObject({
  orgId: z.string(),
  keyId: firmwareKeyIdSchema,
  /** The raw 32-byte Ed25519 public key, standard base64. */
  publicKey: z.string(),
  /** `generated`: kept encrypted in the database; `file`: FIRMWARE_SIGNING_KEY_FILE. */
  source: z.enum(['generated', 'file']),
});
export type FirmwareSigningKey = z.infer<typeof firmwareSigningKeySchema>;

export const firmwareImageParamsSchema = z.strictObject({ packageId: z.uuid('validation.id') });
