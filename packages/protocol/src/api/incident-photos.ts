import { z } from 'zod';
import { dateTimeSchema } from './envelope.ts';

/**
 * Photos on an incident (docs/service.md): what a technician saw on site, taken with the
 * phone's camera. Stored like documents (the bytes in the database with type, size and
 * SHA-256); only JPEG, PNG and WebP, recognised by their first bytes (not by the name or
 * the declared type), at most MAX_INCIDENT_PHOTO_BYTES each. Routes under
 * `/auth/access/incidents/photos`:
 * - `POST photos/add?id=<incident>`: the body is the image itself (`image/*` or
 *   `application/octet-stream`), one photo per request (`incident.edit`);
 * - `GET photos?id=<incident>`: the incident's photos, oldest first (`incident.get`);
 * - `GET photos/file?id=<photo>`: the image (`incident.get`).
 * Each is within the scope of the caller's grant: a photo of an incident on a lift out of
 * reach is "not found".
 */

/** The image types stored. */
export const INCIDENT_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export type IncidentPhotoType = (typeof INCIDENT_PHOTO_TYPES)[number];

/** The largest photo stored: a phone camera's JPEG is 2–6 MB. */
export const MAX_INCIDENT_PHOTO_BYTES = 10 * 1024 * 1024;

/** The most photos one incident takes. */
export const MAX_INCIDENT_PHOTOS = 50;

/**
 * The image type of a file from its first bytes (its "magic number"), or null when it is none
 * of the stored types: JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, WebP `RIFF....WEBP`.
 */
export function sniffPhotoType(bytes: Uint8Array): IncidentPhotoType | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

const incidentId = z.coerce.number('validation.id').int('validation.id').positive('validation.id').max(Number.MAX_SAFE_INTEGER, 'validation.id');

/** One photo: who added it and when, its type and size (the image itself: `photos/file`). */
export const incidentPhotoSchema = z.strictObject({
  id: z.string(),
  incidentId: z.number(),
  contentType: z.enum(INCIDENT_PHOTO_TYPES),
  size: z.number(),
  sha256: z.string(),
  addedById: z.string().nullable(),
  addedByName: z.string(),
  addedAt: dateTimeSchema,
});
export type IncidentPhoto = z.infer<typeof incidentPhotoSchema>;

export const incidentPhotoListSchema = z.strictObject({ list: z.array(incidentPhotoSchema) });
/** `POST photos/add?id=` and `GET photos?id=`: the incident. */
export const incidentPhotoQuerySchema = z.strictObject({ id: incidentId });
/** `GET photos/file?id=`: the photo. */
export const incidentPhotoFileQuerySchema = z.strictObject({ id: z.uuid('validation.id') });
