/**
 * The score history as a small line (0 at the bottom, 100 at the top), drawn as SVG: a
 * handful of points needs no chart library. The title lists the days for screen readers.
 */
export function ConditionSparkline({
  history,
  label,
  width = 160,
  height = 32,
}: {
  history: { day: string; score: number }[];
  label: string;
  width?: number;
  height?: number;
}) {
  if (history.length === 0) return null;
  const step = history.length > 1 ? width / (history.length - 1) : 0;
  const y = (score: number) => Math.round((height - 2 - (score / 100) * (height - 4)) * 10) / 10;
  const points = history.map((h, i) => `${Math.round(i * step * 10) / 10},${y(h.score)}`).join(' ');
  const title = `${label}: ${history.map((h) => `${h.day} ${h.score}`).join(', ')}`;
  return (
    <svg
      className="condition-sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={title}
      data-testid="condition-sparkline"
    >
      <title>{title}</title>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
      {history.length === 1 ? (
        <circle cx={0} cy={y(history[0]!.score)} r={2} fill="currentColor" />
      ) : null}
    </svg>
  );
}
