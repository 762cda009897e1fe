import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLLING_CHANNEL,
  FrameDecoder,
  SerialLink,
  defaultConfig,
  encodeRequest,
  type ByteTransport,
  type Frame,
} from '@liftlink/protocol';
import { generateFirmwareKeyPair } from '@liftlink/protocol/firmware-signature';
import { ControllerCore } from './controller.ts';
import { freshState, type ControllerState } from './controller-state.ts';

const SECRET = 's'.repeat(43);

/** A controller with an in-memory flash; `failSaves` makes the flash refuse writes. */
function bench(initial?: ControllerState) {
  const flash: { state: ControllerState; writes: number; failSaves: boolean } = {
    state: initial ?? freshState({ controllerSerial: 'CTL-TEST-1', kind: 'inclinedStraightRack', floors: 2, firmware: 'SIM-1.0.0' }),
    writes: 0,
    failSaves: false,
  };
  let linkChanges = 0;
  const core = new ControllerCore(structuredClone(flash.state), {
    save: async (next) => {
      if (flash.failSaves) throw new Error('flash worn out');
      flash.writes++;
      flash.state = structuredClone(next);
    },
    onLinkSettingsChanged: () => void linkChanges++,
  });
  const listeners = new Set<(b: Uint8Array) => void>();
  const transport: ByteTransport = {
    write: async (bytes) => {
      await core.receive(bytes, (reply) => listeners.forEach((l) => l(reply)));
    },
    onData: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const link = new SerialLink(transport, { timeoutMs: 100, retries: 0 });
  return { core, flash, link, linkChanges: () => linkChanges };
}

describe('simulated controller on the serial link', () => {
  it('answers the handshake of a factory-new controller', async () => {
    const { link } = bench();
    expect(await link.handshake()).toEqual({
      protocol: 1,
      deviceNo: null,
      kind: 'inclinedStraightRack',
      floors: 2,
      firmware: 'SIM-1.0.0',
      controllerSerial: 'CTL-TEST-1',
      configVersion: 0,
      configSaved: true,
      credentials: false,
      mqtt: 'none',
      firmwareKeyIds: [],
    });
  });

  it('trusts the firmware keys the bench writes, over a restart, and refuses a key whose id is not its own', async () => {
    const { link, flash, linkChanges } = bench();
    const maker = generateFirmwareKeyPair();
    const next = generateFirmwareKeyPair();
    const key = (pair: typeof maker) => ({ keyId: pair.keyId, publicKey: pair.publicKey });
    expect(await link.writeFirmwareKeys({ keys: [key(maker), key(next)] })).toEqual({ keyIds: [key(maker).keyId, key(next).keyId] });
    expect(flash.state.firmwareKeys).toEqual([key(maker), key(next)]);
    expect((await link.handshake()).firmwareKeyIds).toEqual([key(maker).keyId, key(next).keyId]);
    expect(linkChanges()).toBe(1);
    // a key garbled on the way (its id is another key's): refused, the trusted keys stay
    await expect(link.writeFirmwareKeys({ keys: [{ ...key(maker), keyId: key(next).keyId }] })).rejects.toMatchObject({ code: 'mismatch' });
    expect(flash.state.firmwareKeys).toEqual([key(maker), key(next)]);
    // a restarted controller still trusts them
    const again = bench(flash.state);
    expect((await again.link.handshake()).firmwareKeyIds).toEqual([key(maker).keyId, key(next).keyId]);
  });

  it('stores a device number, then credentials for that number only', async () => {
    const { link, flash, linkChanges } = bench();
    await expect(link.writeCredentials({ mqttUrl: 'mqtt://127.0.0.1:1883', deviceNo: 'LL-0001', secret: SECRET })).rejects.toMatchObject({ code: 'noDeviceNo' });
    expect(await link.writeDeviceNo('LL-0001')).toEqual({ deviceNo: 'LL-0001' });
    expect(flash.state.deviceNo).toBe('LL-0001');
    await expect(link.writeCredentials({ mqttUrl: 'mqtt://127.0.0.1:1883', deviceNo: 'LL-0002', secret: SECRET })).rejects.toMatchObject({ code: 'mismatch' });
    await link.writeCredentials({ mqttUrl: 'mqtt://127.0.0.1:1883', deviceNo: 'LL-0001', secret: SECRET });
    expect(flash.state.credentials).toEqual({ mqttUrl: 'mqtt://127.0.0.1:1883', secret: SECRET });
    expect((await link.handshake()).credentials).toBe(true);
    // a new number drops the credentials of the old one
    await link.writeDeviceNo('LL-0009');
    expect(flash.state).toMatchObject({ deviceNo: 'LL-0009', credentials: null });
    expect(linkChanges()).toBe(3);
  });

  it('runs a written configuration at once and keeps it over a restart only after saving', async () => {
    const { link, flash } = bench();
    const { config, version } = await link.readConfig();
    expect(version).toBe(0);
    await expect(link.writeConfig({ baseVersion: 3, config })).rejects.toMatchObject({ code: 'versionConflict' });
    await expect(link.writeConfig({ baseVersion: 0, config: { ...config, rapidSpeed: 999 } })).rejects.toMatchObject({
      code: 'configInvalid',
      issues: [{ path: 'rapidSpeed', message: 'validation.max' }],
    });
    expect(await link.writeConfig({ baseVersion: 0, config: { ...config, rapidSpeed: 100 } })).toEqual({ version: 1 });
    expect(await link.handshake()).toMatchObject({ configVersion: 1, configSaved: false });
    expect(flash.state.config).toBeNull();

    // power cycle before saving: the running configuration is gone
    const rebooted = bench(flash.state);
    expect((await rebooted.link.readConfig()).version).toBe(0);

    expect(await link.saveConfig()).toEqual({ version: 1 });
    expect(flash.state.config).toMatchObject({ version: 1, values: { rapidSpeed: 100 } });
    const again = bench(flash.state);
    expect(await again.link.readConfig()).toMatchObject({ version: 1, saved: true, config: { rapidSpeed: 100 } });
  });

  it('keeps polling channels, data conversions and the field port', async () => {
    const { link, flash } = bench();
    const settings = { ...DEFAULT_POLLING_CHANNEL, enabled: true, slaveAddress: 7, startRegister: 100, count: 4 };
    expect(await link.writeChannel({ channel: 10, settings })).toEqual({ channel: 10 });
    expect(await link.readChannel(10)).toEqual({ channel: 10, settings });
    expect(flash.state.channels[9]).toEqual(settings);

    const entry = { channel: 10, register: 102, type: 'float32', byteOrder: 'CDAB', scale: 0.1, key: 'oilTemp' } as const;
    await expect(link.writeConversions({ entries: [{ ...entry, register: 103 }] })).rejects.toMatchObject({
      code: 'badRequest',
      issues: [{ path: '0.register', message: 'validation.outsideChannel', params: { min: 100, max: 102 } }],
    });
    expect(await link.writeConversions({ entries: [entry] })).toEqual({ count: 1 });
    expect((await link.readConversions()).entries).toEqual([entry]);

    const port = { baudRate: 19200, dataBits: 8, parity: 'even', stopBits: 1 } as const;
    expect(await link.writePort(port)).toEqual(port);
    expect(flash.state.fieldPort).toEqual(port);
  });

  it('keeps its old settings when the flash refuses a write', async () => {
    const { link, flash, core } = bench();
    await link.writeDeviceNo('LL-0001');
    flash.failSaves = true;
    await expect(link.writeDeviceNo('LL-0002')).rejects.toMatchObject({ code: 'storage' });
    await expect(link.writeChannel({ channel: 1, settings: { ...DEFAULT_POLLING_CHANNEL, enabled: true } })).rejects.toMatchObject({ code: 'storage' });
    expect(core.state.deviceNo).toBe('LL-0001');
    expect(core.state.channels[0]!.enabled).toBe(false);
    expect((await link.handshake()).deviceNo).toBe('LL-0001');
  });

  it('answers a repeated request from its cache without doing it twice', async () => {
    const { core, flash } = bench();
    const frame = one(encodeRequest('writeDeviceNo', 42, { deviceNo: 'LL-0001' })!);
    const first = await core.handleFrame(frame);
    const writes = flash.writes;
    const again = await core.handleFrame(frame);
    expect(again).toEqual(first);
    expect(flash.writes).toBe(writes);
  });

  it('ignores garbage, a wrong checksum and a frame cut off mid-write, and changes nothing', async () => {
    const { core, flash } = bench();
    const sent: Uint8Array[] = [];
    const send = (b: Uint8Array) => void sent.push(b);
    const good = encodeRequest('writeDeviceNo', 1, { deviceNo: 'LL-0001' })!;

    await core.receive(new TextEncoder().encode('AT+RESET\r\n'), send, 0);
    const corrupted = good.slice();
    corrupted[10]! ^= 0x20;
    await core.receive(corrupted, send, 10);
    // the cable is pulled after half the frame; the rest never comes
    await core.receive(good.subarray(0, 12), send, 20);
    core.expire(1_000);
    expect(sent).toEqual([]);
    expect(flash.writes).toBe(0);
    expect(core.state.deviceNo).toBeNull();
    expect(core.stats.errors).toMatchObject({ garbage: expect.any(Number), crc: 1, timeout: expect.any(Number) });

    // a valid frame afterwards is understood
    await core.receive(good, send, 2_000);
    expect(sent).toHaveLength(1);
    expect(core.state.deviceNo).toBe('LL-0001');
  });

  it('answers a malformed or unknown request with an error frame', async () => {
    const { core } = bench();
    const bad = await core.handleFrame({ cmd: 0x02, seq: 1, payload: new TextEncoder().encode('{"deviceNo":"x"}') });
    const unknown = await core.handleFrame({ cmd: 0x42, seq: 2, payload: new Uint8Array(0) });
    expect(one(bad!)).toMatchObject({ cmd: 0xff });
    expect(new TextDecoder().decode(one(bad!).payload)).toContain('"badRequest"');
    expect(new TextDecoder().decode(one(unknown!).payload)).toContain('"unknownCommand"');
  });

  it('starts from the saved configuration, or factory defaults for its kind', () => {
    const { core } = bench();
    expect(core.machine.config).toEqual(defaultConfig('inclinedStraightRack', 2));
    const vertical = bench(freshState({ controllerSerial: 'CTL-TEST-2', kind: 'verticalHydraulic', floors: 3, firmware: 'SIM-1.0.0' }));
    expect(vertical.core.machine.config).toEqual(defaultConfig('verticalHydraulic', 3));
  });
});

function one(bytes: Uint8Array): Frame {
  const ev = new FrameDecoder().push(bytes, 0);
  return (ev[0] as { frame: Frame }).frame;
}
