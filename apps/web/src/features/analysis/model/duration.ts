import type { TFunction } from 'i18next';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A duration as people read it: days and hours, hours and minutes, minutes, or seconds; '—' for none. */
export function humanDuration(ms: number | null, t: TFunction): string {
  if (ms === null) return '—';
  if (ms >= DAY)
    return t('availability.duration.days', {
      d: Math.floor(ms / DAY),
      h: Math.floor((ms % DAY) / HOUR),
    });
  if (ms >= HOUR)
    return t('availability.duration.hours', {
      h: Math.floor(ms / HOUR),
      m: Math.floor((ms % HOUR) / MIN),
    });
  if (ms >= MIN) return t('availability.duration.minutes', { m: Math.floor(ms / MIN) });
  return t('availability.duration.seconds', { s: Math.round(ms / 1000) });
}

/** An availability ratio as a percentage with two decimals; '—' when there was no time to count. */
export function availabilityText(ratio: number | null): string {
  return ratio === null ? '—' : `${(ratio * 100).toFixed(2)} %`;
}
