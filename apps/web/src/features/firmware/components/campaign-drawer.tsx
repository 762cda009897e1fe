import { Alert, Descriptions, Drawer, Grid, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useCampaign, useCampaignLifts, type FirmwareCampaign } from '../api/campaign-api.ts';
import { clockHour } from '../../../components/firmware-update/lift-update-model.ts';
import { campaignIsLive, formatPercent } from '../model/campaign-model.ts';
import { CampaignActions } from './campaign-actions.tsx';
import { CampaignLiftsTable } from './campaign-lifts-table.tsx';
import { CampaignProgress } from './campaign-progress.tsx';
import { CampaignStages } from './campaign-stages.tsx';
import { CampaignStateTag } from './campaign-state-tag.tsx';

const TIME = 'YYYY-MM-DD HH:mm';

/**
 * One campaign: its state and actions, plan, stages and lifts. Opened from the list with the
 * list's row, then asked again; polled every few seconds while the campaign may still change.
 */
export function CampaignDrawer({
  campaign: row,
  open,
  onClose,
}: {
  /** The list's row; kept after closing, so the drawer still shows it as it slides away. */
  campaign: FirmwareCampaign | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const phone = Grid.useBreakpoint().md === false;
  // Asked (and polled) only while open.
  const id = open ? (row?.id ?? null) : null;
  const detail = useCampaign(id, id !== null ? (row ?? undefined) : undefined);
  const campaign = (id !== null ? detail.data : undefined) ?? row;
  const lifts = useCampaignLifts(id, campaignIsLive(campaign?.state));

  return (
    <Drawer
      open={open && row !== null}
      onClose={onClose}
      size={phone ? '100%' : 960}
      title={campaign?.name}
      destroyOnHidden
      data-testid="campaign-drawer"
    >
      {campaign ? (
        <div className="firmware-page">
          {detail.isError ? (
            <LoadError error={detail.error} onRetry={() => void detail.refetch()} />
          ) : null}
          <div className="firmware-line">
            <CampaignStateTag state={campaign.state} pauseReason={campaign.pauseReason} />
            <Typography.Text strong>{campaign.packageVersion}</Typography.Text>
          </div>
          {campaign.state === 'paused' && campaign.pauseReason === 'failureThreshold' ? (
            <Alert
              type="error"
              showIcon
              title={t('firmware.campaign.pausedBy.failureThreshold')}
              description={t('firmware.campaign.thresholdHelp')}
            />
          ) : null}
          {campaign.packageState === 'withdrawn' ? (
            <Alert
              type="warning"
              showIcon
              title={t('firmware.campaign.packageWithdrawn')}
              data-testid="campaign-package-withdrawn"
            />
          ) : null}
          <CampaignActions campaign={campaign} />
          <CampaignProgress stages={campaign.stages} />
          <Descriptions size="small" column={1} className="campaign-facts">
            <Descriptions.Item label={t('firmware.campaign.plan')}>
              <div className="firmware-stack">
                <span>
                  {t('firmware.campaign.planSummary', {
                    canary: campaign.plan.canaryCount,
                    wave: campaign.plan.waveSize,
                    pause: campaign.plan.wavePauseMinutes,
                    threshold: formatPercent(campaign.plan.failureThresholdPercent, language),
                  })}
                </span>
                <span>
                  {campaign.plan.window
                    ? t('firmware.campaign.windowHours', {
                        start: clockHour(campaign.plan.window.startHour),
                        end: clockHour(campaign.plan.window.endHour),
                      })
                    : t('firmware.campaign.windowAny')}
                </span>
              </div>
            </Descriptions.Item>
            <Descriptions.Item label={t('firmware.campaign.failures')}>
              {formatPercent(campaign.failurePercent, language)}
            </Descriptions.Item>
            <Descriptions.Item label={t('firmware.campaign.createdBy')}>
              {t('firmware.byAt', {
                user: campaign.createdBy.name,
                time: dayjs(campaign.createdAt).format(TIME),
              })}
            </Descriptions.Item>
            {campaign.approvedBy && campaign.approvedAt ? (
              <Descriptions.Item label={t('firmware.campaign.approvedBy')}>
                {t('firmware.byAt', {
                  user: campaign.approvedBy.name,
                  time: dayjs(campaign.approvedAt).format(TIME),
                })}
              </Descriptions.Item>
            ) : null}
          </Descriptions>
          <Typography.Title level={5}>{t('firmware.campaign.stages')}</Typography.Title>
          <CampaignStages stages={campaign.stages} />
          <Typography.Title level={5}>{t('firmware.campaign.lifts')}</Typography.Title>
          {lifts.isError ? (
            <LoadError error={lifts.error} onRetry={() => void lifts.refetch()} />
          ) : (
            <CampaignLiftsTable lifts={lifts.data?.list ?? []} loading={lifts.isPending} />
          )}
        </div>
      ) : null}
    </Drawer>
  );
}
