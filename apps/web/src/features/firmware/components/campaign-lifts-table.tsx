import { Grid, Progress, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table/interface';
import { firmwareReasonAdvice, firmwareReasonText } from '@liftlink/protocol';
import { useLanguage } from '../../../lib/i18n/language.ts';
import type { FirmwareCampaignLift } from '../api/campaign-api.ts';
import { CampaignLiftStateTag } from '../../../components/firmware-update/campaign-lift-state-tag.tsx';
import { StageName } from './campaign-stages.tsx';

const TIME = 'YYYY-MM-DD HH:mm';

/**
 * The campaign's lifts: their stage and update state, the download's percent while it runs,
 * why a lift waits or failed and what to do, in the user's language (the protocol's texts),
 * when a deferred lift tries again and the version it runs.
 */
export function CampaignLiftsTable({
  lifts,
  loading,
}: {
  lifts: FirmwareCampaignLift[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const phone = Grid.useBreakpoint().md === false;

  const lift = (l: FirmwareCampaignLift) => (
    <div className="firmware-stack">
      <Typography.Text strong>{l.deviceNo}</Typography.Text>
      {l.alias ? <span className="lift-muted">{l.alias}</span> : null}
    </div>
  );
  const state = (l: FirmwareCampaignLift) => (
    <div className="firmware-stack">
      <CampaignLiftStateTag state={l.state} />
      {l.state === 'downloading' && l.percent !== null ? (
        <Progress percent={l.percent} size="small" className="campaign-lift-percent" />
      ) : null}
      {l.state === 'deferred' && l.retryAt ? (
        <span className="lift-muted">
          {t('firmware.campaign.retryAt', { time: dayjs(l.retryAt).format(TIME) })}
        </span>
      ) : null}
    </div>
  );
  const reason = (l: FirmwareCampaignLift) => {
    if (!l.reason) return null;
    const advice = firmwareReasonAdvice(l.reason, language);
    return (
      <div className="firmware-stack campaign-reason" data-testid={`campaign-reason-${l.liftId}`}>
        <span>{firmwareReasonText(l.reason, language)}</span>
        {advice ? <span className="lift-muted">{advice}</span> : null}
      </div>
    );
  };

  const desktop: ColumnsType<FirmwareCampaignLift> = [
    { key: 'lift', title: t('firmware.campaign.deviceNo'), render: (_, l) => lift(l) },
    {
      key: 'org',
      title: t('firmware.campaign.operatorOrg'),
      render: (_, l) => l.operatorOrgName ?? '—',
    },
    {
      key: 'stage',
      title: t('firmware.campaign.stage'),
      render: (_, l) => <StageName stage={l.stage} />,
    },
    { key: 'state', title: t('firmware.campaign.liftState'), render: (_, l) => state(l) },
    { key: 'reason', title: t('firmware.campaign.reason'), render: (_, l) => reason(l) ?? '—' },
    {
      key: 'running',
      title: t('firmware.campaign.runningVersion'),
      render: (_, l) => l.runningVersion ?? '—',
    },
  ];
  const compact: ColumnsType<FirmwareCampaignLift> = [
    {
      key: 'lift',
      title: t('firmware.campaign.lifts'),
      render: (_, l) => (
        <div className="firmware-stack">
          <div className="firmware-line">
            {lift(l)}
            <span className="lift-muted">
              <StageName stage={l.stage} />
            </span>
          </div>
          {l.operatorOrgName ? <span className="lift-muted">{l.operatorOrgName}</span> : null}
          {state(l)}
          {reason(l)}
          {l.runningVersion ? (
            <span className="lift-muted">
              {t('firmware.campaign.runningVersion')}: {l.runningVersion}
            </span>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <Table<FirmwareCampaignLift>
      rowKey="liftId"
      size="small"
      className="firmware-table"
      loading={loading}
      dataSource={lifts}
      columns={phone ? compact : desktop}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText: t('firmware.campaign.noLifts') }}
      pagination={{ pageSize: 50, hideOnSinglePage: true, showSizeChanger: false }}
    />
  );
}
