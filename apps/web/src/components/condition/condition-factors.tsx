import { List, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ConditionFactor } from '@liftlink/protocol';
import { tx } from '../../lib/i18n/i18n.ts';
import { reasonText } from './condition-texts.ts';
import './condition.css';

const STATE_COLOR = { ok: 'green', worse: 'red', learning: 'default' } as const;

/** The factors of a condition score, each with its state, the points it takes and its explanation. */
export function ConditionFactors({ factors }: { factors: ConditionFactor[] }) {
  const { t } = useTranslation();
  return (
    <List
      size="small"
      className="condition-factors"
      dataSource={factors}
      renderItem={(f) => (
        <List.Item key={f.id} data-testid={`condition-factor-${f.id}`} data-state={f.state}>
          <div className="condition-factor">
            <div className="condition-factor-head">
              <strong>{tx(`condition.factor.${f.id}`)}</strong>
              <Tag color={STATE_COLOR[f.state]}>{tx(`condition.state.${f.state}`)}</Tag>
              {f.points > 0 ? (
                <span className="condition-factor-points">
                  {t('condition.points', { points: f.points })}
                </span>
              ) : null}
            </div>
            <div className="condition-factor-reason">
              {reasonText(f.reason)}
              {f.baselineFrom ? (
                <span className="condition-factor-baseline">
                  {' '}
                  · {tx(`condition.baseline.${f.baselineFrom}`)}
                </span>
              ) : null}
            </div>
          </div>
        </List.Item>
      )}
    />
  );
}
