import { useState } from 'react';
import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { useCampaigns, type FirmwareCampaign } from '../api/campaign-api.ts';
import { CampaignDrawer } from './campaign-drawer.tsx';
import { CampaignTable } from './campaign-table.tsx';

/** The "Campaigns" tab: the campaigns, or what a campaign is when there is none yet; a row opens it. */
export function CampaignsPanel() {
  const { t } = useTranslation();
  const campaigns = useCampaigns();
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<FirmwareCampaign | null>(null);
  const list = campaigns.data?.list ?? [];

  return (
    <Card title={t('firmware.tab.campaigns')}>
      {campaigns.isError ? (
        <LoadError error={campaigns.error} onRetry={() => void campaigns.refetch()} />
      ) : !campaigns.isPending && list.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          data-testid="campaign-empty"
          description={
            <div className="campaign-empty">
              <Typography.Text strong>{t('firmware.campaign.empty')}</Typography.Text>
              <Typography.Paragraph type="secondary">
                {t('firmware.campaign.intro')}
              </Typography.Paragraph>
            </div>
          }
        />
      ) : (
        <CampaignTable
          campaigns={list}
          loading={campaigns.isPending}
          onOpen={(campaign) => {
            setSelected(campaign);
            setOpen(true);
          }}
        />
      )}
      <CampaignDrawer campaign={selected} open={open} onClose={() => setOpen(false)} />
    </Card>
  );
}
