import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isOpenLiftUpdate, type LiftFirmwareUpdate } from '@liftlink/protocol';
import { LiftUpdateOverview } from '../../../components/firmware-update/lift-update-overview.tsx';
import { useLiftFirmwareUpdates } from '../../../lib/firmware-updates-api.ts';

/** The open updates, else the one that ended last (the list comes open first, newest ended next). */
export function cardUpdates(list: readonly LiftFirmwareUpdate[]): LiftFirmwareUpdate[] {
  const open = list.filter(isOpenLiftUpdate);
  return open.length > 0 ? open : list.slice(0, 1);
}

/**
 * The lift's firmware update (docs/firmware.md, "What operators see"): what its maker's
 * campaign will install and when, or how the last one ended. Not shown while there is none
 * (nor while it loads, nor when it could not be read: the firmware updates page says why).
 */
export function FirmwareUpdateCard({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const query = useLiftFirmwareUpdates(liftId);
  const updates = cardUpdates(query.data?.list ?? []);
  if (updates.length === 0) return null;
  return (
    <Card
      size="small"
      title={t('firmwareUpdate.card.title')}
      extra={
        <Link
          to={`/lift/firmware-updates?${new URLSearchParams({ show: 'all', search: updates[0]!.deviceNo }).toString()}`}
          data-testid="lift-firmware-updates-link"
        >
          {t('firmwareUpdate.card.all')}
        </Link>
      }
      data-testid="lift-firmware-update-card"
    >
      <div className="firmware-update-list">
        {updates.map((u) => (
          <div
            key={u.campaignId}
            className="firmware-update-item"
            data-testid={`firmware-update-row-${u.liftId}`}
            data-campaign-id={u.campaignId}
          >
            <LiftUpdateOverview update={u} />
          </div>
        ))}
      </div>
    </Card>
  );
}
