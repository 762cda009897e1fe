import { useState } from 'react';
import { Button, Card, Select, Typography } from 'antd';
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_PACKAGE_STATES } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { useFirmwarePackages, type FirmwarePackageState } from '../api/firmware-api.ts';
import { NewPackageModal } from './new-package-modal.tsx';
import { PackageTable } from './package-table.tsx';
import { SigningKeyCard } from './signing-key-card.tsx';
import './firmware.css';

type Filter = FirmwarePackageState | 'all';

/**
 * Equipment → Firmware (docs/firmware.md): the organization's firmware packages with their
 * state, "New package" (create, then upload the image), withdraw, and the signing key's
 * public half that the factory bench writes into the lifts.
 */
export default function FirmwarePage() {
  const { t } = useTranslation();
  const can = useAccess();
  const [filter, setFilter] = useState<Filter>('all');
  const [creating, setCreating] = useState(false);
  // Each opening of "New package" is a new dialog (no created package left from the last one).
  const [dialog, setDialog] = useState(0);
  const packages = useFirmwarePackages(filter === 'all' ? undefined : filter);

  return (
    <PageContainer
      title={t('menu.equipment.firmware')}
      extra={
        <>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void packages.refetch()}
            loading={packages.isFetching}
          >
            {t('common.refresh')}
          </Button>
          {can('firmware.add') ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => {
                setDialog((n) => n + 1);
                setCreating(true);
              }}
            >
              {t('firmware.new')}
            </Button>
          ) : null}
        </>
      }
    >
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
      <NewPackageModal key={dialog} open={creating} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}
