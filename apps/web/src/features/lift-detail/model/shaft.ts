import { defaultConfig, type DeviceKind, type LiftConfig } from '@liftlink/protocol';

export interface FloorStop {
  floor: number;
  /** Where the platform stops: parking memory value + relative value, encoder counts. */
  position: number;
}

/** The stop of every floor, from the lift's configuration (factory values when none is known). */
export function floorStops(
  config: LiftConfig | null,
  kind: DeviceKind,
  floors: number,
): FloorStop[] {
  const fallback = defaultConfig(kind, floors);
  const num = (key: string): number => {
    const value = config?.[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    const dflt = fallback[key];
    return typeof dflt === 'number' ? dflt : 0;
  };
  return Array.from({ length: floors }, (_, i) => ({
    floor: i + 1,
    position: num(`parkingMemory${i + 1}`) + num(`parkingRelative${i + 1}`),
  }));
}

export interface TravelRange {
  min: number;
  max: number;
}

/** The drawn travel: the low to high value with a margin, widened to show the platform. */
export function travelRange(
  stops: readonly FloorStop[],
  config: LiftConfig | null,
  position: number | null,
): TravelRange {
  const values = stops.map((s) => s.position);
  for (const key of ['lowValue', 'highValue'] as const) {
    const v = config?.[key];
    if (typeof v === 'number' && Number.isFinite(v)) values.push(v);
  }
  if (position !== null && Number.isFinite(position)) values.push(position);
  let min = Math.min(...values);
  let max = Math.max(...values);
  if (!Number.isFinite(min) || !Number.isFinite(max)) return { min: 0, max: 1 };
  const pad = Math.max((max - min) * 0.06, 1_000);
  min -= pad;
  max += pad;
  return { min, max };
}

/** 0 at the bottom of the drawn travel, 1 at the top. */
export function travelFraction(position: number, range: TravelRange): number {
  if (range.max <= range.min) return 0;
  return Math.min(1, Math.max(0, (position - range.min) / (range.max - range.min)));
}
