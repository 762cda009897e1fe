import {
  SerialError,
  type Handshake,
  type ManufactureLift,
  type NewIotCredentials,
} from '@liftlink/protocol';
import type { manufactureApi } from '../api/manufacture-api.ts';
import type { Bench } from '../components/bench-context.tsx';

/**
 * The bench's device steps without the screen: assign a device number, update the IoT
 * information, issue and write new credentials, reset them. Each step talks to the cloud
 * and to the controller on the cable in the order the factory needs.
 */
export type DeviceBench = Pick<
  Bench,
  'handshake' | 'refresh' | 'requireLink' | 'setLift' | 'run' | 'audit'
> & { serial: Pick<Bench['serial'], 'link'> };
export type DeviceApi = Pick<
  typeof manufactureApi,
  'updateIotInfo' | 'getNewIot' | 'resetIot' | 'firmwareSigningKey'
>;

/** Why a device step cannot start (the text key of its warning), else null. */
export function missingDevice(
  bench: Pick<DeviceBench, 'handshake' | 'serial'>,
  needsNumber: boolean,
): 'manufacture.noDevice' | 'errors.lift.noDeviceNo' | null {
  if (!bench.serial.link || !bench.handshake) return 'manufacture.noDevice';
  if (needsNumber && !bench.handshake.deviceNo) return 'errors.lift.noDeviceNo';
  return null;
}

/** The controller must still be the one shown: read it again and compare. */
export async function sameController(bench: DeviceBench): Promise<Handshake> {
  const shown = bench.handshake;
  const now = await bench.refresh();
  if (!now || !shown || now.controllerSerial !== shown.controllerSerial)
    throw new SerialError('mismatch');
  return now;
}

/** Registers the device number in the cloud, then writes it to the controller. */
export async function assignDeviceNo(
  bench: DeviceBench,
  api: DeviceApi,
  device: Handshake,
  deviceNo: string,
): Promise<void> {
  const link = bench.requireLink();
  const registered = await api.updateIotInfo({
    mode: 'assign',
    deviceNo,
    kind: device.kind,
    floors: device.floors,
    firmware: device.firmware,
    controllerSerial: device.controllerSerial,
  });
  bench.setLift(registered.lift);
  await link.writeDeviceNo(deviceNo);
  bench.audit('writeDeviceNo', 'ok', { deviceNo });
  await bench.refresh();
}

/** Sends what the controller reports now (kind, floors, firmware) to its cloud record. */
export async function updateIotInfo(bench: DeviceBench, api: DeviceApi): Promise<void> {
  const now = await sameController(bench);
  const result = await api.updateIotInfo({
    mode: 'update',
    deviceNo: now.deviceNo!,
    kind: now.kind,
    floors: now.floors,
    firmware: now.firmware,
    controllerSerial: now.controllerSerial,
  });
  bench.setLift(result.lift);
}

/**
 * Writes credentials to the controller and audits the result; `shown` learns whether they
 * were written (the secret is shown once either way). Then the maker's firmware signing key
 * goes with them (writeFirmwareKey), and the handshake is read again.
 */
export async function writeCredentials(
  bench: DeviceBench,
  api: Pick<DeviceApi, 'firmwareSigningKey'>,
  creds: NewIotCredentials,
  shown: (written: boolean) => void,
): Promise<boolean> {
  const ok = await bench.run(async () => {
    await bench.requireLink().writeCredentials({
      mqttUrl: creds.mqttUrl,
      deviceNo: creds.deviceNo,
      secret: creds.secret,
    });
    return true;
  });
  const written = ok === true;
  bench.audit('writeCredentials', written ? 'ok' : 'failed', {
    deviceNo: creds.deviceNo,
    mqttUrl: creds.mqttUrl,
  });
  shown(written);
  if (written) {
    await writeFirmwareKey(bench, api, creds.deviceNo);
    await bench.run(bench.refresh);
  }
  return written;
}

/**
 * Writes the organization's firmware signing key into the controller, so that it accepts the
 * cloud's firmware offers (docs/firmware.md) and no one else's; audited either way. A
 * controller that cannot take it (an older one, or a cloud without a key) keeps its
 * credentials: the step says why and the lift runs on without updates over the air.
 */
export async function writeFirmwareKey(
  bench: DeviceBench,
  api: Pick<DeviceApi, 'firmwareSigningKey'>,
  deviceNo: string,
): Promise<boolean> {
  const keyId = await bench.run(async () => {
    const key = await api.firmwareSigningKey();
    await bench.requireLink().writeFirmwareKeys({ keys: [{ keyId: key.keyId, publicKey: key.publicKey }] });
    return key.keyId;
  });
  bench.audit('writeFirmwareKeys', keyId ? 'ok' : 'failed', { deviceNo, ...(keyId ? { keyIds: [keyId] } : {}) });
  return keyId !== undefined;
}

/** New credentials from the cloud for the controller still on the cable, written to it. */
export async function issueCredentials(
  bench: DeviceBench,
  api: DeviceApi,
  deviceNo: string,
  shown: (creds: NewIotCredentials, written: boolean) => void,
): Promise<boolean> {
  await sameController(bench);
  const creds = await api.getNewIot(deviceNo);
  return writeCredentials(bench, api, creds, (written) => shown(creds, written));
}

/** Revokes the lift's credentials in the cloud; the record then has none. */
export async function resetCredentials(
  bench: Pick<DeviceBench, 'setLift'>,
  api: DeviceApi,
  lift: ManufactureLift,
): Promise<void> {
  await api.resetIot(lift.id);
  bench.setLift({ ...lift, hasCredentials: false, iotIssuedAt: null });
}
