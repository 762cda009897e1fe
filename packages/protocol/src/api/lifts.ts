import { z } from 'zod';
import { DEVICE_KINDS, type DeviceKind } from '../device/kinds.ts';
import { commandNameSchema, type CommandState, type RefusalReason } from '../device/commands.ts';
import type { LiftStatus } from '../device/status.ts';
import type { ConfigIssue, LiftConfig } from '../device/config.ts';

/** Request and answer shapes of the lift API (spec section 7), shared by server and web. */
const liftId = z.uuid('validation.id');
const boolString = z.enum(['true', 'false']).transform((v) => v === 'true');

export const LIFT_SORT_KEYS = ['deviceNo', 'alias', 'kind', 'online', 'lastSeen', 'floor'] as const;

export const liftListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  keyword: z.string().trim().max(100).optional(),
  kind: z.enum(DEVICE_KINDS).optional(),
  online: boolString.optional(),
  fault: boolString.optional(),
  sort: z.enum(LIFT_SORT_KEYS).default('deviceNo'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

export const liftIdBodySchema = z.strictObject({ liftId });

export const runLogQuerySchema = z.strictObject({
  liftId,
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
  /** Comma-separated event codes, e.g. `RZY2,RZD2`. */
  codes: z
    .string()
    .max(400)
    .regex(/^[A-Za-z0-9]+(,[A-Za-z0-9]+)*$/, 'validation.codes')
    .optional(),
  class: z.enum(['state', 'fault']).optional(),
  lang: z.enum(['zh-CN', 'en-US', 'ru-RU']).optional(),
});

export const aliasUpdateSchema = z.strictObject({ liftId, alias: z.string().trim().max(60, 'validation.tooLong') });

export const liftLocationSchema = z.strictObject({
  address: z.string().trim().min(1, 'validation.locationMissing').max(200, 'validation.tooLong'),
  site: z.string().trim().max(100, 'validation.tooLong').optional(),
  latitude: z.number().min(-90, 'validation.latitude').max(90, 'validation.latitude').optional(),
  longitude: z.number().min(-180, 'validation.longitude').max(180, 'validation.longitude').optional(),
  contact: z.string().trim().max(100, 'validation.tooLong').optional(),
  notes: z.string().trim().max(500, 'validation.tooLong').optional(),
});
export type LiftLocation = z.infer<typeof liftLocationSchema>;
export const locationUpdateSchema = z.strictObject({ liftId, location: liftLocationSchema });

export const iotInfoSchema = z.strictObject({
  iccid: z.string().trim().regex(/^[0-9]{18,22}$/, 'validation.iccid').optional(),
  carrier: z.string().trim().max(60, 'validation.tooLong').optional(),
  apn: z.string().trim().max(60, 'validation.tooLong').optional(),
  notes: z.string().trim().max(300, 'validation.tooLong').optional(),
});
export const iotUpdateSchema = z.strictObject({ liftId, iotInfo: iotInfoSchema });

/** `POST /auth/access/lift/control`: `args` is checked against the lift's floors on the server. */
export const controlSchema = z.strictObject({
  liftId,
  command: commandNameSchema,
  args: z.record(z.string().max(32), z.unknown()).default({}),
});

export const runSettingUpdateSchema = z.strictObject({
  liftId,
  config: z.record(z.string().max(64), z.union([z.number(), z.boolean(), z.string().max(64)])),
  /** The configuration version the edit started from. */
  version: z.number().int().min(0),
  confirmReconfigure: z.boolean().optional(),
});

export const configLogQuerySchema = z.strictObject({
  liftId,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

export const daysQuerySchema = z.strictObject({ liftId, days: z.coerce.number().int().min(1).max(365).default(30) });
export const hoursQuerySchema = z.strictObject({ liftId, hours: z.coerce.number().int().min(1).max(168).default(6) });

export interface LiftListItem {
  id: string;
  deviceNo: string | null;
  alias: string;
  kind: DeviceKind;
  online: boolean;
  mode: string | null;
  floor: number | null;
  floors: number;
  firmware: string;
  activeFault: string | null;
  lastSeenAt: string | null;
  location: Partial<LiftLocation>;
}

export interface LiftStats {
  onlineMsTotal: number;
  onlineMsToday: number;
  tripsTotal: number;
  tripsToday: number;
}

export interface LiftInfo {
  lift: LiftListItem & { iotInfo: Record<string, string>; configVersion: number; onlineSince: string | null };
  status: LiftStatus | null;
  config: LiftConfig | null;
  stats: LiftStats;
}

export interface RunLogEntry {
  id: number;
  ts: string;
  code: string;
  text: string;
  fault: boolean;
  floor: number | null;
}

export interface CommandResult {
  commandId: string;
  state: CommandState;
  reason: RefusalReason | null;
  reasonText: string | null;
  issues?: ConfigIssue[];
}
