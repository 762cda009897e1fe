import { Grid, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table/interface';
import { useLanguage } from '../../../lib/i18n/language.ts';
import type { FirmwareCampaign } from '../api/campaign-api.ts';
import { formatPercent } from '../model/campaign-model.ts';
import { CampaignProgress } from './campaign-progress.tsx';
import { CampaignStateTag } from './campaign-state-tag.tsx';

const TIME = 'YYYY-MM-DD HH:mm';

/**
 * The campaigns: on a desktop one column per fact, on a phone one cell per campaign (like
 * the packages). A click on a row opens the campaign.
 */
export function CampaignTable({
  campaigns,
  loading,
  onOpen,
}: {
  campaigns: FirmwareCampaign[];
  loading: boolean;
  onOpen: (campaign: FirmwareCampaign) => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const phone = Grid.useBreakpoint().md === false;

  const name = (c: FirmwareCampaign) => (
    <Typography.Link
      strong
      onClick={(e) => {
        // The row opens it too: one open, not two.
        e.stopPropagation();
        onOpen(c);
      }}
      data-testid={`campaign-open-${c.id}`}
    >
      {c.name}
    </Typography.Link>
  );
  const state = (c: FirmwareCampaign) => (
    <CampaignStateTag state={c.state} pauseReason={c.pauseReason} />
  );
  const created = (c: FirmwareCampaign) =>
    t('firmware.byAt', { user: c.createdBy.name, time: dayjs(c.createdAt).format(TIME) });
  const approved = (c: FirmwareCampaign) =>
    c.approvedBy && c.approvedAt
      ? t('firmware.byAt', { user: c.approvedBy.name, time: dayjs(c.approvedAt).format(TIME) })
      : '—';
  const failures = (c: FirmwareCampaign) => formatPercent(c.failurePercent, language);

  const desktop: ColumnsType<FirmwareCampaign> = [
    { key: 'name', title: t('firmware.campaign.name'), render: (_, c) => name(c) },
    { key: 'version', title: t('firmware.campaign.package'), dataIndex: 'packageVersion' },
    { key: 'state', title: t('firmware.state'), render: (_, c) => state(c) },
    {
      key: 'progress',
      title: t('firmware.campaign.progress'),
      width: 220,
      render: (_, c) => <CampaignProgress stages={c.stages} />,
    },
    { key: 'failures', title: t('firmware.campaign.failures'), render: (_, c) => failures(c) },
    { key: 'created', title: t('firmware.campaign.createdBy'), render: (_, c) => created(c) },
    { key: 'approved', title: t('firmware.campaign.approvedBy'), render: (_, c) => approved(c) },
  ];
  const compact: ColumnsType<FirmwareCampaign> = [
    {
      key: 'campaign',
      title: t('firmware.tab.campaigns'),
      render: (_, c) => (
        <div className="firmware-stack">
          <div className="firmware-line">
            {name(c)}
            <span>{c.packageVersion}</span>
          </div>
          {state(c)}
          <CampaignProgress stages={c.stages} />
          <span className="lift-muted">
            {t('firmware.campaign.failures')}: {failures(c)}
          </span>
          <span className="lift-muted">
            {t('firmware.campaign.createdBy')}: {created(c)}
          </span>
          {c.approvedBy ? (
            <span className="lift-muted">
              {t('firmware.campaign.approvedBy')}: {approved(c)}
            </span>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <Table<FirmwareCampaign>
      rowKey="id"
      size="small"
      className="firmware-table campaign-table"
      loading={loading}
      dataSource={campaigns}
      columns={phone ? compact : desktop}
      scroll={phone ? undefined : { x: 'max-content' }}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      onRow={(c) => ({ onClick: () => onOpen(c), className: 'campaign-row' })}
    />
  );
}
