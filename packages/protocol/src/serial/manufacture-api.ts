import { z } from 'zod';
import { deviceKindSchema, deviceNoSchema, floorCountSchema, type DeviceKind } from '../device/kinds.ts';
import type { LiftConfig } from '../device/config.ts';
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

export const SERIAL_LOG_STEPS = ['handshake', 'writeDeviceNo', 'writeCredentials', 'writeConfig', 'saveConfig', 'writeChannel', 'writeConversions', 'writePort'] as const;
/** `POST /manufacture/lift/serial/log`: the page reports a step it did over the serial link, for the audit log. */
export const serialLogSchema = z.strictObject({
  step: z.enum(SERIAL_LOG_STEPS),
  result: z.enum(['ok', 'failed']),
  controllerSerial: controllerSerialSchema,
  deviceNo: deviceNoSchema.nullable(),
  /** What was written (never a secret), or the failure code. */
  detail: z.record(z.string().max(40), z.unknown()).optional(),
});

export interface ManufactureLift {
  id: string;
  deviceNo: string | null;
  kind: DeviceKind;
  floors: number;
  firmware: string;
  controllerSerial: string | null;
  online: boolean;
  lastSeenAt: string | null;
  hasCredentials: boolean;
  iotIssuedAt: string | null;
  configVersion: number;
  config: LiftConfig | null;
}

/** The answer of `getNewIot`: the secret appears here once and is stored only hashed. */
export interface NewIotCredentials {
  liftId: string;
  deviceNo: string;
  secret: string;
  mqttUrl: string;
  issuedAt: string;
}

export interface PairingCode {
  code: string;
  expiresAt: string;
}

export const pairVerifySchema = z.strictObject({ code: z.string().max(20) });

/** Documents (manuals per device kind, the bridge package, uploads). */
export const DOCUMENT_KINDS = ['manual', 'bridge', 'other'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export interface DocumentView {
  id: string;
  name: string;
  kind: DocumentKind;
  deviceKind: DeviceKind | null;
  contentType: string;
  size: number;
  builtIn: boolean;
  uploadedBy: string | null;
  createdAt: string;
}
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
