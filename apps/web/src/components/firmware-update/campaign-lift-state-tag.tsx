import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CampaignLiftState } from '@liftlink/protocol';
import './firmware-update.css';

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

/**
 * One lift's update state in a campaign (docs/protocol.md 11.7, plus waiting/offered/cancelled):
 * the maker's campaign page and the operator's firmware updates (page and lift card).
 */
export function CampaignLiftStateTag({ state }: { state: CampaignLiftState }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={COLORS[state]}
      className="firmware-update-tag"
      data-testid={`campaign-lift-state-${state}`}
    >
      {t(`firmwareUpdate.liftState.${state}`)}
    </Tag>
  );
}
