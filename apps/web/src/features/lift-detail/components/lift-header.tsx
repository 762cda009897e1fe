import { Alert, Card, Descriptions, Space, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { LiftInfo } from '@liftlink/protocol';
import {
  DeformationTag,
  FaultTag,
  LocationMissingTag,
  ModeTag,
  MovementTag,
  NoDeviceNoTag,
  OnlineBadge,
} from '../../../components/lift-tags.tsx';
import type { LiftLiveState } from './use-lift-live-state.ts';

const TIME = 'YYYY-MM-DD HH:mm:ss';

/** Identity, online / offline, system mode, movement and deformation of the lift. */
export function LiftHeader({ info, live }: { info: LiftInfo; live: LiftLiveState }) {
  const { t } = useTranslation();
  const { lift } = info;
  const status = live.status;
  const address = lift.location.address;
  return (
    <Card className="lift-header" data-testid="lift-header">
      <div className="lift-header-top">
        <div className="lift-header-identity">
          <Typography.Title level={4} className="lift-header-title">
            {lift.alias || lift.deviceNo || t('lift.unnamed')}
          </Typography.Title>
          <Typography.Text type="secondary" className="lift-device-no" data-testid="lift-device-no">
            {lift.deviceNo ?? t('lift.noDeviceNo')}
          </Typography.Text>
        </div>
        <Space wrap size={[8, 8]} className="lift-header-tags">
          <Tag className="lift-state-tag">
            <OnlineBadge online={live.online} testId="lift-online" />
          </Tag>
          {status ? (
            <>
              <span data-testid="lift-mode">
                <ModeTag mode={status.mode} />
              </span>
              <span data-testid="lift-movement">
                <MovementTag movement={status.platform.movement} />
              </span>
              <span data-testid="lift-deformation">
                <DeformationTag deformation={status.platform.deformation} />
              </span>
              {status.faults.map((code) => (
                <FaultTag key={code} code={code} />
              ))}
            </>
          ) : (
            <Tag>{t('lift.status.none')}</Tag>
          )}
        </Space>
      </div>
      {lift.deviceNo ? null : (
        <Alert type="warning" showIcon title={t('lift.noDeviceNo')} className="lift-panel-alert" />
      )}
      {!live.online ? (
        <Alert
          type="info"
          showIcon
          className="lift-panel-alert"
          data-testid="lift-offline-note"
          title={
            live.statusAt
              ? t('lift.offlineSince', { time: dayjs(live.statusAt).format(TIME) })
              : t('lift.offlineNever')
          }
        />
      ) : null}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        className="lift-header-facts"
        items={[
          {
            key: 'deviceNo',
            label: t('lift.field.deviceNo'),
            children: lift.deviceNo ?? <NoDeviceNoTag />,
          },
          { key: 'kind', label: t('lift.field.kind'), children: t(`device.kind.${lift.kind}`) },
          { key: 'floors', label: t('lift.field.floors'), children: lift.floors },
          { key: 'firmware', label: t('lift.field.firmware'), children: lift.firmware || '—' },
          {
            key: 'location',
            label: t('lift.field.location'),
            children: address ? (
              <span className="lift-location-text">
                {address}
                {lift.location.site ? ` · ${lift.location.site}` : ''}
              </span>
            ) : (
              <LocationMissingTag />
            ),
          },
          {
            key: 'lastSeen',
            label: t('lift.field.lastSeen'),
            children: lift.lastSeenAt ? dayjs(lift.lastSeenAt).format(TIME) : t('lift.neverSeen'),
          },
        ]}
      />
    </Card>
  );
}
