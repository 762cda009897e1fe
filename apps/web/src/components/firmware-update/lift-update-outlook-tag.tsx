import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  liftUpdateOutlook,
  type LiftFirmwareUpdate,
  type LiftUpdateOutlook,
} from '@liftlink/protocol';
import './firmware-update.css';

const COLORS: Record<LiftUpdateOutlook, string> = {
  awaitingApproval: 'gold',
  paused: 'warning',
  scheduled: 'blue',
  inProgress: 'processing',
  done: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** Where a lift's update stands, in one word (protocol `liftUpdateOutlook`). */
export function LiftUpdateOutlookTag({
  update,
}: {
  update: Pick<LiftFirmwareUpdate, 'campaignState' | 'state'>;
}) {
  const { t } = useTranslation();
  const outlook = liftUpdateOutlook(update);
  return (
    <Tag
      color={COLORS[outlook]}
      className="firmware-update-tag"
      data-testid={`firmware-update-outlook-${outlook}`}
    >
      {t(`firmwareUpdate.outlook.${outlook}`)}
    </Tag>
  );
}
