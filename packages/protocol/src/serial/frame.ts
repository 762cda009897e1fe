import { crc16Modbus } from './crc16.ts';

/**
 * The serial link's frame (little-endian):
 *
 * ```
 * +------+---------+-----+-----+-----+------------------+---------+
 * | 0xA5 | LEN u16 | CMD | SEQ | HCS | payload (LEN B)  | CRC u16 |
 * +------+---------+-----+-----+-----+------------------+---------+
 * ```
 *
 * HCS = 0xFF - ((0xA5 + LEN lo + LEN hi + CMD + SEQ) mod 256) lets a receiver reject a
 * false start byte in line noise at once instead of waiting for a bogus length.
 * CRC = CRC-16/MODBUS over LEN..payload (everything but the start byte and the CRC).
 * A receiver drops a frame whose header check, length or CRC is wrong and answers
 * nothing; the sender's time-out and retry recover.
 */
export const FRAME_START = 0xa5;
export const FRAME_HEADER_BYTES = 6;
export const FRAME_OVERHEAD_BYTES = FRAME_HEADER_BYTES + 2;
export const MAX_FRAME_PAYLOAD = 4096;
/** A frame whose bytes stop arriving for this long is abandoned (a cable pulled mid-write). */
export const INTER_BYTE_TIMEOUT_MS = 200;

export interface Frame {
  cmd: number;
  seq: number;
  payload: Uint8Array;
}

export type FrameErrorKind = 'garbage' | 'header' | 'tooLong' | 'crc' | 'timeout';

export type DecodeEvent = { type: 'frame'; frame: Frame } | { type: 'error'; error: FrameErrorKind; bytes: number };

function headerCheck(lenLo: number, lenHi: number, cmd: number, seq: number): number {
  return 0xff - ((FRAME_START + lenLo + lenHi + cmd + seq) & 0xff);
}

/** Encodes one frame. Returns null (never throws) when a field is out of range. */
export function encodeFrame(cmd: number, seq: number, payload: Uint8Array = new Uint8Array(0)): Uint8Array | null {
  if (!Number.isInteger(cmd) || cmd < 0 || cmd > 0xff) return null;
  if (!Number.isInteger(seq) || seq < 0 || seq > 0xff) return null;
  if (payload.length > MAX_FRAME_PAYLOAD) return null;
  const out = new Uint8Array(FRAME_OVERHEAD_BYTES + payload.length);
  const lenLo = payload.length & 0xff;
  const lenHi = payload.length >>> 8;
  out[0] = FRAME_START;
  out[1] = lenLo;
  out[2] = lenHi;
  out[3] = cmd;
  out[4] = seq;
  out[5] = headerCheck(lenLo, lenHi, cmd, seq);
  out.set(payload, FRAME_HEADER_BYTES);
  const crc = crc16Modbus(out, 1, FRAME_HEADER_BYTES + payload.length);
  out[FRAME_HEADER_BYTES + payload.length] = crc & 0xff;
  out[FRAME_HEADER_BYTES + payload.length + 1] = crc >>> 8;
  return out;
}

/**
 * A stream decoder: feed it bytes as they arrive, in chunks of any size, and it returns
 * whole frames and what it threw away. It never throws. It resynchronises on the next
 * start byte after any error, and `expire(now)` abandons a frame whose bytes stopped
 * arriving (checking what it had buffered for a whole frame first).
 */
export class FrameDecoder {
  private buffer = new Uint8Array(0);
  private lastByteAt = 0;

  constructor(private readonly interByteTimeoutMs = INTER_BYTE_TIMEOUT_MS) {}

  /** Bytes of an unfinished frame. */
  get pending(): number {
    return this.buffer.length;
  }

  push(chunk: Uint8Array, now = Date.now()): DecodeEvent[] {
    const events = this.expire(now);
    if (chunk.length === 0) return events;
    const next = new Uint8Array(this.buffer.length + chunk.length);
    next.set(this.buffer);
    next.set(chunk, this.buffer.length);
    this.buffer = next;
    this.lastByteAt = now;
    this.scan(events);
    return mergeErrors(events);
  }

  /** Abandons an unfinished frame older than the inter-byte time-out. */
  expire(now = Date.now()): DecodeEvent[] {
    const events: DecodeEvent[] = [];
    if (this.buffer.length === 0 || now - this.lastByteAt <= this.interByteTimeoutMs) return events;
    // The stale bytes may hide a whole frame behind a false start: drop one byte at a time and look again.
    while (this.buffer.length > 0) {
      events.push({ type: 'error', error: 'timeout', bytes: 1 });
      this.buffer = this.buffer.subarray(1);
      this.scan(events);
    }
    return mergeErrors(events);
  }

  reset(): void {
    this.buffer = new Uint8Array(0);
  }

  private scan(events: DecodeEvent[]): void {
    const buf = () => this.buffer;
    for (;;) {
      const b = buf();
      if (b.length === 0) return;
      const start = b.indexOf(FRAME_START);
      if (start < 0) {
        events.push({ type: 'error', error: 'garbage', bytes: b.length });
        this.buffer = new Uint8Array(0);
        return;
      }
      if (start > 0) {
        events.push({ type: 'error', error: 'garbage', bytes: start });
        this.buffer = b.subarray(start);
        continue;
      }
      if (b.length < FRAME_HEADER_BYTES) return;
      const [lenLo, lenHi, cmd, seq, hcs] = [b[1]!, b[2]!, b[3]!, b[4]!, b[5]!];
      if (hcs !== headerCheck(lenLo, lenHi, cmd, seq)) {
        this.skip(events, 'header');
        continue;
      }
      const length = lenLo | (lenHi << 8);
      if (length > MAX_FRAME_PAYLOAD) {
        this.skip(events, 'tooLong');
        continue;
      }
      const total = FRAME_OVERHEAD_BYTES + length;
      if (b.length < total) return;
      const crc = b[FRAME_HEADER_BYTES + length]! | (b[FRAME_HEADER_BYTES + length + 1]! << 8);
      if (crc !== crc16Modbus(b, 1, FRAME_HEADER_BYTES + length)) {
        this.skip(events, 'crc');
        continue;
      }
      events.push({ type: 'frame', frame: { cmd, seq, payload: b.slice(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length) } });
      this.buffer = b.subarray(total);
    }
  }

  /** A bad frame: drop its start byte and look for the next one in what followed. */
  private skip(events: DecodeEvent[], error: FrameErrorKind): void {
    events.push({ type: 'error', error, bytes: 1 });
    this.buffer = this.buffer.subarray(1);
  }
}

/** Adjacent errors of one kind become one event with the bytes added up. */
function mergeErrors(events: DecodeEvent[]): DecodeEvent[] {
  const out: DecodeEvent[] = [];
  for (const e of events) {
    const last = out[out.length - 1];
    if (e.type === 'error' && last?.type === 'error' && last.error === e.error) last.bytes += e.bytes;
    else out.push(e);
  }
  return out;
}
