import { useTranslation } from 'react-i18next';
import {
  ENCODER_COUNTS_PER_MM,
  type DeviceKind,
  type LiftConfig,
  type LiftStatus,
} from '@liftlink/protocol';
import { floorStops, travelFraction, travelRange } from '../model/shaft.ts';

const WIDTH = 300;
const HEIGHT = 380;
/** The rail of an inclined lift, bottom to top. */
const RAIL = { x1: 100, y1: 336, x2: 264, y2: 56 };
/** The shaft of a vertical lift. */
const SHAFT = { x: 120, width: 80, top: 40, bottom: 350 };

function railPoint(f: number, vertical: boolean): { x: number; y: number } {
  if (vertical)
    return { x: SHAFT.x + SHAFT.width / 2, y: SHAFT.bottom - f * (SHAFT.bottom - SHAFT.top) };
  return { x: RAIL.x1 + f * (RAIL.x2 - RAIL.x1), y: RAIL.y1 + f * (RAIL.y2 - RAIL.y1) };
}

function Stairs() {
  const steps = 12;
  const points: string[] = [];
  for (let i = 0; i <= steps; i++) {
    const a = railPoint(i / steps, false);
    const b = railPoint((i + 1) / steps, false);
    points.push(`${a.x},${a.y + 22}`);
    if (i < steps) points.push(`${a.x},${b.y + 22}`);
  }
  return <polyline points={points.join(' ')} fill="none" stroke="#d9d9d9" strokeWidth={3} />;
}

/**
 * The rail (inclined kinds) or shaft (vertical lift) with the floors at their parking
 * points, and the platform drawn at its reported position; it glides between the status
 * snapshots (one a second while it moves).
 */
export function ShaftDrawing({
  kind,
  floors,
  config,
  status,
  online,
}: {
  kind: DeviceKind;
  floors: number;
  config: LiftConfig | null;
  status: LiftStatus | null;
  online: boolean;
}) {
  const { t } = useTranslation();
  const vertical = kind === 'verticalHydraulic';
  const stops = floorStops(config, kind, floors);
  const position = status?.platform.position ?? null;
  const range = travelRange(stops, config, position);
  const platform = position === null ? null : railPoint(travelFraction(position, range), vertical);
  const folded = status?.platform.deformation === 'folded';
  const moving = status !== null && status.platform.movement !== 'stop';
  const faulty = (status?.faults.length ?? 0) > 0;
  const fill = faulty ? '#ff4d4f' : !online ? '#bfbfbf' : moving ? '#1677ff' : '#13c2c2';
  const pw = vertical ? 64 : folded ? 16 : 40;
  const ph = vertical ? 30 : folded ? 28 : 18;

  return (
    <figure className="shaft-figure" data-testid="shaft-drawing">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className="shaft-svg"
        role="img"
        aria-label={t('lift.drawing.label', {
          floor: status?.floor ?? '—',
          position: position ?? '—',
        })}
      >
        {vertical ? (
          <rect
            x={SHAFT.x}
            y={SHAFT.top - 10}
            width={SHAFT.width}
            height={SHAFT.bottom - SHAFT.top + 20}
            fill="#fafafa"
            stroke="#8c8c8c"
            strokeWidth={2}
          />
        ) : (
          <>
            <Stairs />
            <line {...RAIL} stroke="#595959" strokeWidth={5} strokeLinecap="round" />
          </>
        )}
        {stops.map((stop) => {
          const p = railPoint(travelFraction(stop.position, range), vertical);
          const current = status?.floor === stop.floor;
          const target = status?.targetFloor === stop.floor;
          const color = current ? '#52c41a' : target ? '#1677ff' : '#8c8c8c';
          // The landing: a ledge left of the rail at the platform's floor level, named above it.
          const level = vertical ? p.y + ph / 2 : p.y + 10;
          const x2 = vertical ? SHAFT.x : p.x - 24;
          const x1 = x2 - 56;
          return (
            <g key={stop.floor} data-testid={`shaft-floor-${stop.floor}`} data-current={current}>
              <line
                x1={x1}
                y1={level}
                x2={x2}
                y2={level}
                stroke={color}
                strokeWidth={current || target ? 4 : 3}
                strokeLinecap="round"
              />
              <text
                x={(x1 + x2) / 2}
                y={level - 7}
                fontSize={13}
                fill={color}
                fontWeight={600}
                textAnchor="middle"
              >
                {t('lift.drawing.floor', { floor: stop.floor })}
              </text>
            </g>
          );
        })}
        {platform ? (
          <g
            className="shaft-platform"
            data-testid="shaft-platform"
            data-position={position ?? ''}
            data-moving={moving}
            style={{ transform: `translate(${platform.x}px, ${platform.y}px)` }}
          >
            <rect
              x={-pw / 2}
              y={vertical ? -ph / 2 : 10 - ph}
              width={pw}
              height={ph}
              rx={4}
              fill={fill}
              stroke="#262626"
              strokeWidth={1.5}
            />
            {moving ? (
              <text x={pw / 2 + 6} y={vertical ? 5 : 0} fontSize={16} fill="#1677ff">
                {status.platform.movement === 'fall' ? '▼' : '▲'}
              </text>
            ) : null}
          </g>
        ) : null}
      </svg>
      <figcaption className="shaft-caption">
        {position === null
          ? t('lift.drawing.noPosition')
          : t('lift.drawing.position', {
              position,
              mm: Math.round(position / ENCODER_COUNTS_PER_MM),
            })}
      </figcaption>
    </figure>
  );
}
