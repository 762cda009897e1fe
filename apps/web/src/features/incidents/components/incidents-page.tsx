import { useState } from 'react';
import { Button, Card, Empty, Pagination, Segmented, Spin, Switch, Tag } from 'antd';
import { useSearchParams } from 'react-router';
import { CloseOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { useSession } from '../../../lib/session.ts';
import { useIncidents, type IncidentFilter, type IncidentListQuery } from '../api/incidents-api.ts';
import { useIncidentsLive } from '../hooks/use-incidents-live.ts';
import { useMinute } from '../hooks/use-minute.ts';
import { CreateIncidentModal } from './create-incident-modal.tsx';
import { IncidentCard } from './incident-card.tsx';
import './incidents.css';

const FILTERS: IncidentFilter[] = ['active', 'all', 'closed'];

/**
 * The incidents of the user's lifts, those still being worked on first, the most urgent
 * first (the server's order); new ones and changes arrive live.
 */
export default function IncidentsPage() {
  const { t } = useTranslation();
  const can = useAccess();
  const me = useSession().info.id;
  const now = useMinute();
  const [query, setQuery] = useState<IncidentListQuery>({
    page: 1,
    pageSize: 20,
    filter: 'active',
    assigneeId: null,
  });
  const [creating, setCreating] = useState(false);
  // `?liftId=` (the lift page's link): one lift's incidents; `lift` names it until its first one loads.
  const [search, setSearch] = useSearchParams();
  const liftId = search.get('liftId');
  const incidents = useIncidents({ ...query, liftId });
  useIncidentsLive();
  const change = (patch: Partial<IncidentListQuery>) =>
    setQuery((q) => ({ ...q, ...patch, page: 1 }));
  const list = incidents.data?.list ?? [];

  return (
    <PageContainer
      title={t('menu.cloud.incidents')}
      extra={
        <div className="incident-page-actions">
          <Button
            size="large"
            icon={<ReloadOutlined />}
            onClick={() => void incidents.refetch()}
            loading={incidents.isFetching}
            aria-label={t('common.refresh')}
            data-testid="incidents-refresh"
          />
          {can('incident.add') ? (
            <Button
              type="primary"
              size="large"
              icon={<PlusOutlined />}
              onClick={() => setCreating(true)}
              data-testid="incident-create"
            >
              {t('incident.create')}
            </Button>
          ) : null}
        </div>
      }
    >
      <Card className="incidents-card">
        <div className="incident-filters">
          <Segmented<IncidentFilter>
            size="large"
            value={query.filter}
            onChange={(filter) => change({ filter })}
            options={FILTERS.map((value) => ({ value, label: t(`incident.filter.${value}`) }))}
            className="incident-filter-state"
            data-testid="incident-filter"
          />
          <label className="incident-filter-mine">
            <Switch
              checked={query.assigneeId !== null}
              onChange={(on) => change({ assigneeId: on ? me : null })}
              data-testid="incident-mine"
            />
            <span>{t('incident.filter.mine')}</span>
          </label>
          {liftId ? (
            <Tag
              closable
              className="incident-filter-lift"
              closeIcon={<CloseOutlined aria-label={t('incident.filter.clearLift')} />}
              onClose={() => setSearch({}, { replace: true })}
              data-testid="incident-filter-lift"
            >
              {t('incident.filter.lift', {
                lift: list[0]?.alias || list[0]?.deviceNo || search.get('lift') || liftId,
              })}
            </Tag>
          ) : null}
        </div>
        {incidents.isError ? (
          <LoadError
            error={incidents.error}
            onRetry={() => void incidents.refetch()}
            className="lift-panel-alert"
          />
        ) : null}
        {incidents.isPending ? (
          <div className="incident-loading" role="status">
            <Spin size="large" />
          </div>
        ) : list.length === 0 ? (
          incidents.isError ? null : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={t(query.filter === 'active' ? 'incident.emptyActive' : 'incident.empty')}
              data-testid="incidents-empty"
            />
          )
        ) : (
          <ul className="incident-list" data-testid="incident-list">
            {list.map((incident) => (
              <li key={incident.id}>
                <IncidentCard incident={incident} now={now} />
              </li>
            ))}
          </ul>
        )}
        {(incidents.data?.total ?? 0) > query.pageSize ? (
          <Pagination
            simple
            align="center"
            className="incident-pagination"
            current={query.page}
            pageSize={query.pageSize}
            total={incidents.data?.total ?? 0}
            onChange={(page) => setQuery((q) => ({ ...q, page }))}
          />
        ) : null}
      </Card>
      <CreateIncidentModal open={creating} onClose={() => setCreating(false)} />
    </PageContainer>
  );
}
