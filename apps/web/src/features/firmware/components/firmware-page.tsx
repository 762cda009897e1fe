import { useState } from 'react';
import { Button, Card, Select, Tabs, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useIsFetching } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FIRMWARE_PACKAGE_STATES } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { campaignKeys, useRefreshCampaigns } from '../api/campaign-api.ts';
import { useFirmwarePackages, type FirmwarePackageState } from '../api/firmware-api.ts';
import { CampaignsPanel } from './campaigns-panel.tsx';
import { NewCampaignModal } from './new-campaign-modal.tsx';
import { NewPackageModal } from './new-package-modal.tsx';
import { PackageTable } from './package-table.tsx';
import { SigningKeyCard } from './signing-key-card.tsx';
import './firmware.css';

type Filter = FirmwarePackageState | 'all';
type Tab = 'packages' | 'campaigns';
/** The search parameter that keeps the tab, so a reload or a shared link shows the same one. */
const TAB_PARAM = 'tab';

/**
 * Equipment → Firmware (docs/firmware.md): the organization's firmware packages with their
 * state, "New package" (create, then upload the image), withdraw, and the signing key's
 * public half that the factory bench writes into the lifts; beside them the campaigns that
 * roll a package out to the lifts.
 */
export default function FirmwarePage() {
  const { t } = useTranslation();
  const can = useAccess();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get(TAB_PARAM) === 'campaigns' ? 'campaigns' : 'packages';
  const [filter, setFilter] = useState<Filter>('all');
  const [creating, setCreating] = useState<Tab | null>(null);
  // Each opening of a "New" dialog is a new dialog (nothing left from the last one).
  const [dialog, setDialog] = useState(0);
  const packages = useFirmwarePackages(filter === 'all' ? undefined : filter);
  const refreshCampaigns = useRefreshCampaigns();
  const campaignsFetching = useIsFetching({ queryKey: campaignKeys.list }) > 0;

  const packagesTab = (
    <div className="firmware-page">
      <Typography.Paragraph type="secondary">{t('firmware.intro')}</Typography.Paragraph>
      {can('manufacture.add') ? <SigningKeyCard /> : null}
      <Card
        title={t('firmware.listTitle')}
        extra={
          <Select<Filter>
            value={filter}
            onChange={setFilter}
            className="firmware-filter"
            aria-label={t('firmware.state')}
            data-testid="firmware-filter"
            options={[
              { value: 'all', label: t('firmware.state.all') },
              ...FIRMWARE_PACKAGE_STATES.map((s) => ({
                value: s,
                label: t(`firmware.state.${s}`),
              })),
            ]}
          />
        }
      >
        {packages.isError ? (
          <LoadError error={packages.error} onRetry={() => void packages.refetch()} />
        ) : (
          <PackageTable
            packages={packages.data?.list ?? []}
            loading={packages.isPending}
            emptyText={filter === 'all' ? t('firmware.empty') : t('firmware.emptyFiltered')}
          />
        )}
      </Card>
    </div>
  );

  const showTab = (next: string) =>
    setParams(
      (old) => {
        const updated = new URLSearchParams(old);
        if (next === 'campaigns') updated.set(TAB_PARAM, next);
        else updated.delete(TAB_PARAM);
        return updated;
      },
      { replace: true },
    );

  return (
    <PageContainer
      title={t('menu.equipment.firmware')}
      extra={
        <>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void (tab === 'packages' ? packages.refetch() : refreshCampaigns())}
            loading={tab === 'packages' ? packages.isFetching : campaignsFetching}
          >
            {t('common.refresh')}
          </Button>
          {can('firmware.add') ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setDialog((n) => n + 1);
                setCreating(tab);
              }}
            >
              {tab === 'packages' ? t('firmware.new') : t('firmware.campaign.new')}
            </Button>
          ) : null}
        </>
      }
    >
      <Tabs
        activeKey={tab}
        onChange={showTab}
        className="firmware-tabs"
        items={[
          { key: 'packages', label: t('firmware.listTitle'), children: packagesTab },
          {
            key: 'campaigns',
            label: t('firmware.tab.campaigns'),
            children: (
              <div className="firmware-page">
                <CampaignsPanel />
              </div>
            ),
          },
        ]}
      />
      <NewPackageModal
        key={`package-${dialog}`}
        open={creating === 'packages'}
        onClose={() => setCreating(null)}
      />
      <NewCampaignModal
        key={`campaign-${dialog}`}
        open={creating === 'campaigns'}
        onClose={() => setCreating(null)}
      />
    </PageContainer>
  );
}
