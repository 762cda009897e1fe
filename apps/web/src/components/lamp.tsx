import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type LampTone = 'green' | 'red' | 'amber' | 'blue';

const COLORS: Record<LampTone, string> = {
  green: '#52c41a',
  red: '#ff4d4f',
  amber: '#faad14',
  blue: '#1677ff',
};

/**
 * A signal lamp: lit in its colour when the signal is active, grey when not, hollow when
 * unknown. The state is also in the accessible name, not only in the colour.
 */
export function Lamp({
  on,
  label,
  tone = 'green',
  testId,
}: {
  on: boolean | null | undefined;
  label: ReactNode;
  tone?: LampTone;
  testId?: string;
}) {
  const { t } = useTranslation();
  const known = on === true || on === false;
  const stateText = known ? t(on ? 'lamp.on' : 'lamp.off') : t('lamp.unknown');
  return (
    <span
      className="lamp"
      data-testid={testId}
      data-on={known ? String(on) : 'unknown'}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}
    >
      <span
        role="img"
        aria-label={stateText}
        title={stateText}
        style={{
          flex: '0 0 auto',
          width: 12,
          height: 12,
          borderRadius: '50%',
          background: on ? COLORS[tone] : known ? '#d9d9d9' : 'transparent',
          border: `1px solid ${on ? COLORS[tone] : '#bfbfbf'}`,
          boxShadow: on ? `0 0 6px ${COLORS[tone]}` : 'none',
        }}
      />
      <span style={{ overflowWrap: 'anywhere', minWidth: 0 }}>{label}</span>
    </span>
  );
}

export interface LampItem {
  key: string;
  label: ReactNode;
  on: boolean | null | undefined;
  tone?: LampTone;
}

/** Lamps in a grid that wraps to the width available (two columns on a phone). */
export function LampGrid({ items, testId }: { items: LampItem[]; testId?: string }) {
  return (
    <div
      data-testid={testId}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(150px, 1fr))',
        gap: '8px 16px',
      }}
    >
      {items.map((item) => (
        <Lamp
          key={item.key}
          on={item.on}
          label={item.label}
          tone={item.tone}
          testId={testId ? `${testId}-${item.key}` : undefined}
        />
      ))}
    </div>
  );
}
