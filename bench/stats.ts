/** The p-th percentile (nearest rank) of ascending `sorted`, to one decimal; NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10;
}
