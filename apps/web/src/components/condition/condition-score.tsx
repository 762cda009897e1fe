import { Tag } from 'antd';
import { scoreColor } from './condition-texts.ts';

/** A lift's condition score, 0–100, coloured by how worrying it is. */
export function ConditionScore({ score }: { score: number }) {
  return (
    <Tag color={scoreColor(score)} className="condition-score" data-testid="condition-score">
      {score}
    </Tag>
  );
}
