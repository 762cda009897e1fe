import { z } from 'zod';
import { DEVICE_KINDS } from '../device/kinds.ts';
import { commandNameSchema, commandStateSchema, refusalReasonSchema } from '../device/commands.ts';
import { commandClassSchema, idempotencyKeySchema } from '../device/control.ts';
import { liftStatusSchema } from '../device/status.ts';
import { ALARM_TEST_PARTS, ALARM_TEST_RESULTS } from '../device/alarm-device.ts';
import { presenceReasonSchema } from '../device/events.ts';
import { dateTimeSchema, pageOf } from './envelope.ts';
import { actionSchema, permissionIdSchema } from '../access/permissions.ts';
import type { LiftAccess } from '../access/permission-rules.ts';

/** Request and answer shapes of the lift API (spec section 7), shared by server and web. */
const liftId = z.uuid('validation.id');
const boolString = z.enum(['true', 'false']).transform((v) => v === 'true');

export const LIFT_SORT_KEYS = ['deviceNo', 'alias', 'kind', 'online', 'lastSeen', 'floor'] as const;
export type LiftSortKey = (typeof LIFT_SORT_KEYS)[number];

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

/** A lift's IoT details, in the order the lift page shows them (the names of the configuration log's IoT entries). */
export const IOT_INFO_FIELDS = ['iccid', 'carrier', 'apn', 'module', 'signal', 'notes'] as const;
export type IotInfoField = (typeof IOT_INFO_FIELDS)[number];
/** The signal strength's range in dBm (a cellular module reports -113 to -51). */
export const IOT_SIGNAL_DBM = { min: -150, max: 0 } as const;

/** `POST /auth/access/lift/iot/update`: the SIM card (ICCID, carrier, APN), the cellular module and its signal in dBm. */
export const iotInfoSchema = z.strictObject({
  iccid: z.string().trim().regex(/^[0-9]{18,22}$/, 'validation.iccid').optional(),
  carrier: z.string().trim().max(60, 'validation.tooLong').optional(),
  apn: z.string().trim().max(60, 'validation.tooLong').optional(),
  module: z.string().trim().max(60, 'validation.tooLong').optional(),
  signal: z.number('validation.signal').int('validation.signal').min(IOT_SIGNAL_DBM.min, 'validation.signal').max(IOT_SIGNAL_DBM.max, 'validation.signal').optional(),
  notes: z.string().trim().max(300, 'validation.tooLong').optional(),
});
export type IotInfo = z.infer<typeof iotInfoSchema>;
export const iotUpdateSchema = z.strictObject({ liftId, iotInfo: iotInfoSchema });

/** `POST /auth/access/lift/control`: `args` is checked against the lift's floors on the server. */
export const controlSchema = z.strictObject({
  liftId,
  command: commandNameSchema,
  args: z.record(z.string().max(32), z.unknown()).default({}),
  /** One per click (docs/remote-control.md, "No replays"): a retry with the same key never sends twice. */
  idempotencyKey: idempotencyKeySchema.optional(),
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

/** A configuration as the server stores and sends it: field key to value. */
export const liftConfigValuesSchema = z.record(z.string(), z.union([z.number(), z.boolean(), z.string()]));

/** A lift's location as stored (every field optional; what the location form saved). */
export const storedLocationSchema = z.strictObject({
  address: z.string(),
  site: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  contact: z.string(),
  notes: z.string(),
}).partial();

/** A lift's IoT details as stored (what the IoT form saved; every field optional). */
export const storedIotInfoSchema = z.strictObject({
  iccid: z.string(),
  carrier: z.string(),
  apn: z.string(),
  module: z.string(),
  signal: z.number(),
  notes: z.string(),
}).partial() satisfies z.ZodType<IotInfo>;

/** What the caller may do with one lift (see LiftAccess), sent with the lift. */
export const liftAccessSchema = z.strictObject({
  allowed: z.array(z.templateLiteral([permissionIdSchema, '.', actionSchema])),
  configRole: z.enum(['manufacturer', 'operator']),
}) satisfies z.ZodType<LiftAccess>;

/** One row of the lift list (`GET /auth/access/lift/get`). */
export const liftListItemSchema = z.strictObject({
  id: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  kind: z.enum(DEVICE_KINDS),
  online: z.boolean(),
  mode: z.string().nullable(),
  floor: z.number().nullable(),
  floors: z.number(),
  firmware: z.string(),
  activeFault: z.string().nullable(),
  lastSeenAt: z.string().nullable(),
  location: storedLocationSchema,
  access: liftAccessSchema,
});
export type LiftListItem = z.infer<typeof liftListItemSchema>;
export const liftPageSchema = pageOf(liftListItemSchema);
export type LiftPage = z.infer<typeof liftPageSchema>;

export const liftStatsSchema = z.strictObject({
  onlineMsTotal: z.number(),
  onlineMsToday: z.number(),
  tripsTotal: z.number(),
  tripsToday: z.number(),
});
export type LiftStats = z.infer<typeof liftStatsSchema>;

/**
 * The emergency-alarm device as the lift last reported it (`alarm` topic): its last self-test,
 * its battery, and whether a passed test is overdue (none within ALARM_TEST_MAX_HOURS).
 */
export const alarmDeviceViewSchema = z.strictObject({
  reportedAt: z.string(),
  lastTest: z.strictObject({ at: z.string(), result: z.enum(ALARM_TEST_RESULTS), failed: z.array(z.enum(ALARM_TEST_PARTS)) }).nullable(),
  battery: z.strictObject({ percent: z.number().nullable(), voltage: z.number().nullable(), low: z.boolean() }),
  testOverdue: z.boolean(),
});
export type AlarmDeviceView = z.infer<typeof alarmDeviceViewSchema>;

/** `POST /auth/access/lift/getInfo`: the lift, its last status and configuration, its running figures. */
export const liftInfoSchema = z.strictObject({
  lift: liftListItemSchema.extend({ iotInfo: storedIotInfoSchema, configVersion: z.number(), onlineSince: z.string().nullable() }),
  status: liftStatusSchema.nullable(),
  config: liftConfigValuesSchema.nullable(),
  stats: liftStatsSchema,
  /** The alarm device's health; null until the lift has sent its first alarm report. */
  alarmDevice: alarmDeviceViewSchema.nullable(),
  /** The command classes that need a second person's approval on this lift (its organization's choice; docs/remote-control.md). */
  approvalClasses: z.array(commandClassSchema),
});
export type LiftInfo = z.infer<typeof liftInfoSchema>;

export const runLogEntrySchema = z.strictObject({
  id: z.number(),
  ts: z.string(),
  code: z.string(),
  text: z.string(),
  fault: z.boolean(),
  floor: z.number().nullable(),
  /** Why the cloud wrote an ONLINE or OFFLINE entry (`text` ends with it); null for the lift's own events. */
  reason: presenceReasonSchema.nullable().optional(),
});
export type RunLogEntry = z.infer<typeof runLogEntrySchema>;
export const runLogPageSchema = pageOf(runLogEntrySchema);

export const configIssueSchema = z.strictObject({ path: z.string(), message: z.string(), params: z.record(z.string(), z.number()).optional() });

/** A command's outcome: `done` on success; a refusal comes as an error whose result has this shape. */
export const commandResultSchema = z.strictObject({
  commandId: z.string(),
  state: commandStateSchema,
  reason: refusalReasonSchema.nullable(),
  reasonText: z.string().nullable(),
  issues: z.array(configIssueSchema).optional(),
});
export type CommandResult = z.infer<typeof commandResultSchema>;

/** `POST /auth/access/lift/config/read`: the command's outcome and the configuration it brought. */
export const configReadResultSchema = commandResultSchema.extend({ config: liftConfigValuesSchema.nullable(), version: z.number() });
export type ConfigReadResult = z.infer<typeof configReadResultSchema>;

/** One configuration change (cloud, lift or IoT details). The id is a number (a numeric string on PostgreSQL). */
export const configLogEntrySchema = z.strictObject({
  id: z.union([z.number(), z.string()]),
  ts: dateTimeSchema,
  username: z.string().nullable(),
  /**
   * What changed it: `cloud` (a user's configuration), `device` (the lift itself: local keypad,
   * EF reset) or `iot` (a user's edit of the IoT details; before and after hold those, no version).
   */
  source: z.string(),
  commandId: z.string().nullable(),
  version: z.number().nullable(),
  before: liftConfigValuesSchema.nullable(),
  after: liftConfigValuesSchema.nullable(),
  result: z.string(),
});
export type ConfigLogEntry = z.infer<typeof configLogEntrySchema>;
export const configLogPageSchema = pageOf(configLogEntrySchema);

/** The lift's last 50 commands. */
export const commandRecordSchema = z.strictObject({
  commandId: z.string(),
  name: z.string(),
  args: z.record(z.string(), z.unknown()),
  state: commandStateSchema,
  reason: refusalReasonSchema.nullable(),
  username: z.string().nullable(),
  createdAt: dateTimeSchema,
  updatedAt: dateTimeSchema,
});
export type CommandRecord = z.infer<typeof commandRecordSchema>;

export const dailyStatSchema = z.strictObject({ day: z.string(), trips: z.number(), onlineMs: z.number() });
export type DailyStat = z.infer<typeof dailyStatSchema>;
export const sampleSchema = z.strictObject({ ts: z.string(), voltage: z.number(), loadValue: z.number() });
export type Sample = z.infer<typeof sampleSchema>;

/** What ingest has stored and left out since the start (`GET /auth/access/lift/ingest/stats`). */
export const ingestStatsSchema = z.strictObject({
  stored: z.number(),
  drops: z.record(z.string(), z.number()),
  pending: z.number(),
});

/** The public page behind a lift's QR code: what it is and whom to call. */
export const qrcodeLiftSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string(),
  kind: z.string(),
  floors: z.number(),
  serviceContact: z.string(),
  maker: z.string(),
});
export type QrcodeLift = z.infer<typeof qrcodeLiftSchema>;
