import { z } from 'zod';

/**
 * The smallest parts of every lift message, in a module of their own: the payload schemas
 * (payloads.ts), the firmware update's messages (device/firmware.ts) and the bench's serial
 * messages all build on them, and payloads.ts in turn knows the firmware messages.
 */

/** A lift message is UTF-8 JSON of at most this many bytes. */
export const MAX_PAYLOAD_BYTES = 16_384;

/**
 * The longest MQTT packet a broker reads from a lift: past it the connection is closed
 * unread. Four times the largest payload, so that a message a little too long is still read,
 * counted and refused as `tooLarge`, while no connection (not even one not yet logged in,
 * whose CONNECT may declare up to 256 MB) can make the broker gather megabytes.
 */
export const MAX_PACKET_BYTES = 65_536;

export const seqSchema = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/**
 * Years 1970 to 9999 (four digits): a lift whose clock was reset still reports (its events count), while
 * a year the database cannot store (0000) is refused here, at the boundary, instead of
 * failing the whole batch it arrived in.
 */
export const timestampSchema = z.iso
  .datetime()
  .refine((ts) => ts.slice(0, 4) >= '1970', 'validation.invalid');
/** The firmware a controller reports it runs: free-form, as the bench, presence and updates carry it. */
export const firmwareSchema = z.string().min(1).max(32);
