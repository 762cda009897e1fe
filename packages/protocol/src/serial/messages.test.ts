import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, encodeFrame, type Frame } from './frame.ts';
import {
  DEFAULT_POLLING_CHANNEL,
  ERROR_CMD,
  SERIAL_COMMANDS,
  conversionTableSchema,
  decodeReply,
  decodeRequest,
  encodeError,
  encodeRequest,
  encodeResponse,
  pollingChannelSchema,
  type Handshake,
} from './messages.ts';

const one = (bytes: Uint8Array | null): Frame => {
  const events = new FrameDecoder().push(bytes!, 0);
  expect(events).toHaveLength(1);
  return (events[0] as { frame: Frame }).frame;
};

const handshake: Handshake = {
  protocol: 1,
  deviceNo: null,
  kind: 'inclinedStraightRack',
  floors: 2,
  firmware: 'SIM-1.0.0',
  controllerSerial: 'CTL-0001',
  configVersion: 0,
  configSaved: true,
  credentials: false,
  mqtt: 'none',
};

describe('serial messages', () => {
  it('carries the firmware signing keys the bench writes, and refuses one that is not a 32-byte key', () => {
    const key = { keyId: '3f2a9c0d1e4b5a67', publicKey: Buffer.alloc(32, 7).toString('base64') };
    const req = decodeRequest(one(encodeRequest('writeFirmwareKeys', 9, { keys: [key] })));
    expect(req).toEqual({ ok: true, command: 'writeFirmwareKeys', seq: 9, body: { keys: [key] } });
    expect(encodeRequest('writeFirmwareKeys', 9, { keys: [{ ...key, publicKey: Buffer.alloc(33).toString('base64') }] })).toBeNull();
    expect(encodeRequest('writeFirmwareKeys', 9, { keys: [{ ...key, keyId: 'XYZ' }] })).toBeNull();
    expect(encodeRequest('writeFirmwareKeys', 9, { keys: [] })).toBeNull();
    const answer = decodeReply(one(encodeResponse('handshake', 3, { ...handshake, firmwareKeyIds: [key.keyId] })));
    expect(answer).toMatchObject({ ok: true, kind: 'response', body: { firmwareKeyIds: [key.keyId] } });
    // A controller that predates the keys answers without them.
    expect(decodeReply(one(encodeResponse('handshake', 4, handshake)))).toMatchObject({ ok: true, kind: 'response' });
  });

  it('round-trips requests and answers with their command codes', () => {
    const req = decodeRequest(one(encodeRequest('writeCredentials', 5, { mqttUrl: 'mqtt://127.0.0.1:1883', deviceNo: 'LL-0001', secret: 'x'.repeat(43) })));
    expect(req).toMatchObject({ ok: true, command: 'writeCredentials', seq: 5, body: { deviceNo: 'LL-0001' } });
    const hello = one(encodeRequest('handshake', 6, {}));
    expect(hello.payload.length).toBe(0);
    expect(decodeRequest(hello)).toEqual({ ok: true, command: 'handshake', seq: 6, body: {} });

    const reply = one(encodeResponse('handshake', 6, handshake));
    expect(reply.cmd).toBe(SERIAL_COMMANDS.handshake.code | 0x80);
    expect(decodeReply(reply)).toEqual({ ok: true, kind: 'response', command: 'handshake', seq: 6, body: handshake });

    const err = one(encodeError(7, { code: 'versionConflict', cmd: SERIAL_COMMANDS.writeConfig.code }));
    expect(err.cmd).toBe(ERROR_CMD);
    expect(decodeReply(err)).toEqual({ ok: true, kind: 'error', seq: 7, body: { code: 'versionConflict', cmd: 5 } });
  });

  it("writes a cluster's broker nodes into a controller, and refuses a bad address", () => {
    const nodes = 'mqtts://mq1.example:8883,mqtts://mq2.example:8883,mqtts://mq3.example:8883';
    const req = decodeRequest(one(encodeRequest('writeCredentials', 8, { mqttUrl: nodes, deviceNo: 'LL-0001', secret: 'x'.repeat(43) })));
    expect(req).toMatchObject({ ok: true, body: { mqttUrl: nodes } });
    for (const bad of ['mqtt://mq1:1883,', 'http://mq1', 'mqtt://mq1:1883,mqtts://mq2:8883']) {
      expect(encodeRequest('writeCredentials', 9, { mqttUrl: bad, deviceNo: 'LL-0001', secret: 'x'.repeat(43) }), bad).toBeNull();
    }
  });

  it('refuses to encode a body that fails its schema', () => {
    expect(encodeRequest('writeDeviceNo', 1, { deviceNo: 'lower/case' })).toBeNull();
    expect(encodeRequest('writeChannel', 1, { channel: 11, settings: DEFAULT_POLLING_CHANNEL })).toBeNull();
    expect(encodeResponse('handshake', 1, { ...handshake, floors: 5 })).toBeNull();
  });

  it('turns unknown commands, broken JSON and wrong fields into errors, never exceptions', () => {
    const enc = new TextEncoder();
    expect(decodeRequest({ cmd: 0x55, seq: 1, payload: new Uint8Array(0) })).toMatchObject({ ok: false, error: 'unknownCommand' });
    expect(decodeRequest({ cmd: 0x02, seq: 1, payload: enc.encode('{"deviceNo":') })).toMatchObject({ ok: false, error: 'json' });
    expect(decodeRequest({ cmd: 0x02, seq: 1, payload: new Uint8Array([0xff, 0xfe]) })).toMatchObject({ ok: false, error: 'json' });
    expect(decodeRequest({ cmd: 0x02, seq: 1, payload: enc.encode('{"deviceNo":"LL-0001","extra":1}') })).toMatchObject({ ok: false, error: 'schema' });
    expect(decodeReply({ cmd: 0x02, seq: 1, payload: new Uint8Array(0) })).toMatchObject({ ok: false, error: 'unknownCommand' });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 200 }), (cmd, payload) => {
        const frame = one(encodeFrame(cmd, 0, payload));
        expect(() => decodeRequest(frame)).not.toThrow();
        expect(() => decodeReply(frame)).not.toThrow();
      }),
    );
  });

  it('checks polling channels against the Modbus limits', () => {
    const ok = pollingChannelSchema.safeParse({ ...DEFAULT_POLLING_CHANNEL, functionCode: 1, count: 2000 });
    expect(ok.success).toBe(true);
    const tooMany = pollingChannelSchema.safeParse({ ...DEFAULT_POLLING_CHANNEL, functionCode: 3, count: 126 });
    expect(tooMany.error?.issues[0]).toMatchObject({ path: ['count'], message: 'validation.max' });
    const slow = pollingChannelSchema.safeParse({ ...DEFAULT_POLLING_CHANNEL, intervalMs: 200, timeoutMs: 200 });
    expect(slow.error?.issues[0]).toMatchObject({ path: ['timeoutMs'] });
    expect(pollingChannelSchema.safeParse({ ...DEFAULT_POLLING_CHANNEL, functionCode: 6 }).success).toBe(false);
  });

  it('checks data conversions: byte order fits the type, keys are unique', () => {
    const entry = { channel: 1, register: 0, type: 'float32', byteOrder: 'CDAB', scale: 1, key: 'motorTemp' } as const;
    expect(conversionTableSchema.safeParse([entry]).success).toBe(true);
    expect(conversionTableSchema.safeParse([{ ...entry, byteOrder: 'AB' }]).error?.issues[0]?.message).toBe('validation.byteOrder');
    expect(conversionTableSchema.safeParse([entry, { ...entry, register: 2 }]).error?.issues[0]?.message).toBe('validation.duplicate');
    expect(conversionTableSchema.safeParse([{ ...entry, scale: 0 }]).success).toBe(false);
  });
});
