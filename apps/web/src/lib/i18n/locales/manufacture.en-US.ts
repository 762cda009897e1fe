import type { ManufactureKey } from './manufacture.zh-CN.ts';

/** en-US texts of the factory bench, merged into en-US.ts. */
const manufactureEnUS: Record<ManufactureKey, string> = {
  'validation.controllerSerial': 'The controller serial is 4 to 40 letters, digits or . _ -',
  'validation.mqttUrl': 'The MQTT address is not valid',
  'validation.secret': 'The secret must be 16 to 200 characters long',
  'validation.scale': 'The scale must not be 0; its size must lie between 0.000001 and 1000000',
  'validation.conversionKey': 'The field name starts with a lower-case letter and has up to 32 letters and digits',
  'validation.byteOrder': 'The byte order does not fit the data type',
  'validation.duplicate': 'Must not repeat',
  'validation.pairingCode': 'The pairing code has 8 letters or digits',
};

export default manufactureEnUS;
