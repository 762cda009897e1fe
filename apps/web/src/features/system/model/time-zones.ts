import { DEFAULT_TIME_ZONE, timeZoneOffsetMinutes } from '@liftlink/protocol';

/**
 * The IANA time zones an organization may choose, from the browser's own list (Intl): no
 * time-zone table of ours to keep up to date. Each shows its present offset, so "Moscow" and
 * "+03:00" both find Europe/Moscow.
 */

/** "+03:00", "-05:30", "±00:00" for UTC itself. */
export function offsetText(minutes: number): string {
  const sign = minutes > 0 ? '+' : minutes < 0 ? '-' : '±';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The browser's zones, UTC first (Intl leaves it out), and `current` if the browser lacks it. */
export function timeZoneNames(current?: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const names = [DEFAULT_TIME_ZONE, ...known.filter((zone) => zone !== DEFAULT_TIME_ZONE)];
  if (current && !names.includes(current)) names.push(current);
  return names;
}

export interface TimeZoneOption {
  value: string;
  label: string;
}

/** The options of the time-zone select: "Europe/Moscow (UTC+03:00)", offsets as of `at`. */
export function timeZoneOptions(current?: string, at: Date = new Date()): TimeZoneOption[] {
  return timeZoneNames(current).map((zone) => {
    let offset = '';
    try {
      offset = ` (UTC${offsetText(timeZoneOffsetMinutes(zone, at))})`;
    } catch {
      // A zone this browser cannot compute (an organization's, saved elsewhere): its name alone.
    }
    return { value: zone, label: zone === DEFAULT_TIME_ZONE ? zone : `${zone}${offset}` };
  });
}
