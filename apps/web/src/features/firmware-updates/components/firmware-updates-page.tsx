import { Button, Card, Empty, Input, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LIFT_FIRMWARE_UPDATE_HISTORY_DAYS } from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useLiftFirmwareUpdates } from '../../../lib/firmware-updates-api.ts';
import {
  emptyReason,
  filterUpdates,
  isUpdateShow,
  type UpdateShow,
} from '../model/update-filter.ts';
import { FirmwareUpdatesTable } from './firmware-updates-table.tsx';
import '../../../components/lift.css';
import './firmware-updates.css';

/**
 * Firmware updates (docs/firmware.md, "What operators see"): what the makers' campaigns will
 * do to the user's lifts and when, what they are doing, and what they did in the last days.
 * Open updates by default; `?show=all` adds those that ended, `?search=` narrows to lifts.
 */
export default function FirmwareUpdatesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const showParam = params.get('show');
  const show: UpdateShow = isUpdateShow(showParam) ? showParam : 'open';
  const search = params.get('search') ?? '';
  const query = useLiftFirmwareUpdates();
  const list = query.data?.list;
  const shown = list ? filterUpdates(list, show, search) : [];

  const setParam = (name: 'show' | 'search', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && !(name === 'show' && value === 'open')) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  const empty = () => {
    const reason = emptyReason(list ?? [], show, search);
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        data-testid={`firmware-updates-empty-${reason}`}
        description={
          reason === 'search'
            ? t('firmwareUpdate.emptySearch', { search: search.trim() })
            : reason === 'noneOpen'
              ? t('firmwareUpdate.emptyOpen')
              : t('firmwareUpdate.empty')
        }
      >
        {reason === 'noneOpen' ? (
          <Button onClick={() => setParam('show', 'all')} data-testid="firmware-updates-show-ended">
            {t('firmwareUpdate.showAll')}
          </Button>
        ) : null}
      </Empty>
    );
  };

  return (
    <PageContainer title={t('menu.cloud.firmwareUpdates')}>
      <Card className="firmware-updates-page">
        <Typography.Paragraph type="secondary">
          {t('firmwareUpdate.intro', { days: LIFT_FIRMWARE_UPDATE_HISTORY_DAYS })}
        </Typography.Paragraph>
        {/* Nothing to filter while the lifts have no update at all. */}
        {list?.length === 0 ? null : (
          <div className="firmware-updates-toolbar">
            <Segmented<UpdateShow>
              aria-label={t('firmwareUpdate.filter')}
              value={show}
              onChange={(value) => setParam('show', value)}
              options={[
                {
                  value: 'open',
                  label: (
                    <span data-testid="firmware-updates-show-open">
                      {t('firmwareUpdate.filter.open')}
                    </span>
                  ),
                },
                {
                  value: 'all',
                  label: (
                    <span data-testid="firmware-updates-show-all">
                      {t('firmwareUpdate.filter.all')}
                    </span>
                  ),
                },
              ]}
            />
            <Input.Search
              allowClear
              className="firmware-updates-search"
              placeholder={t('firmwareUpdate.search')}
              aria-label={t('firmwareUpdate.search')}
              value={search}
              onChange={(e) => setParam('search', e.target.value)}
              data-testid="firmware-updates-search"
            />
          </div>
        )}
        <DataState
          loading={query.isPending}
          error={list ? null : query.error}
          empty={false}
          onRetry={() => void query.refetch()}
        >
          {shown.length === 0 ? empty() : <FirmwareUpdatesTable updates={shown} />}
        </DataState>
      </Card>
    </PageContainer>
  );
}
