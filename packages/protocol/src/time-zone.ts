import { z } from 'zod';

/**
 * IANA time zones (an organization's, for the installation windows of its lifts' firmware
 * updates), computed with Intl: no time-zone data of our own to keep up to date.
 */

/** The offset of `timeZone` from UTC at `at`, in minutes (east positive). */
export function timeZoneOffsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((local - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** Whether `timeZone` is an IANA time zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name this runtime knows, e.g. `Europe/Moscow`. */
export const timeZoneSchema = z.string().trim().min(1, 'validation.required').max(64, 'validation.tooLong').refine(isTimeZone, 'validation.invalid');

/** The time zone of an organization that has not chosen one. */
export const DEFAULT_TIME_ZONE = 'UTC';
