import path from 'node:path';
import { DEVICE_KINDS, controllerSerialSchema, deviceKindSchema, type DeviceKind } from '@liftlink/protocol';

export const SERIAL_USAGE = `
Serial controller (factory bench): one lift controller on a serial port.

  --serial PATH         the serial device (e.g. /dev/ttyUSB1, or one end of a socat pty pair)
  --state FILE          the controller's flash: settings survive restarts (default: liftlink-controller-<port>.json)
  --kind K              device kind of a new controller (${DEVICE_KINDS.join(', ')}; default inclinedStraightRack)
  --floors N            floors of a new controller, 1 to 4 (default 2)
  --controller-serial S the controller's serial number (default: generated once, kept in the state file)
  --baud N              baud rate of the port (default 115200)
  --mqtt URL            use this broker instead of the one written with the credentials`;

export interface SerialSource {
  type: 'serial';
  path: string;
  stateFile: string;
  kind: DeviceKind;
  floors: number;
  controllerSerial?: string;
  baudRate: number;
  mqttUrlOverride?: string;
}

export interface SerialArgs {
  serial?: string;
  state?: string;
  kind?: string;
  floors?: string;
  'controller-serial'?: string;
  baud?: string;
  mqtt?: string;
}

/** The serial options of the command line; throws an Error with a readable message. */
export function serialSource(values: SerialArgs): SerialSource {
  const portPath = values.serial!;
  const kind = deviceKindSchema.safeParse(values.kind ?? 'inclinedStraightRack');
  if (!kind.success) throw new Error(`--kind must be one of ${DEVICE_KINDS.join(', ')}`);
  const floors = Number(values.floors ?? 2);
  if (!Number.isInteger(floors) || floors < 1 || floors > 4) throw new Error('--floors must be 1, 2, 3 or 4');
  const baudRate = Number(values.baud ?? 115_200);
  if (!Number.isInteger(baudRate) || baudRate < 300 || baudRate > 4_000_000) throw new Error('--baud must be a baud rate such as 9600 or 115200');
  const serialNo = values['controller-serial'];
  if (serialNo !== undefined && !controllerSerialSchema.safeParse(serialNo).success) throw new Error('--controller-serial must be 4 to 40 letters, digits or . _ -');
  const stateFile = values.state ?? `liftlink-controller-${path.basename(portPath).replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
  return {
    type: 'serial',
    path: portPath,
    stateFile,
    kind: kind.data,
    floors,
    baudRate,
    ...(serialNo ? { controllerSerial: serialNo } : {}),
    ...(values.mqtt ? { mqttUrlOverride: values.mqtt } : {}),
  };
}
