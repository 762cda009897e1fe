import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../device/config.ts';
import { initialLiftStatus } from '../device/status.ts';
import { MAX_PAYLOAD_BYTES, decodeLiftMessage, encodeLiftMessage, type DecodeResult } from './payloads.ts';

const ts = '2025-03-01T08:00:00.000Z';
const topic = (kind: string) => `lifts/SIM-0001/${kind}`;
const decode = (kind: string, payload: unknown): DecodeResult => decodeLiftMessage(topic(kind), JSON.stringify(payload));
const reason = (r: DecodeResult) => (r.ok ? 'ok' : r.reason);

describe('lift message payloads', () => {
  it('accepts a valid message of each topic', () => {
    const good: [string, unknown][] = [
      ['status', { seq: 1, ts, status: initialLiftStatus() }],
      ['event', { seq: 2, ts, code: 'RZD2', floor: 2 }],
      ['event', { seq: 3, ts, code: 'EC' }],
      ['presence', { seq: 4, ts, online: true, session: 3, firmware: 'SIM-1.0.0' }],
      ['config/report', { seq: 5, ts, version: 0, config: defaultConfig('inclined2dRack', 3) }],
      ['cmd/ack', { seq: 6, ts, commandId: 'c-1', state: 'accepted' }],
      ['cmd/ack', { seq: 7, ts, commandId: 'c-1', state: 'rejected', reason: 'overloaded' }],
      ['cmd', { commandId: 'c-1', name: 'summon', args: { floor: 2 }, expiresAt: ts }],
      ['config/set', { commandId: 'c-2', version: 3, config: { rapidSpeed: 100 }, expiresAt: ts }],
      ['config/get', { commandId: 'c-3' }],
    ];
    for (const [kind, payload] of good) {
      const r = decode(kind, payload);
      expect(r.ok, kind).toBe(true);
      if (r.ok) expect(r.deviceNo).toBe('SIM-0001');
    }
  });

  it('drops unknown fields, missing seq, local times, bad codes and reason-less refusals', () => {
    expect(reason(decode('event', { seq: 2, ts, code: 'RZD2', extra: 1 }))).toBe('schema');
    expect(reason(decode('event', { ts, code: 'RZD2' }))).toBe('schema');
    expect(reason(decode('event', { seq: 0, ts, code: 'RZD2' }))).toBe('schema');
    expect(reason(decode('event', { seq: 2, ts: '2025-03-01T08:00:00+08:00', code: 'RZD2' }))).toBe('schema');
    // A year the database cannot store would fail the batch it came in: refused here.
    expect(reason(decode('event', { seq: 2, ts: '0000-01-01T00:00:00.000Z', code: 'RZD2' }))).toBe('schema');
    // A lift whose clock was reset still reports.
    expect(decode('event', { seq: 2, ts: '1970-01-01T00:00:05.000Z', code: 'RZD2' }).ok).toBe(true);
    expect(reason(decode('event', { seq: 2, ts, code: 'RZX9' }))).toBe('schema');
    expect(reason(decode('cmd/ack', { seq: 6, ts, commandId: 'c-1', state: 'rejected' }))).toBe('schema');
    expect(reason(decode('cmd/ack', { seq: 6, ts, commandId: 'c-1', state: 'done', reason: 'busy' }))).toBe('schema');
    expect(reason(decode('cmd', { commandId: 'bad id!', name: 'pause', args: {}, expiresAt: ts }))).toBe('schema');
    const status = initialLiftStatus();
    expect(reason(decode('status', { seq: 1, ts, status: { ...status, mode: 'party' } }))).toBe('schema');
    expect(reason(decode('status', { seq: 1, ts, status: { ...status, platform: { ...status.platform, voltage: -1 } } }))).toBe('schema');
  });

  it('drops foreign topics, malformed JSON, invalid UTF-8 and oversized payloads without throwing', () => {
    expect(reason(decodeLiftMessage('lifts/+/status', '{}'))).toBe('topic');
    expect(reason(decodeLiftMessage('elsewhere/SIM-0001/status', '{}'))).toBe('topic');
    expect(reason(decodeLiftMessage(topic('event'), '{"seq":'))).toBe('json');
    expect(reason(decodeLiftMessage(topic('event'), new Uint8Array([0xff, 0xfe, 0x7b])))).toBe('json');
    const big = JSON.stringify({ seq: 1, ts, code: 'RZOP', pad: 'x'.repeat(MAX_PAYLOAD_BYTES) });
    expect(reason(decodeLiftMessage(topic('event'), big))).toBe('tooLarge');
    expect(reason(decodeLiftMessage(topic('event'), new TextEncoder().encode(big)))).toBe('tooLarge');
  });

  it('decodes what it encodes', () => {
    const message = { seq: 9, ts, online: false, session: 9 };
    const r = decodeLiftMessage(topic('presence'), encodeLiftMessage('presence', message));
    expect(r).toEqual({ ok: true, deviceNo: 'SIM-0001', kind: 'presence', message });
  });
});
