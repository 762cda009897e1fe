import { describe, expect, it, vi } from 'vitest';
import {
  SerialError,
  type Handshake,
  type ManufactureLift,
  type NewIotCredentials,
} from '@liftlink/protocol';
import {
  assignDeviceNo,
  issueCredentials,
  missingDevice,
  resetCredentials,
  updateIotInfo,
  writeCredentials,
  type DeviceApi,
  type DeviceBench,
} from './device-steps.ts';

const handshake = (patch: Partial<Handshake> = {}): Handshake => ({
  protocol: 1,
  deviceNo: 'SL2026000123',
  kind: 'inclinedStraightRack',
  floors: 2,
  firmware: '1.4.0',
  controllerSerial: 'CTRL-0001',
  configVersion: 3,
  configSaved: true,
  credentials: false,
  mqtt: 'none',
  ...patch,
});

const lift = (patch: Partial<ManufactureLift> = {}): ManufactureLift => ({
  id: 'lift-1',
  deviceNo: 'SL2026000123',
  kind: 'inclinedStraightRack',
  floors: 2,
  firmware: '1.4.0',
  controllerSerial: 'CTRL-0001',
  online: false,
  lastSeenAt: null,
  hasCredentials: true,
  iotIssuedAt: '2026-11-20T08:00:00.000Z',
  configVersion: 3,
  config: null,
  ...patch,
});

const creds: NewIotCredentials = {
  liftId: 'lift-1',
  deviceNo: 'SL2026000123',
  mqttUrl: 'mqtts://iot.example.com:8883',
  secret: 's3cret',
  issuedAt: '2026-11-24T08:00:00.000Z',
};

const SIGNING_KEY = {
  orgId: 'org-1',
  keyId: '3f2a9c0d1e4b5a67',
  publicKey: 'B'.repeat(42) + 'A=',
  source: 'generated' as const,
};

/** A bench whose controller answers `shown` first and then each of `next` in turn; every call is logged. */
function fakeBench(shown: Handshake | null, next: Handshake[] = [], writeFails = false) {
  const log: string[] = [];
  const answers = [...next];
  const link = {
    writeDeviceNo: vi.fn(async (deviceNo: string) => void log.push(`write deviceNo ${deviceNo}`)),
    writeCredentials: vi.fn(async () => {
      log.push('write credentials');
      if (writeFails) throw new SerialError('timeout');
    }),
    writeFirmwareKeys: vi.fn(async ({ keys }: { keys: { keyId: string }[] }) => {
      log.push(`write firmware keys ${keys.map((k) => k.keyId).join(',')}`);
      return { keyIds: keys.map((k) => k.keyId) };
    }),
  };
  const bench = {
    handshake: shown,
    serial: { link: shown ? link : null },
    requireLink: () => link,
    refresh: vi.fn(async () => {
      log.push('handshake');
      return answers.shift() ?? shown;
    }),
    setLift: vi.fn((l: ManufactureLift | null) => void log.push(`lift ${l?.hasCredentials}`)),
    // Like the bench: a failed step resolves undefined.
    run: vi.fn(async <T>(action: () => Promise<T>) => action().catch(() => undefined)),
    audit: vi.fn((step: string, result: string) => void log.push(`audit ${step} ${result}`)),
  };
  return { bench: bench as unknown as DeviceBench, spies: bench, link, log };
}

function fakeApi(log: string[]) {
  return {
    updateIotInfo: vi.fn(async (body: { mode: string }) => {
      log.push(`cloud ${body.mode}`);
      return { liftId: 'lift-1', lift: lift({ hasCredentials: false }) };
    }),
    getNewIot: vi.fn(async () => {
      log.push('cloud new credentials');
      return creds;
    }),
    resetIot: vi.fn(async () => {
      log.push('cloud reset');
      return null;
    }),
    firmwareSigningKey: vi.fn(async () => {
      log.push('cloud signing key');
      return SIGNING_KEY;
    }),
  } satisfies DeviceApi;
}

describe('factory bench device steps', () => {
  it('needs a controller on the cable, and a device number for the cloud steps', () => {
    expect(missingDevice(fakeBench(null).bench, false)).toBe('manufacture.noDevice');
    const unnumbered = fakeBench(handshake({ deviceNo: null })).bench;
    expect(missingDevice(unnumbered, false)).toBeNull();
    expect(missingDevice(unnumbered, true)).toBe('errors.lift.noDeviceNo');
    expect(missingDevice(fakeBench(handshake()).bench, true)).toBeNull();
  });

  it('registers a device number in the cloud before writing it to the controller, then reads it back', async () => {
    const { bench, log } = fakeBench(handshake({ deviceNo: null }));
    const api = fakeApi(log);
    await assignDeviceNo(bench, api, handshake({ deviceNo: null }), 'SL2026000999');
    expect(api.updateIotInfo).toHaveBeenCalledWith({
      mode: 'assign',
      deviceNo: 'SL2026000999',
      kind: 'inclinedStraightRack',
      floors: 2,
      firmware: '1.4.0',
      controllerSerial: 'CTRL-0001',
    });
    expect(log).toEqual([
      'cloud assign',
      'lift false',
      'write deviceNo SL2026000999',
      'audit writeDeviceNo ok',
      'handshake',
    ]);
  });

  it('a number the cloud refuses is never written to the controller', async () => {
    const { bench, link, log } = fakeBench(handshake({ deviceNo: null }));
    const api = fakeApi(log);
    api.updateIotInfo.mockRejectedValueOnce(new Error('lift.deviceNoTaken'));
    await expect(assignDeviceNo(bench, api, handshake(), 'SL2026000999')).rejects.toThrow();
    expect(link.writeDeviceNo).not.toHaveBeenCalled();
  });

  it('updates the cloud record with what the controller reports now', async () => {
    const { bench, log } = fakeBench(handshake(), [handshake({ firmware: '1.5.0', floors: 3 })]);
    const api = fakeApi(log);
    await updateIotInfo(bench, api);
    expect(api.updateIotInfo).toHaveBeenCalledWith(
      expect.objectContaining({ mode: 'update', firmware: '1.5.0', floors: 3 }),
    );
  });

  it('refuses a step when another controller is now on the cable ("device does not match")', async () => {
    const other = handshake({ controllerSerial: 'CTRL-0002' });
    const { bench, log } = fakeBench(handshake(), [other, other]);
    const api = fakeApi(log);
    await expect(updateIotInfo(bench, api)).rejects.toEqual(new SerialError('mismatch'));
    const shown = vi.fn();
    await expect(issueCredentials(bench, api, 'SL2026000123', shown)).rejects.toEqual(
      new SerialError('mismatch'),
    );
    expect(api.updateIotInfo).not.toHaveBeenCalled();
    expect(api.getNewIot).not.toHaveBeenCalled();
    expect(shown).not.toHaveBeenCalled();
  });

  it('writes new credentials to the controller, shows them as written and reads the controller again', async () => {
    const { bench, link, log } = fakeBench(handshake());
    const shown = vi.fn();
    await expect(issueCredentials(bench, fakeApi(log), 'SL2026000123', shown)).resolves.toBe(true);
    expect(link.writeCredentials).toHaveBeenCalledWith({
      mqttUrl: creds.mqttUrl,
      deviceNo: creds.deviceNo,
      secret: creds.secret,
    });
    expect(shown).toHaveBeenCalledWith(creds, true);
    // The maker's firmware signing key goes with them.
    expect(log).toEqual([
      'handshake',
      'cloud new credentials',
      'write credentials',
      'audit writeCredentials ok',
      'cloud signing key',
      `write firmware keys ${SIGNING_KEY.keyId}`,
      'audit writeFirmwareKeys ok',
      'handshake',
    ]);
  });

  it('credentials stay written when the controller cannot take the firmware key, and the failure is audited', async () => {
    const { bench, link, log, spies } = fakeBench(handshake());
    link.writeFirmwareKeys.mockRejectedValueOnce(new SerialError('unknownCommand'));
    const shown = vi.fn();
    await expect(writeCredentials(bench, fakeApi(log), creds, shown)).resolves.toBe(true);
    expect(shown).toHaveBeenCalledWith(true);
    expect(spies.audit).toHaveBeenCalledWith('writeFirmwareKeys', 'failed', { deviceNo: creds.deviceNo });
    expect(log.at(-1)).toBe('handshake');
  });

  it('a failed write still shows the secret once, as not written, and audits the failure', async () => {
    const { bench, log } = fakeBench(handshake(), [], true);
    const shown = vi.fn();
    await expect(writeCredentials(bench, fakeApi(log), creds, shown)).resolves.toBe(false);
    expect(shown).toHaveBeenCalledWith(false);
    // Nothing more is written to a controller that did not take its credentials.
    expect(log).toEqual(['write credentials', 'audit writeCredentials failed']);
  });

  it('a reset leaves the cloud record without credentials', async () => {
    const { bench, spies, log } = fakeBench(handshake());
    const api = fakeApi(log);
    await resetCredentials(bench, api, lift());
    expect(api.resetIot).toHaveBeenCalledWith('lift-1');
    expect(spies.setLift).toHaveBeenCalledWith(
      expect.objectContaining({ id: 'lift-1', hasCredentials: false, iotIssuedAt: null }),
    );
  });
});
