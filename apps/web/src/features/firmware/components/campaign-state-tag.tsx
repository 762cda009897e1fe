import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignPauseReason, CampaignState } from '@liftlink/protocol';

const COLORS: Record<CampaignState, string> = {
  awaitingApproval: 'gold',
  running: 'processing',
  paused: 'warning',
  done: 'success',
  cancelled: 'default',
};

/**
 * A campaign's state; a campaign that paused itself says so (too many failures), in red:
 * it waits for someone to look at the failures before it resumes.
 */
export function CampaignStateTag({
  state,
  pauseReason,
}: {
  state: CampaignState;
  pauseReason: CampaignPauseReason | null;
}) {
  const { t } = useTranslation();
  const selfPaused = state === 'paused' && pauseReason === 'failureThreshold';
  return (
    <Tag
      color={selfPaused ? 'error' : COLORS[state]}
      className="firmware-state firmware-tag-wrap"
      data-testid={`campaign-state-${state}`}
    >
      {state === 'paused' && pauseReason
        ? t(`firmware.campaign.pausedBy.${pauseReason}`)
        : t(`firmware.campaign.state.${state}`)}
    </Tag>
  );
}
