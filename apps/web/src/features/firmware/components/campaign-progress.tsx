import { Progress, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignStage } from '@liftlink/protocol';
import { campaignProgress } from '../model/campaign-model.ts';

/**
 * How far a campaign got: green for the lifts done, red after it for those failed, the
 * counts below (the bar alone cannot tell 0 from a few on a narrow screen).
 */
export function CampaignProgress({ stages }: { stages: readonly CampaignStage[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const p = campaignProgress(stages);
  return (
    <div className="campaign-progress" data-testid="campaign-progress">
      <Progress
        percent={p.endedPercent}
        success={{ percent: p.donePercent }}
        strokeColor={token.colorError}
        showInfo={false}
        size="small"
      />
      <span className="lift-muted">
        {t('firmware.campaign.progressText', { done: p.done, failed: p.failed, total: p.total })}
      </span>
    </div>
  );
}
