import { useEffect, useState } from 'react';
import { Progress } from 'antd';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '@liftlink/protocol';

export type StrengthLevel = 'tooShort' | 'low' | 'medium' | 'strong';

/** zxcvbn score 0..4 -> the spec's levels; shorter than the minimum is "too short". */
export function levelFor(password: string, score: number): StrengthLevel {
  if (password.length < PASSWORD_MIN) return 'tooShort';
  if (score >= 3) return 'strong';
  if (score === 2) return 'medium';
  return 'low';
}

type Scorer = (password: string) => number;
let scorer: Promise<Scorer> | null = null;

/** zxcvbn and its dictionaries are large: loaded only when someone types a new password. */
export function loadScorer(): Promise<Scorer> {
  scorer ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common')]).then(
    ([core, common]) => {
      const factory = new core.ZxcvbnFactory({
        graphs: common.adjacencyGraphs,
        dictionary: { ...common.dictionary },
      });
      return (password: string) => factory.check(password).score;
    },
  );
  return scorer;
}

export async function strengthOf(password: string): Promise<StrengthLevel> {
  if (password.length < PASSWORD_MIN) return 'tooShort';
  const score = await loadScorer();
  return levelFor(password, score(password));
}

const PERCENT: Record<StrengthLevel, number> = { tooShort: 10, low: 35, medium: 65, strong: 100 };
const COLOR: Record<StrengthLevel, string> = {
  tooShort: '#ff4d4f',
  low: '#ff4d4f',
  medium: '#faad14',
  strong: '#52c41a',
};

/** The meter under a new-password field: strong, medium, low, too short. */
export function PasswordStrength({ password }: { password: string }) {
  const { t } = useTranslation();
  const [level, setLevel] = useState<StrengthLevel>('tooShort');
  useEffect(() => {
    let live = true;
    void strengthOf(password).then((next) => {
      if (live) setLevel(next);
    });
    return () => {
      live = false;
    };
  }, [password]);
  return (
    <div className="password-strength" data-testid="password-strength" data-level={level}>
      <div style={{ color: COLOR[level] }}>
        {t('password.strength', { level: t(`password.level.${level}`) })}
      </div>
      <Progress percent={PERCENT[level]} showInfo={false} strokeColor={COLOR[level]} size="small" />
      <div className="password-strength-hint">{t('password.hint', { min: PASSWORD_MIN })}</div>
    </div>
  );
}
