import { IOT_INFO_FIELDS, type IotInfo, type IotInfoField } from '@liftlink/protocol';

export { IOT_INFO_FIELDS, type IotInfo, type IotInfoField };

/** What the IoT form holds: texts as typed, the signal as a number or empty. */
export type IotForm = Partial<Record<Exclude<IotInfoField, 'signal'>, string>> & {
  signal?: number | null;
};

/** The details to send: trimmed, an empty field left out (the server's schema is strict). */
export function toIotInfo(values: IotForm): IotInfo {
  const info: Record<string, string | number> = {};
  for (const key of IOT_INFO_FIELDS) {
    const value = values[key];
    if (typeof value === 'number') info[key] = value;
    else if (typeof value === 'string' && value.trim()) info[key] = value.trim();
  }
  return info;
}

/** Whether the lift has any IoT detail stored. */
export function hasIotInfo(info: IotInfo): boolean {
  return IOT_INFO_FIELDS.some((key) => info[key] !== undefined && info[key] !== '');
}

/** Bars (0 to 4) for a signal strength in dBm, as a phone shows them. */
export function signalBars(dbm: number): 0 | 1 | 2 | 3 | 4 {
  if (dbm >= -70) return 4;
  if (dbm >= -85) return 3;
  if (dbm >= -100) return 2;
  if (dbm >= -110) return 1;
  return 0;
}

/** The IoT fields an entry of the configuration log changed, in the page's order. */
export function iotChanges<V>(
  before: Record<string, V> | null,
  after: Record<string, V> | null,
): { key: IotInfoField; before: V | undefined; after: V | undefined }[] {
  return IOT_INFO_FIELDS.filter((key) => before?.[key] !== after?.[key]).map((key) => ({
    key,
    before: before?.[key],
    after: after?.[key],
  }));
}
