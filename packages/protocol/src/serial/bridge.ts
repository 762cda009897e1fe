import { z } from 'zod';
import { portSettingsSchema } from './messages.ts';

/**
 * The serial bridge's WebSocket protocol (ws://127.0.0.1:{port}, only for the configured
 * web origin). Text frames carry these JSON control messages; binary frames carry the
 * serial bytes, both ways, once a port is open. The first message must be `hello`: with
 * the one-time pairing code (which the bridge has verified against the server) it answers
 * `welcome` with a token for later sessions; with that token it answers `welcome` again.
 */
export const BRIDGE_DEFAULT_PORT = 17_355;
/** Pairing codes: 8 characters from an alphabet without look-alikes, shown as XXXX-XXXX. */
export const PAIRING_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const pairingCodeSchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase().replace(/[\s-]/g, ''))
  .pipe(z.string().regex(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{8}$`), 'validation.pairingCode'));
export const PAIRING_CODE_TTL_MS = 10 * 60_000;
export const bridgeTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/);

export function formatPairingCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

export const bridgePortInfoSchema = z.strictObject({
  path: z.string().max(300),
  manufacturer: z.string().max(200).optional(),
  serialNumber: z.string().max(200).optional(),
  vendorId: z.string().max(10).optional(),
  productId: z.string().max(10).optional(),
});
export type BridgePortInfo = z.infer<typeof bridgePortInfoSchema>;

export const bridgeClientMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), code: pairingCodeSchema.optional(), token: bridgeTokenSchema.optional() }),
  z.strictObject({ type: z.literal('list') }),
  z.strictObject({ type: z.literal('open'), path: z.string().min(1).max(300), settings: portSettingsSchema }),
  z.strictObject({ type: z.literal('close') }),
]);
export type BridgeClientMessage = z.infer<typeof bridgeClientMessageSchema>;

export const BRIDGE_ERROR_CODES = ['notPaired', 'badCode', 'badToken', 'badMessage', 'openFailed', 'notOpen', 'busy'] as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

export const bridgeServerMessageSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('welcome'), token: bridgeTokenSchema, version: z.string().max(32), user: z.string().max(100) }),
  z.strictObject({ type: z.literal('ports'), ports: z.array(bridgePortInfoSchema).max(256) }),
  z.strictObject({ type: z.literal('opened'), path: z.string().max(300) }),
  /** The port closed: asked for (`requested`) or lost (`lost`: the device was pulled out). */
  z.strictObject({ type: z.literal('closed'), reason: z.enum(['requested', 'lost']) }),
  z.strictObject({ type: z.literal('error'), code: z.enum(BRIDGE_ERROR_CODES), message: z.string().max(500).optional() }),
]);
export type BridgeServerMessage = z.infer<typeof bridgeServerMessageSchema>;

function parseText<T>(schema: z.ZodType<T>, text: string): T | null {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const parseBridgeClientMessage = (text: string) => parseText(bridgeClientMessageSchema, text);
export const parseBridgeServerMessage = (text: string) => parseText(bridgeServerMessageSchema, text);
