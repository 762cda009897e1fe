import { z } from 'zod';
import { parseBrokerAddress } from '../mqtt/broker-address.ts';
import { POLLING_CHANNELS } from '../constants.ts';
import { deviceKindSchema, deviceNoSchema, floorCountSchema } from '../device/kinds.ts';
import { configVersionSchema, wireConfigSchema } from '../mqtt/payloads.ts';
import { firmwareSchema } from '../mqtt/wire.ts';
import { firmwareKeyIdSchema } from '../device/firmware.ts';

export { firmwareSchema };
import { encodeFrame, type Frame } from './frame.ts';

/**
 * The messages of the serial link between a lift controller and the factory bench (the
 * web page through Web Serial or the serial bridge). The host sends a request frame; the
 * controller answers with the same SEQ and CMD | 0x80, or with CMD 0xFF (an error) whose
 * payload names the code. Payloads are UTF-8 JSON objects validated by the schemas below
 * (strict: an unknown field makes the message invalid); an empty payload means `{}`.
 *
 * A controller answers a repeated request (same SEQ, CMD and payload as the last one)
 * with its stored answer without executing it again, so a host may retry any request
 * after a time-out.
 */
export const SERIAL_PROTOCOL_VERSION = 1;
export const REPLY_FLAG = 0x80;
export const ERROR_CMD = 0xff;

/** The controller's serial number: printed on the board, written at production, never changed. */
export const controllerSerialSchema = z.string().regex(/^[A-Za-z0-9._-]{4,40}$/, 'validation.controllerSerial');
/** The broker address written into a controller: one URL, or a cluster's nodes separated by commas. */
export const mqttUrlSchema = z
  .string()
  .max(200)
  .refine((v) => {
    try {
      parseBrokerAddress(v);
      return true;
    } catch {
      return false;
    }
  }, 'validation.mqttUrl');
export const deviceSecretSchema = z.string().min(16, 'validation.secret').max(200, 'validation.secret');

export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const PARITIES = ['none', 'even', 'odd'] as const;
/** Settings of a serial port: the bench's port to the controller, and the controller's RS-485 polling port. */
export const portSettingsSchema = z.strictObject({
  baudRate: z.union(BAUD_RATES.map((b) => z.literal(b)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]], { error: 'validation.invalid' }),
  dataBits: z.union([z.literal(7), z.literal(8)], { error: 'validation.invalid' }),
  parity: z.enum(PARITIES, { error: 'validation.invalid' }),
  stopBits: z.union([z.literal(1), z.literal(2)], { error: 'validation.invalid' }),
});
export type PortSettings = z.infer<typeof portSettingsSchema>;
export const DEFAULT_PORT_SETTINGS: PortSettings = { baudRate: 115200, dataBits: 8, parity: 'none', stopBits: 1 };
export const DEFAULT_FIELD_PORT_SETTINGS: PortSettings = { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 };

/** Modbus read functions a polling channel may use: coils, discrete inputs, holding and input registers. */
export const POLL_FUNCTION_CODES = [1, 2, 3, 4] as const;
export const channelNumberSchema = z.number().int().min(1).max(POLLING_CHANNELS);
/** One of the controller's 10 polling channels: what it reads from a slave on its RS-485 port, and how often. */
export const pollingChannelSchema = z
  .strictObject({
    enabled: z.boolean({ error: 'validation.required' }),
    slaveAddress: z.number({ error: 'validation.required' }).int('validation.integer').min(1, 'validation.min').max(247, 'validation.max'),
    functionCode: z.union(POLL_FUNCTION_CODES.map((c) => z.literal(c)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]], { error: 'validation.invalid' }),
    startRegister: z.number({ error: 'validation.required' }).int('validation.integer').min(0, 'validation.min').max(65_535, 'validation.max'),
    count: z.number({ error: 'validation.required' }).int('validation.integer').min(1, 'validation.min').max(2_000, 'validation.max'),
    intervalMs: z.number({ error: 'validation.required' }).int('validation.integer').min(100, 'validation.min').max(60_000, 'validation.max'),
    timeoutMs: z.number({ error: 'validation.required' }).int('validation.integer').min(50, 'validation.min').max(10_000, 'validation.max'),
    retries: z.number({ error: 'validation.required' }).int('validation.integer').min(0, 'validation.min').max(5, 'validation.max'),
  })
  .superRefine((c, ctx) => {
    // Modbus limits per request: 125 registers, 2000 bits; the block must not run past register 65535.
    const max = c.functionCode <= 2 ? 2_000 : 125;
    if (c.count > max) ctx.addIssue({ code: 'custom', path: ['count'], message: 'validation.max', params: { max } });
    else if (c.startRegister + c.count > 65_536) ctx.addIssue({ code: 'custom', path: ['count'], message: 'validation.max', params: { max: 65_536 - c.startRegister } });
    if (c.timeoutMs >= c.intervalMs) ctx.addIssue({ code: 'custom', path: ['timeoutMs'], message: 'validation.max', params: { max: c.intervalMs - 1 } });
  });
export type PollingChannel = z.infer<typeof pollingChannelSchema>;
export const DEFAULT_POLLING_CHANNEL: PollingChannel = { enabled: false, slaveAddress: 1, functionCode: 3, startRegister: 0, count: 10, intervalMs: 1_000, timeoutMs: 300, retries: 1 };

export const CONVERSION_TYPES = ['bool', 'uint16', 'int16', 'uint32', 'int32', 'float32'] as const;
export type ConversionType = (typeof CONVERSION_TYPES)[number];
/** Byte orders: AB / BA for one register, ABCD (big-endian) ... DCBA for two. */
export const BYTE_ORDERS_16 = ['AB', 'BA'] as const;
export const BYTE_ORDERS_32 = ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const;
export const BYTE_ORDERS = [...BYTE_ORDERS_16, ...BYTE_ORDERS_32] as const;
export const MAX_CONVERSIONS = 64;
/** The registers a value of this type spans. */
export function registersOf(type: ConversionType): number {
  return type === 'uint32' || type === 'int32' || type === 'float32' ? 2 : 1;
}

/** One data conversion: a register of a polling channel becomes a named field of the lift's data. */
export const conversionEntrySchema = z
  .strictObject({
    channel: channelNumberSchema,
    register: z.number({ error: 'validation.required' }).int('validation.integer').min(0, 'validation.min').max(65_535, 'validation.max'),
    type: z.enum(CONVERSION_TYPES, { error: 'validation.invalid' }),
    byteOrder: z.enum(BYTE_ORDERS, { error: 'validation.invalid' }),
    scale: z
      .number({ error: 'validation.required' })
      .refine((v) => Number.isFinite(v) && v !== 0 && Math.abs(v) <= 1e6 && Math.abs(v) >= 1e-6, 'validation.scale'),
    key: z.string().regex(/^[a-z][A-Za-z0-9]{0,31}$/, 'validation.conversionKey'),
  })
  .superRefine((e, ctx) => {
    const allowed: readonly string[] = registersOf(e.type) === 2 ? BYTE_ORDERS_32 : BYTE_ORDERS_16;
    if (!allowed.includes(e.byteOrder)) ctx.addIssue({ code: 'custom', path: ['byteOrder'], message: 'validation.byteOrder' });
  });
export type ConversionEntry = z.infer<typeof conversionEntrySchema>;
export const conversionTableSchema = z
  .array(conversionEntrySchema)
  .max(MAX_CONVERSIONS, 'validation.tooLong')
  .superRefine((entries, ctx) => {
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      if (seen.has(e.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: 'validation.duplicate' });
      seen.add(e.key);
    });
  });

/** The most firmware signing keys a controller keeps (its maker's current and next, with room to spare). */
export const FIRMWARE_KEYS_MAX = 8;
/** A raw 32-byte Ed25519 public key in standard base64, as the cloud gives it (44 characters). */
export const firmwarePublicKeyTextSchema = z.string().regex(/^[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=$/, 'validation.invalid');
/** A firmware signing key as the bench writes it: its id (the first 16 hex digits of the key's SHA-256) and the key. */
export const firmwareTrustedKeySchema = z.strictObject({ keyId: firmwareKeyIdSchema, publicKey: firmwarePublicKeyTextSchema });

/** The controller's answer to a handshake. */
export const handshakeSchema = z.strictObject({
  protocol: z.number().int().min(1).max(255),
  /** Null until the manufacturer assigns one. */
  deviceNo: deviceNoSchema.nullable(),
  kind: deviceKindSchema,
  floors: floorCountSchema,
  firmware: firmwareSchema,
  controllerSerial: controllerSerialSchema,
  configVersion: configVersionSchema,
  /** False when the running configuration differs from the one saved in flash. */
  configSaved: z.boolean(),
  /** Whether IoT credentials are stored, and the state of the controller's MQTT connection. */
  credentials: z.boolean(),
  mqtt: z.enum(['none', 'connecting', 'online', 'refused']),
  /** The ids of the firmware signing keys it trusts (docs/protocol.md 11.3); absent on a controller that predates them. */
  firmwareKeyIds: z.array(firmwareKeyIdSchema).max(FIRMWARE_KEYS_MAX).optional(),
});
export type Handshake = z.infer<typeof handshakeSchema>;

const empty = z.strictObject({});
const configBody = z.strictObject({ version: configVersionSchema, config: wireConfigSchema, saved: z.boolean() });

/**
 * The command table: code, request schema and answer schema. Writes are applied (and, for
 * device number, credentials, channels, conversions and port, stored in flash) only after
 * the whole frame arrived with a good checksum and its payload passed the schema. The
 * running configuration is written to flash by `saveConfig`.
 */
export const SERIAL_COMMANDS = {
  handshake: { code: 0x01, request: empty, response: handshakeSchema },
  writeDeviceNo: { code: 0x02, request: z.strictObject({ deviceNo: deviceNoSchema }), response: z.strictObject({ deviceNo: deviceNoSchema }) },
  writeCredentials: {
    code: 0x03,
    request: z.strictObject({ mqttUrl: mqttUrlSchema, deviceNo: deviceNoSchema, secret: deviceSecretSchema }),
    response: z.strictObject({ deviceNo: deviceNoSchema, mqttUrl: mqttUrlSchema }),
  },
  readConfig: { code: 0x04, request: empty, response: configBody },
  /** Replaces the running configuration; `baseVersion` is the version the edit started from. */
  writeConfig: {
    code: 0x05,
    request: z.strictObject({ baseVersion: configVersionSchema, config: wireConfigSchema }),
    response: z.strictObject({ version: configVersionSchema }),
  },
  saveConfig: { code: 0x06, request: empty, response: z.strictObject({ version: configVersionSchema }) },
  readChannel: { code: 0x07, request: z.strictObject({ channel: channelNumberSchema }), response: z.strictObject({ channel: channelNumberSchema, settings: pollingChannelSchema }) },
  writeChannel: { code: 0x08, request: z.strictObject({ channel: channelNumberSchema, settings: pollingChannelSchema }), response: z.strictObject({ channel: channelNumberSchema }) },
  readConversions: { code: 0x09, request: empty, response: z.strictObject({ entries: conversionTableSchema }) },
  writeConversions: { code: 0x0a, request: z.strictObject({ entries: conversionTableSchema }), response: z.strictObject({ count: z.number().int().min(0).max(MAX_CONVERSIONS) }) },
  readPort: { code: 0x0b, request: empty, response: portSettingsSchema },
  writePort: { code: 0x0c, request: portSettingsSchema, response: portSettingsSchema },
  /**
   * Replaces the firmware signing keys the controller trusts (stored in flash): it checks that
   * each id is its key's and refuses the write otherwise (`mismatch`), so a key garbled on the
   * way is never trusted. Offers signed by another key are refused (docs/protocol.md 11.3).
   */
  writeFirmwareKeys: {
    code: 0x0d,
    request: z.strictObject({ keys: z.array(firmwareTrustedKeySchema).min(1).max(FIRMWARE_KEYS_MAX) }),
    response: z.strictObject({ keyIds: z.array(firmwareKeyIdSchema).max(FIRMWARE_KEYS_MAX) }),
  },
} as const;

export type SerialCommand = keyof typeof SERIAL_COMMANDS;
export type SerialRequest<C extends SerialCommand> = z.infer<(typeof SERIAL_COMMANDS)[C]['request']>;
export type SerialResponse<C extends SerialCommand> = z.infer<(typeof SERIAL_COMMANDS)[C]['response']>;
export const SERIAL_COMMAND_NAMES = Object.keys(SERIAL_COMMANDS) as SerialCommand[];
const BY_CODE = new Map<number, SerialCommand>(SERIAL_COMMAND_NAMES.map((name) => [SERIAL_COMMANDS[name].code, name]));

export function serialCommandOf(code: number): SerialCommand | undefined {
  return BY_CODE.get(code);
}

/** Why a controller refused a request (the payload of an error frame). */
export const SERIAL_ERROR_CODES = ['badRequest', 'unknownCommand', 'versionConflict', 'configInvalid', 'noDeviceNo', 'mismatch', 'storage', 'busy'] as const;
export type SerialErrorCode = (typeof SERIAL_ERROR_CODES)[number];
export const serialErrorSchema = z.strictObject({
  code: z.enum(SERIAL_ERROR_CODES),
  /** The command code it answers. */
  cmd: z.number().int().min(0).max(255),
  issues: z
    .array(z.strictObject({ path: z.string().max(100), message: z.string().max(100), params: z.record(z.string().max(32), z.number()).optional() }))
    .max(50)
    .optional(),
});
export type SerialErrorBody = z.infer<typeof serialErrorSchema>;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function jsonBytes(body: unknown): Uint8Array {
  const text = JSON.stringify(body);
  return text === '{}' ? new Uint8Array(0) : encoder.encode(text);
}

/** Encodes a request; null when the body fails its schema or does not fit in a frame. */
export function encodeRequest<C extends SerialCommand>(command: C, seq: number, body: SerialRequest<C>): Uint8Array | null {
  const spec = SERIAL_COMMANDS[command];
  const parsed = spec.request.safeParse(body);
  if (!parsed.success) return null;
  return encodeFrame(spec.code, seq, jsonBytes(parsed.data));
}

/** Encodes a controller's answer to `command`; null when it fails its schema or does not fit. */
export function encodeResponse<C extends SerialCommand>(command: C, seq: number, body: SerialResponse<C>): Uint8Array | null {
  const spec = SERIAL_COMMANDS[command];
  const parsed = spec.response.safeParse(body);
  if (!parsed.success) return null;
  return encodeFrame(spec.code | REPLY_FLAG, seq, jsonBytes(parsed.data));
}

export function encodeError(seq: number, body: SerialErrorBody): Uint8Array | null {
  const parsed = serialErrorSchema.safeParse(body);
  return parsed.success ? encodeFrame(ERROR_CMD, seq, jsonBytes(parsed.data)) : null;
}

export type PayloadError = 'unknownCommand' | 'json' | 'schema';
export type DecodedRequest =
  | { [C in SerialCommand]: { ok: true; command: C; seq: number; body: SerialRequest<C> } }[SerialCommand]
  | { ok: false; seq: number; cmd: number; error: PayloadError; issues?: { path: string; message: string }[] };
export type DecodedReply =
  | { [C in SerialCommand]: { ok: true; kind: 'response'; command: C; seq: number; body: SerialResponse<C> } }[SerialCommand]
  | { ok: true; kind: 'error'; seq: number; body: SerialErrorBody }
  | { ok: false; seq: number; cmd: number; error: PayloadError };

function parseJson(payload: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  if (payload.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(payload)) as unknown };
  } catch {
    return { ok: false };
  }
}

/** The controller's side: a frame from the host as a typed request, or why not. Never throws. */
export function decodeRequest(frame: Frame): DecodedRequest {
  const command = serialCommandOf(frame.cmd);
  if (!command) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'unknownCommand' };
  const json = parseJson(frame.payload);
  if (!json.ok) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'json' };
  const parsed = SERIAL_COMMANDS[command].request.safeParse(json.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.').slice(0, 100), message: i.message.slice(0, 100) }));
    return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'schema', issues };
  }
  return { ok: true, command, seq: frame.seq, body: parsed.data } as DecodedRequest;
}

/** The host's side: a frame from the controller as a typed answer or error, or why not. Never throws. */
export function decodeReply(frame: Frame): DecodedReply {
  const json = parseJson(frame.payload);
  if (frame.cmd === ERROR_CMD) {
    if (!json.ok) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'json' };
    const parsed = serialErrorSchema.safeParse(json.value);
    return parsed.success ? { ok: true, kind: 'error', seq: frame.seq, body: parsed.data } : { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'schema' };
  }
  const command = frame.cmd & REPLY_FLAG ? serialCommandOf(frame.cmd & ~REPLY_FLAG) : undefined;
  if (!command) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'unknownCommand' };
  if (!json.ok) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'json' };
  const parsed = SERIAL_COMMANDS[command].response.safeParse(json.value);
  if (!parsed.success) return { ok: false, seq: frame.seq, cmd: frame.cmd, error: 'schema' };
  return { ok: true, kind: 'response', command, seq: frame.seq, body: parsed.data } as DecodedReply;
}

/**
 * The conversions that read a register their channel does not poll (the controller
 * refuses them with `badRequest` and these issues; the page checks the same before
 * writing). `params` give the registers the entry may use.
 */
export function conversionsOutsideChannels(entries: readonly ConversionEntry[], channels: readonly PollingChannel[]): { path: string; message: string; params: Record<string, number> }[] {
  return entries.flatMap((e, i) => {
    const c = channels[e.channel - 1];
    if (!c) return [];
    const span = registersOf(e.type);
    const inside = e.register >= c.startRegister && e.register + span <= c.startRegister + c.count;
    return inside ? [] : [{ path: `${i}.register`, message: 'validation.outsideChannel', params: { min: c.startRegister, max: c.startRegister + c.count - span } }];
  });
}
