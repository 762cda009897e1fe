import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignLiftState } from '@liftlink/protocol';

const COLORS: Record<CampaignLiftState, string> = {
  waiting: 'default',
  offered: 'blue',
  queued: 'blue',
  downloading: 'processing',
  verifying: 'processing',
  deferred: 'gold',
  installing: 'processing',
  rebooting: 'processing',
  done: 'success',
  failed: 'error',
  rolledBack: 'error',
  cancelled: 'default',
};

/** One lift's update state in a campaign (docs/protocol.md 11.7, plus waiting/offered/cancelled). */
export function CampaignLiftStateTag({ state }: { state: CampaignLiftState }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={COLORS[state]}
      className="firmware-state"
      data-testid={`campaign-lift-state-${state}`}
    >
      {t(`firmware.state.${state}`)}
    </Tag>
  );
}
