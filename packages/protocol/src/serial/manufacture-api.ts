import { z } from 'zod';
import { deviceKindSchema, deviceNoSchema, floorCountSchema } from '../device/kinds.ts';
import { liftConfigValuesSchema } from '../api/lifts.ts';
import { configVersionSchema, wireConfigSchema } from '../mqtt/payloads.ts';
import { controllerSerialSchema, firmwareSchema } from './messages.ts';

/** Request and answer shapes of the factory bench API (`/manufacture/...`, spec section 7). */
const liftId = z.uuid('validation.id');

/** A lift by id or by device number (exactly one). */
export const liftRefQuerySchema = z
  .strictObject({ liftId: liftId.optional(), deviceNo: deviceNoSchema.optional() })
  .refine((q) => (q.liftId === undefined) !== (q.deviceNo === undefined), { message: 'validation.required', path: ['liftId'] });

/** `GET /manufacture/lift/lookup`: the lift record of the controller on the bench. */
export const liftLookupQuerySchema = z
  .strictObject({ deviceNo: deviceNoSchema.optional(), controllerSerial: controllerSerialSchema.optional() })
  .refine((q) => q.deviceNo !== undefined || q.controllerSerial !== undefined, { message: 'validation.required', path: ['deviceNo'] });

/**
 * `POST /manufacture/lift/updateLiftIotInfo`. `assign`: give the controller a new device
 * number (creates the lift record; the number must be free). `update`: the controller
 * already holds `deviceNo`; its record must belong to this controller serial.
 */
export const updateLiftIotInfoSchema = z.strictObject({
  mode: z.enum(['assign', 'update']),
  deviceNo: deviceNoSchema,
  kind: deviceKindSchema,
  floors: floorCountSchema,
  firmware: firmwareSchema,
  controllerSerial: controllerSerialSchema,
});
export type UpdateLiftIotInfo = z.infer<typeof updateLiftIotInfoSchema>;

export const resetIotSchema = z.strictObject({ liftId });

/** `setLiftConfig` (every field) and `run/config/set` (the run fields only). */
export const manufactureConfigSchema = z.strictObject({
  liftId,
  config: wireConfigSchema,
  version: configVersionSchema,
  confirmReconfigure: z.boolean().optional(),
});

export const SERIAL_LOG_STEPS = ['handshake', 'writeDeviceNo', 'writeCredentials', 'writeConfig', 'saveConfig', 'writeChannel', 'writeConversions', 'writePort', 'writeFirmwareKeys'] as const;
/** `POST /manufacture/lift/serial/log`: the page reports a step it did over the serial link, for the audit log. */
export const serialLogSchema = z.strictObject({
  step: z.enum(SERIAL_LOG_STEPS),
  result: z.enum(['ok', 'failed']),
  controllerSerial: controllerSerialSchema,
  deviceNo: deviceNoSchema.nullable(),
  /** What was written (never a secret), or the failure code. */
  detail: z.record(z.string().max(40), z.unknown()).optional(),
});

/** A lift as the factory bench sees it. */
export const manufactureLiftSchema = z.strictObject({
  id: z.string(),
  deviceNo: z.string().nullable(),
  kind: deviceKindSchema,
  floors: z.number(),
  firmware: z.string(),
  controllerSerial: z.string().nullable(),
  online: z.boolean(),
  lastSeenAt: z.string().nullable(),
  hasCredentials: z.boolean(),
  iotIssuedAt: z.string().nullable(),
  configVersion: z.number(),
  config: liftConfigValuesSchema.nullable(),
});
export type ManufactureLift = z.infer<typeof manufactureLiftSchema>;

/** `GET /manufacture/lift/lookup`: the visible lift record, and whether the device number is held by another controller. */
export const liftLookupResultSchema = z.strictObject({ lift: manufactureLiftSchema.nullable(), deviceNoTaken: z.boolean() });
/** `POST /manufacture/lift/updateLiftIotInfo`: the lift record after the change. */
export const liftIotInfoResultSchema = z.strictObject({ liftId: z.string(), lift: manufactureLiftSchema });

/** The answer of `getNewIot`: the secret appears here once and is stored only hashed. */
export const newIotCredentialsSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  secret: z.string(),
  mqttUrl: z.string(),
  issuedAt: z.string(),
});
export type NewIotCredentials = z.infer<typeof newIotCredentialsSchema>;

/** A one-time code that pairs the serial bridge with the signed-in user. */
export const pairingCodeResultSchema = z.strictObject({ code: z.string(), expiresAt: z.string() });
export type PairingCode = z.infer<typeof pairingCodeResultSchema>;
/** The bridge's answer after spending a pairing code: whom it now acts for. */
export const pairVerifyResultSchema = z.strictObject({ user: z.string() });

export const pairVerifySchema = z.strictObject({ code: z.string().max(20) });

/** Documents (manuals per device kind, the bridge package, uploads). */
export const DOCUMENT_KINDS = ['manual', 'bridge', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const documentViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  deviceKind: deviceKindSchema.nullable(),
  contentType: z.string(),
  size: z.number(),
  builtIn: z.boolean(),
  uploadedBy: z.string().nullable(),
  createdAt: z.string(),
});
export type DocumentView = z.infer<typeof documentViewSchema>;
export const documentUploadQuerySchema = z.strictObject({
  name: z.string().trim().min(1, 'validation.required').max(200, 'validation.tooLong'),
  kind: z.enum(DOCUMENT_KINDS).default('other'),
  deviceKind: deviceKindSchema.optional(),
});
export const documentIdSchema = z.strictObject({ id: liftId });
export const MAX_DOCUMENT_BYTES = 20 * 1024 * 1024;

/** Spec section 7: in a download name, slashes become underscores and '#' the full-width '＃'. */
export function documentDownloadName(name: string): string {
  return name.replace(/[/\\]/g, '_').replace(/#/g, '＃');
}

export function documentDownloadPath(id: string, name: string): string {
  return `/api/document/download/${id}/${encodeURIComponent(documentDownloadName(name))}`;
}
