import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16Modbus } from './crc16.ts';
import { FRAME_OVERHEAD_BYTES, FrameDecoder, MAX_FRAME_PAYLOAD, encodeFrame, type DecodeEvent, type Frame } from './frame.ts';

const ascii = (s: string) => new TextEncoder().encode(s);
const frames = (events: DecodeEvent[]) => events.flatMap((e) => (e.type === 'frame' ? [e.frame] : []));
const errors = (events: DecodeEvent[]) => events.flatMap((e) => (e.type === 'error' ? [e.error] : []));
const frameArb = fc.record({ cmd: fc.integer({ min: 0, max: 255 }), seq: fc.integer({ min: 0, max: 255 }), payload: fc.uint8Array({ maxLength: 300 }) });

/** Splits bytes into chunks at the given cut points. */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(last, p));
    last = p;
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('CRC-16/MODBUS', () => {
  it('gives the standard check value and the checksum of a known Modbus request', () => {
    expect(crc16Modbus(ascii('123456789'))).toBe(0x4b37);
    // read holding registers: slave 1, register 0, count 10 -> CRC bytes C5 CD on the wire
    const crc = crc16Modbus(new Uint8Array([0x01, 0x03, 0x00, 0x00, 0x00, 0x0a]));
    expect([crc & 0xff, crc >>> 8]).toEqual([0xc5, 0xcd]);
  });
});

describe('serial frames', () => {
  it('encodes the documented layout', () => {
    const bytes = encodeFrame(0x01, 7, ascii('{}'))!;
    expect([...bytes.subarray(0, 6)]).toEqual([0xa5, 2, 0, 1, 7, 0xff - ((0xa5 + 2 + 0 + 1 + 7) & 0xff)]);
    expect(bytes.length).toBe(2 + FRAME_OVERHEAD_BYTES);
    const crc = crc16Modbus(bytes, 1, 8);
    expect([bytes[8], bytes[9]]).toEqual([crc & 0xff, crc >>> 8]);
  });

  it('refuses fields out of range instead of throwing', () => {
    expect(encodeFrame(256, 0)).toBeNull();
    expect(encodeFrame(1, -1)).toBeNull();
    expect(encodeFrame(1, 0, new Uint8Array(MAX_FRAME_PAYLOAD + 1))).toBeNull();
    expect(encodeFrame(1, 0, new Uint8Array(MAX_FRAME_PAYLOAD))).not.toBeNull();
  });

  it('decodes any sequence of frames however the bytes are chunked', () => {
    fc.assert(
      fc.property(fc.array(frameArb, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 20 }), (input, cuts) => {
        const stream = concat(input.map((f) => encodeFrame(f.cmd, f.seq, f.payload)!));
        const decoder = new FrameDecoder();
        const events = chunked(stream, cuts).flatMap((c) => decoder.push(c, 0));
        expect(errors(events)).toEqual([]);
        expect(frames(events).map((f) => ({ ...f, payload: [...f.payload] }))).toEqual(input.map((f) => ({ ...f, payload: [...f.payload] })));
        expect(decoder.pending).toBe(0);
      }),
    );
  });

  it('never throws on garbage and finds the frames that follow it', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), frameArb, fc.array(fc.nat(), { maxLength: 10 }), (garbage, f, cuts) => {
        const decoder = new FrameDecoder();
        const good = encodeFrame(f.cmd, f.seq, f.payload)!;
        // Garbage may end in what looks like the start of a long frame; the time-out then abandons it.
        const events: DecodeEvent[] = [...chunked(garbage, cuts).flatMap((c) => decoder.push(c, 0)), ...decoder.expire(1_000), ...decoder.push(good, 1_000)];
        const found = frames(events);
        expect(found.length).toBeGreaterThanOrEqual(1);
        expect(found.at(-1)).toMatchObject({ cmd: f.cmd, seq: f.seq });
        expect([...found.at(-1)!.payload]).toEqual([...f.payload]);
      }),
    );
  });

  it('rejects every frame with one flipped bit', () => {
    fc.assert(
      fc.property(frameArb, fc.nat(), fc.integer({ min: 0, max: 7 }), (f, at, bit) => {
        const bytes = encodeFrame(f.cmd, f.seq, f.payload)!;
        const i = at % bytes.length;
        bytes[i] = bytes[i]! ^ (1 << bit);
        const decoder = new FrameDecoder();
        const events = [...decoder.push(bytes, 0), ...decoder.expire(1_000)];
        expect(frames(events).some((x: Frame) => x.cmd === f.cmd && x.seq === f.seq && x.payload.length === f.payload.length)).toBe(false);
        expect(errors(events).length).toBeGreaterThan(0);
      }),
    );
  });

  it('names the reason: wrong checksum, bad header, garbage, and a frame cut off mid-write', () => {
    const good = encodeFrame(3, 1, ascii('{"a":1}'))!;
    const badCrc = good.slice();
    badCrc[badCrc.length - 1]! ^= 0xff;
    expect(errors(new FrameDecoder().push(badCrc, 0))).toContain('crc');

    const badHeader = good.slice();
    badHeader[5]! ^= 0x01;
    expect(errors(new FrameDecoder().push(badHeader, 0))).toContain('header');
    expect(errors(new FrameDecoder().push(ascii('hello'), 0))).toEqual(['garbage']);

    // the cable is pulled after half a frame; the next frame comes after a pause
    const decoder = new FrameDecoder(200);
    expect(decoder.push(good.subarray(0, 7), 0)).toEqual([]);
    const later = decoder.push(good, 500);
    expect(errors(later)).toContain('timeout');
    expect(frames(later)).toHaveLength(1);
  });

  it('recovers a frame swallowed by a false start with a plausible header', () => {
    const decoder = new FrameDecoder(200);
    // a start byte with a valid header check that announces 300 bytes, then a real frame
    const fake = encodeFrame(9, 9, new Uint8Array(300))!.subarray(0, 6);
    const real = encodeFrame(1, 2, ascii('{}'))!;
    expect(frames(decoder.push(concat([fake, real]), 0))).toEqual([]);
    const recovered = decoder.expire(1_000);
    expect(frames(recovered)).toEqual([{ cmd: 1, seq: 2, payload: ascii('{}') }]);
    expect(decoder.pending).toBe(0);
  });
});
