import { Grid, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ColumnsType } from 'antd/es/table/interface';
import { isOpenLiftUpdate, type LiftFirmwareUpdate } from '@liftlink/protocol';
import { UPDATE_TIME } from '../../../components/firmware-update/lift-update-model.ts';
import { LiftUpdateOutlookTag } from '../../../components/firmware-update/lift-update-outlook-tag.tsx';
import { LiftUpdateOverview } from '../../../components/firmware-update/lift-update-overview.tsx';
import {
  LiftUpdateVersion,
  ReleaseNotesLink,
} from '../../../components/firmware-update/lift-update-version.tsx';
import { LiftUpdateWhen } from '../../../components/firmware-update/lift-update-when.tsx';

const rowKey = (u: LiftFirmwareUpdate) => `${u.liftId}:${u.campaignId}`;

/**
 * The updates: on a desktop one column per fact, on a phone one cell per update (like the
 * maker's campaign tables). Each lift links to its page.
 */
export function FirmwareUpdatesTable({ updates }: { updates: LiftFirmwareUpdate[] }) {
  const { t } = useTranslation();
  const phone = Grid.useBreakpoint().md === false;

  const lift = (u: LiftFirmwareUpdate) => (
    <div className="firmware-updates-lift">
      <Link to={`/lift/${u.liftId}`} data-testid="firmware-update-lift">
        <Typography.Text strong className="lift-device-no">
          {u.deviceNo}
        </Typography.Text>
      </Link>
      {u.alias ? <span className="lift-muted">{u.alias}</span> : null}
    </div>
  );
  const updated = (u: LiftFirmwareUpdate) => dayjs(u.updatedAt).format(UPDATE_TIME);

  const desktop: ColumnsType<LiftFirmwareUpdate> = [
    { key: 'lift', title: t('firmwareUpdate.column.lift'), render: (_, u) => lift(u) },
    {
      key: 'operator',
      title: t('firmwareUpdate.column.operator'),
      render: (_, u) => u.operatorOrgName ?? '—',
    },
    {
      key: 'version',
      title: t('firmwareUpdate.column.version'),
      render: (_, u) => (
        <div className="firmware-updates-stack">
          <LiftUpdateVersion update={u} />
          <ReleaseNotesLink update={u} />
        </div>
      ),
    },
    {
      key: 'campaign',
      title: t('firmwareUpdate.column.campaign'),
      render: (_, u) => (
        <div className="firmware-updates-stack">
          <span>{u.campaignName}</span>
          <span className="lift-muted">{u.makerOrgName}</span>
        </div>
      ),
    },
    {
      key: 'status',
      title: t('firmwareUpdate.column.status'),
      render: (_, u) => (
        <div className="firmware-updates-stack">
          <LiftUpdateOutlookTag update={u} />
          <LiftUpdateWhen update={u} />
        </div>
      ),
    },
    {
      key: 'updated',
      title: t('firmwareUpdate.column.updated'),
      render: (_, u) => <span className="firmware-updates-time">{updated(u)}</span>,
    },
  ];
  const compact: ColumnsType<LiftFirmwareUpdate> = [
    {
      key: 'update',
      title: t('menu.cloud.firmwareUpdates'),
      render: (_, u) => (
        <div className="firmware-updates-stack">
          <div className="firmware-updates-lift">
            {lift(u)}
            {u.operatorOrgName ? <span className="lift-muted">{u.operatorOrgName}</span> : null}
          </div>
          <LiftUpdateOverview update={u} />
          {/* One that ended says when already. */}
          {isOpenLiftUpdate(u) ? (
            <span className="lift-muted">
              {t('firmwareUpdate.updatedAt', { time: updated(u) })}
            </span>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <Table<LiftFirmwareUpdate>
      rowKey={rowKey}
      size="small"
      className="firmware-updates-table"
      dataSource={updates}
      columns={phone ? compact : desktop}
      showHeader={!phone}
      // Text columns wrap to fit the page; below 1000 px (a tablet) the table scrolls.
      tableLayout="auto"
      scroll={phone ? undefined : { x: 1000 }}
      pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
      onRow={(u) =>
        // A lift has one open update at most; with those that ended, the campaign tells them apart.
        ({
          'data-testid': `firmware-update-row-${u.liftId}`,
          'data-campaign-id': u.campaignId,
        }) as object
      }
    />
  );
}
