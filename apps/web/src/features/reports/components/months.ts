import { currentMonth } from '@liftlink/protocol';

/** The `count` months up to the current UTC month, newest first (`YYYY-MM`). */
export function recentMonths(count: number, now: Date = new Date()): string[] {
  const [y, m] = currentMonth(now).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = y * 12 + m - 1 - i;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}
