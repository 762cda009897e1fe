import { z } from 'zod';
import { commandNameSchema, refusalReasonSchema } from '../device/commands.ts';
import { alarmBatterySchema, alarmTestSchema } from '../device/alarm-device.ts';
import { commandLeaseSchema } from '../device/control.ts';
import { eventCodeSchema } from '../device/events.ts';
import { floorSchema } from '../device/kinds.ts';
import { liftStatusSchema } from '../device/status.ts';
import { firmwareEnvelopeSchema, firmwareStateMessageSchema, type FirmwareEnvelope, type FirmwareStateMessage } from '../device/firmware.ts';
import { parseLiftTopic, type LiftTopicKind } from './topics.ts';
import { MAX_PAYLOAD_BYTES, seqSchema, timestampSchema } from './wire.ts';

/**
 * Payloads of the lift topics: UTF-8 JSON objects, strict (an unknown field makes the
 * message invalid), at most MAX_PAYLOAD_BYTES. Every uplink message carries the device's
 * `seq` (strictly increasing per device over its whole life, also across reboots) and `ts`
 * (ISO 8601 UTC with `Z`). Ingest is idempotent on (deviceNo, seq).
 */
export { MAX_PACKET_BYTES, MAX_PAYLOAD_BYTES, seqSchema, timestampSchema } from './wire.ts';

export const commandIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
export const configVersionSchema = z.number().int().min(0).max(2_147_483_647);

/**
 * A configuration on the wire. Deliberately loose (bounded size, scalar values): the lift's
 * report is the truth even when it holds a value today's schema would refuse; writers
 * validate with `buildConfigSchema` / `validateConfigChange` before sending.
 */
export const wireConfigSchema = z
  .record(z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,63}$/), z.union([z.number(), z.boolean(), z.string().max(64)]))
  .refine((c) => Object.keys(c).length <= 200, 'validation.tooLong');

const uplink = { seq: seqSchema, ts: timestampSchema };

/** `lifts/{deviceNo}/status`: a full snapshot, periodically and on every change of a discrete field. */
export const statusMessageSchema = z.strictObject({ ...uplink, status: liftStatusSchema });
/** `lifts/{deviceNo}/event`: one run-log entry; `floor` where the platform was, if at a floor. */
export const eventMessageSchema = z.strictObject({ ...uplink, code: eventCodeSchema, floor: floorSchema.optional() });
/**
 * `lifts/{deviceNo}/presence` (retained). `session` is the seq the lift reserved when it
 * opened this connection: the connection's online message and its last will carry the
 * same session, and the will's seq equals it. Order presence by (session, online before
 * offline), not by seq: the will is published last although its seq is the oldest.
 */
export const presenceMessageSchema = z.strictObject({
  ...uplink,
  online: z.boolean(),
  session: seqSchema,
  firmware: z.string().max(32).optional(),
});
/** `lifts/{deviceNo}/config/report`: the running configuration; version 0 = factory defaults, never configured. */
export const configReportMessageSchema = z.strictObject({
  ...uplink,
  version: configVersionSchema,
  config: wireConfigSchema,
  /** Set when the report answers a `config/get` or `config/set`. */
  commandId: commandIdSchema.optional(),
});

export const ACK_STATES = ['accepted', 'rejected', 'done', 'failed'] as const;
export type AckState = (typeof ACK_STATES)[number];

/** `lifts/{deviceNo}/cmd/ack`: the lift's answer to `cmd`, `config/set` and `config/get`. A refusal or failure names its reason. */
export const cmdAckMessageSchema = z
  .strictObject({
    ...uplink,
    commandId: commandIdSchema,
    state: z.enum(ACK_STATES),
    reason: refusalReasonSchema.optional(),
    /** With reason `configInvalid` or `badArgs`: the fields at fault (i18n keys). */
    issues: z
      .array(z.strictObject({ path: z.string().max(100), message: z.string().max(100), params: z.record(z.string().max(32), z.number()).optional() }))
      .max(50)
      .optional(),
  })
  .refine((m) => (m.state === 'rejected' || m.state === 'failed') === (m.reason !== undefined), { path: ['reason'], message: 'validation.required' });

/**
 * `lifts/{deviceNo}/alarm`: the emergency-alarm device's health (EN 81-28). Sent after every
 * self-test, when the battery's `low` verdict changes, and on every connection. `test` is the
 * last self-test the device ran (absent before its first one), so a report sent on
 * connecting repeats it; `battery` is the state now.
 */
export const alarmMessageSchema = z.strictObject({ ...uplink, test: alarmTestSchema.optional(), battery: alarmBatterySchema });

/**
 * `lifts/{deviceNo}/cmd`: a command; `args` is checked by the lift (`liftCommandSchema`) so it can answer `badArgs`.
 * `lease`: the sender's control lease, on every command of a leased class (`needsLease`);
 * the lift refuses such a command without one (`noLease`) or of an older epoch (`leaseHeld`).
 */
export const cmdMessageSchema = z.strictObject({
  commandId: commandIdSchema,
  name: commandNameSchema,
  args: z.record(z.string().max(32), z.unknown()),
  expiresAt: timestampSchema,
  lease: commandLeaseSchema.optional(),
});
/** `lifts/{deviceNo}/config/set`: replace the configuration; `version` is the version the change was based on. */
export const configSetMessageSchema = z.strictObject({
  commandId: commandIdSchema,
  version: configVersionSchema,
  config: wireConfigSchema,
  expiresAt: timestampSchema,
});
/** `lifts/{deviceNo}/config/get`: ask for a `config/report`. */
export const configGetMessageSchema = z.strictObject({ commandId: commandIdSchema });

export type StatusMessage = z.infer<typeof statusMessageSchema>;
export type EventMessage = z.infer<typeof eventMessageSchema>;
export type PresenceMessage = z.infer<typeof presenceMessageSchema>;
export type ConfigReportMessage = z.infer<typeof configReportMessageSchema>;
export type CmdAckMessage = z.infer<typeof cmdAckMessageSchema>;
export type AlarmMessage = z.infer<typeof alarmMessageSchema>;
export type CmdMessage = z.infer<typeof cmdMessageSchema>;
export type ConfigSetMessage = z.infer<typeof configSetMessageSchema>;
export type ConfigGetMessage = z.infer<typeof configGetMessageSchema>;

export interface LiftMessages {
  status: StatusMessage;
  event: EventMessage;
  presence: PresenceMessage;
  'config/report': ConfigReportMessage;
  'cmd/ack': CmdAckMessage;
  alarm: AlarmMessage;
  cmd: CmdMessage;
  'config/set': ConfigSetMessage;
  'config/get': ConfigGetMessage;
  /** docs/protocol.md section 11 */
  'firmware/state': FirmwareStateMessage;
  'firmware/offer': FirmwareEnvelope;
}

export const PAYLOAD_SCHEMAS: { [K in LiftTopicKind]: z.ZodType<LiftMessages[K]> } = {
  status: statusMessageSchema,
  event: eventMessageSchema,
  presence: presenceMessageSchema,
  'config/report': configReportMessageSchema,
  'cmd/ack': cmdAckMessageSchema,
  alarm: alarmMessageSchema,
  cmd: cmdMessageSchema,
  'config/set': configSetMessageSchema,
  'config/get': configGetMessageSchema,
  'firmware/state': firmwareStateMessageSchema,
  'firmware/offer': firmwareEnvelopeSchema,
};

/** Why a message was dropped; ingest counts drops per reason. */
export type DropReason = 'topic' | 'tooLarge' | 'json' | 'schema';

export type DecodedLiftMessage = { [K in LiftTopicKind]: { ok: true; deviceNo: string; kind: K; message: LiftMessages[K] } }[LiftTopicKind];
export type DecodeResult = DecodedLiftMessage | { ok: false; reason: DropReason; deviceNo?: string; kind?: LiftTopicKind };

// fatal: a payload that is not valid UTF-8 is dropped like malformed JSON (no Buffer: this module also runs in browsers)
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses topic and payload of a lift message. Never throws: a bad message gives `{ok: false, reason}`. */
export function decodeLiftMessage(topic: string, payload: Uint8Array | string): DecodeResult {
  const t = parseLiftTopic(topic);
  if (!t) return { ok: false, reason: 'topic' };
  const bytes = typeof payload === 'string' ? new TextEncoder().encode(payload) : payload;
  if (bytes.byteLength > MAX_PAYLOAD_BYTES) return { ok: false, reason: 'tooLarge', ...t };
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(bytes));
  } catch {
    return { ok: false, reason: 'json', ...t };
  }
  const parsed = PAYLOAD_SCHEMAS[t.kind].safeParse(json);
  if (!parsed.success) return { ok: false, reason: 'schema', ...t };
  return { ok: true, ...t, message: parsed.data } as DecodedLiftMessage;
}

/** Serialises a message for its topic (JSON). */
export function encodeLiftMessage<K extends LiftTopicKind>(_kind: K, message: LiftMessages[K]): string {
  return JSON.stringify(message);
}
