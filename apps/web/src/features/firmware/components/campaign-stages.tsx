import { Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { CampaignStage } from '@liftlink/protocol';
import { stageLabel } from '../model/campaign-model.ts';

const TIME = 'YYYY-MM-DD HH:mm';
const COUNTS = ['waiting', 'inProgress', 'done', 'failed', 'cancelled'] as const;

/** The stage's name: "Canary" for stage 0, "Wave n" after it. */
export function StageName({ stage }: { stage: number }) {
  const { t } = useTranslation();
  const label = stageLabel(stage);
  return label.kind === 'canary'
    ? t('firmware.campaign.stage.canary')
    : t('firmware.campaign.stage.wave', { number: label.number });
}

/** The stages in order, each with its lifts by state and when it started and ended. */
export function CampaignStages({ stages }: { stages: readonly CampaignStage[] }) {
  const { t } = useTranslation();
  return (
    <ol className="campaign-stages">
      {stages.map((s) => (
        <li key={s.stage} data-testid={`campaign-stage-${s.stage}`}>
          <div className="firmware-stack">
            <div className="firmware-line">
              <Typography.Text strong>
                <StageName stage={s.stage} />
              </Typography.Text>
              <span className="lift-muted">{s.size}</span>
            </div>
            <div className="firmware-line campaign-counts">
              {COUNTS.map((key) => (
                <span key={key} className={s[key] > 0 ? `campaign-count-${key}` : 'lift-muted'}>
                  {t(`firmware.campaign.count.${key}`)}: {s[key]}
                </span>
              ))}
            </div>
            <span className="lift-muted">
              {s.startedAt
                ? `${t('firmware.campaign.startedAt')}: ${dayjs(s.startedAt).format(TIME)}`
                : t('firmware.campaign.notStarted')}
              {s.endedAt
                ? ` · ${t('firmware.campaign.endedAt')}: ${dayjs(s.endedAt).format(TIME)}`
                : null}
            </span>
          </div>
        </li>
      ))}
    </ol>
  );
}
