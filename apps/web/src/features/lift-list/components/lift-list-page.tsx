import { useState } from 'react';
import {
  App,
  Button,
  Card,
  Grid,
  Input,
  Pagination,
  Select,
  Space,
  Spin,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { EditOutlined, EnvironmentOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DEVICE_KINDS, type LiftListItem } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import { errorMessage } from '../../../lib/form-errors.ts';
import {
  INITIAL_LIFT_QUERY,
  liftsApi,
  useLiftEdit,
  useLiftPage,
  type LiftListQuery,
  type LiftSortKey,
  type LiftStateFilter,
} from '../api/lifts-api.ts';
import { FaultTag, LocationMissingTag, ModeTag, NoDeviceNoTag, OnlineBadge } from '../../../components/lift-tags.tsx';
import { LocationModal } from './location-modal.tsx';
import { useFleetPatches } from './use-fleet-patches.ts';
import './lift-list.css';

const SORTABLE: ReadonlySet<string> = new Set<LiftSortKey>([
  'deviceNo',
  'alias',
  'kind',
  'online',
  'floor',
]);

function AliasCell({ lift, editable }: { lift: LiftListItem; editable: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useLiftEdit(liftsApi.updateAlias);
  const onChange = (value: string) => {
    const alias = value.trim();
    if (alias === lift.alias) return;
    save.mutate(
      { liftId: lift.id, alias },
      {
        onSuccess: () => void message.success(t('lift.alias.saved')),
        onError: (error) => void message.error(errorMessage(error) ?? t('lift.alias.saveFailed')),
      },
    );
  };
  return (
    <Typography.Text
      className="lift-alias"
      data-testid={`alias-${lift.id}`}
      editable={
        editable
          ? {
              onChange,
              maxLength: 60,
              tooltip: t('lift.alias.edit'),
              icon: <EditOutlined aria-label={t('lift.alias.edit')} />,
              triggerType: ['icon'],
            }
          : false
      }
    >
      {save.isPending ? (save.variables?.alias ?? lift.alias) : lift.alias || ''}
    </Typography.Text>
  );
}

/** On a phone: one block per lift with what matters first (number, connection, fault). */
function LiftCards({
  lifts,
  onLocate,
}: {
  lifts: LiftListItem[];
  onLocate: (lift: LiftListItem) => void;
}) {
  const { t } = useTranslation();
  return (
    <PlainList
      items={lifts}
      rowKey={(lift) => lift.id}
      emptyText={t('lift.list.empty')}
      rowProps={(lift) => ({ className: lift.activeFault ? 'lift-row-fault' : undefined })}
      renderItem={(lift) => (
        <div className="lift-card" data-testid="lift-card">
          <div className="lift-card-top">
            <Link to={`/lift/${lift.id}`} data-testid="lift-link" className="lift-device-no">
              {lift.deviceNo ?? <NoDeviceNoTag />}
            </Link>
            <OnlineBadge online={lift.online} testId={`online-${lift.id}`} />
          </div>
          <AliasCell lift={lift} editable={liftAllows(lift, 'lift.edit')} />
          <div className="lift-card-line">
            <ModeTag mode={lift.mode} />
            <span>
              {lift.floor === null
                ? t('lift.betweenFloors')
                : t('lift.floorOf', { floor: lift.floor, floors: lift.floors })}
            </span>
            {lift.activeFault ? <FaultTag code={lift.activeFault} /> : null}
          </div>
          <div className="lift-card-line lift-muted">{t(`device.kind.${lift.kind}`)}</div>
          <div className="lift-card-line">
            {lift.location.address ? (
              <span className="lift-location-text">{lift.location.address}</span>
            ) : (
              <LocationMissingTag />
            )}
            {liftAllows(lift, 'lift.edit') ? (
              <Button
                type="text"
                size="small"
                icon={<EnvironmentOutlined />}
                aria-label={t('lift.location.edit')}
                onClick={() => onLocate(lift)}
                data-testid={`edit-location-${lift.id}`}
              />
            ) : null}
          </div>
        </div>
      )}
    />
  );
}

const SORT_CHOICES: LiftSortKey[] = ['deviceNo', 'alias', 'kind', 'online', 'floor'];

/** The fleet list: server-side search, filters, sort and paging; online state and faults live. */
export default function LiftListPage() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<LiftListQuery>(INITIAL_LIFT_QUERY);
  const [keyword, setKeyword] = useState('');
  const [locating, setLocating] = useState<LiftListItem | null>(null);
  const page = useLiftPage(query);
  const phone = Grid.useBreakpoint().md === false;
  useFleetPatches(true);

  const change = (patch: Partial<LiftListQuery>) => setQuery((q) => ({ ...q, page: 1, ...patch }));
  const sortOrder = (key: LiftSortKey) =>
    query.sort === key ? (query.order === 'asc' ? 'ascend' : 'descend') : null;

  const columns: ColumnsType<LiftListItem> = [
    {
      key: 'deviceNo',
      title: t('lift.field.deviceNo'),
      sorter: true,
      sortOrder: sortOrder('deviceNo'),
      fixed: 'left',
      width: 150,
      render: (_, lift) => (
        <Link to={`/lift/${lift.id}`} data-testid="lift-link" className="lift-device-no">
          {lift.deviceNo ?? <NoDeviceNoTag />}
        </Link>
      ),
    },
    {
      key: 'alias',
      title: t('lift.field.alias'),
      sorter: true,
      sortOrder: sortOrder('alias'),
      render: (_, lift) => (
        <div className="lift-cell-wrap lift-cell-alias">
          <AliasCell lift={lift} editable={liftAllows(lift, 'lift.edit')} />
        </div>
      ),
    },
    {
      key: 'kind',
      title: t('lift.field.kind'),
      sorter: true,
      sortOrder: sortOrder('kind'),
      responsive: ['md'],
      render: (_, lift) => (
        <div className="lift-cell-wrap lift-cell-kind">{t(`device.kind.${lift.kind}`)}</div>
      ),
    },
    {
      key: 'online',
      title: t('lift.field.online'),
      sorter: true,
      sortOrder: sortOrder('online'),
      render: (_, lift) => (
        <Tooltip
          title={
            lift.lastSeenAt
              ? t('lift.lastSeen', { time: dayjs(lift.lastSeenAt).format('YYYY-MM-DD HH:mm:ss') })
              : t('lift.neverSeen')
          }
        >
          <span>
            <OnlineBadge online={lift.online} testId={`online-${lift.id}`} />
          </span>
        </Tooltip>
      ),
    },
    {
      key: 'mode',
      title: t('lift.field.mode'),
      responsive: ['md'],
      render: (_, lift) => <ModeTag mode={lift.mode} />,
    },
    {
      key: 'floor',
      title: t('lift.field.floor'),
      sorter: true,
      sortOrder: sortOrder('floor'),
      responsive: ['md'],
      render: (_, lift) =>
        lift.floor === null ? (
          <span className="lift-muted">{t('lift.betweenFloors')}</span>
        ) : (
          t('lift.floorOf', { floor: lift.floor, floors: lift.floors })
        ),
    },
    {
      key: 'fault',
      title: t('lift.field.activeFault'),
      render: (_, lift) =>
        lift.activeFault ? (
          <FaultTag code={lift.activeFault} />
        ) : (
          <span className="lift-muted lift-cell-fault">{t('lift.noFault')}</span>
        ),
    },
    {
      key: 'firmware',
      title: t('lift.field.firmware'),
      // The detail page shows it too: on narrower screens the list keeps its width for the rest.
      responsive: ['xxl'],
      render: (_, lift) => lift.firmware || '—',
    },
    {
      key: 'location',
      title: t('lift.field.location'),
      responsive: ['md'],
      render: (_, lift) => (
        <div className="lift-location-cell lift-cell-wrap">
          {lift.location.address ? (
            <span className="lift-location-text">
              {lift.location.address}
              {lift.location.site ? (
                <span className="lift-muted"> · {lift.location.site}</span>
              ) : null}
            </span>
          ) : (
            <LocationMissingTag />
          )}
          {liftAllows(lift, 'lift.edit') ? (
            <Tooltip title={t('lift.location.edit')}>
              <Button
                type="text"
                size="small"
                icon={<EnvironmentOutlined />}
                aria-label={t('lift.location.edit')}
                onClick={() => setLocating(lift)}
                data-testid={`edit-location-${lift.id}`}
              />
            </Tooltip>
          ) : null}
        </div>
      ),
    },
  ];

  return (
    <PageContainer
      title={t('menu.cloud.liftList')}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void page.refetch()}
          loading={page.isFetching}
        >
          {t('common.refresh')}
        </Button>
      }
    >
      <Card>
        <div className="lift-list-filters">
          <Input.Search
            allowClear
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            placeholder={t('lift.list.search')}
            onSearch={(value) => change({ keyword: value.trim() })}
            className="lift-list-search"
            data-testid="lift-search"
          />
          <Space wrap>
            <Select
              allowClear
              value={query.kind}
              placeholder={t('lift.list.allKinds')}
              onChange={(kind) => change({ kind: kind ?? null })}
              options={DEVICE_KINDS.map((kind) => ({
                value: kind,
                label: t(`device.kind.${kind}`),
              }))}
              popupMatchSelectWidth={false}
              style={{ minWidth: 160 }}
              data-testid="lift-kind-filter"
              aria-label={t('lift.field.kind')}
            />
            <Select<LiftStateFilter>
              allowClear
              value={query.state}
              placeholder={t('lift.list.allStates')}
              onChange={(state) => change({ state: state ?? null })}
              options={(['online', 'offline', 'fault'] as const).map((state) => ({
                value: state,
                label: t(`lift.list.state.${state}`),
              }))}
              style={{ minWidth: 130 }}
              data-testid="lift-state-filter"
              aria-label={t('lift.list.state')}
            />
            {phone ? (
              <Select<string>
                value={`${query.sort}:${query.order}`}
                onChange={(value) => {
                  const [sort, order] = value.split(':') as [LiftSortKey, 'asc' | 'desc'];
                  change({ sort, order });
                }}
                options={SORT_CHOICES.flatMap((key) =>
                  (['asc', 'desc'] as const).map((order) => ({
                    value: `${key}:${order}`,
                    label: t(`lift.sort.${order}`, { field: t(`lift.field.${key}`) }),
                  })),
                )}
                popupMatchSelectWidth={false}
                aria-label={t('lift.sort.label')}
              />
            ) : null}
          </Space>
        </div>
        {page.isError ? (
          <LoadError
            error={page.error}
            onRetry={() => void page.refetch()}
            className="lift-panel-alert"
          />
        ) : null}
        {phone ? (
          <>
            {page.isFetching && !page.data ? (
              <div style={{ textAlign: 'center', padding: 32 }}>
                <Spin />
              </div>
            ) : (
              <LiftCards lifts={page.data?.list ?? []} onLocate={setLocating} />
            )}
            <Pagination
              simple
              align="center"
              style={{ marginTop: 12 }}
              current={query.page}
              pageSize={query.pageSize}
              total={page.data?.total ?? 0}
              onChange={(p) => setQuery((q) => ({ ...q, page: p }))}
            />
          </>
        ) : (
          <Table<LiftListItem>
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={page.data?.list ?? []}
            loading={page.isFetching && !page.data}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: page.isError ? t('lift.loadFailed') : t('lift.list.empty') }}
            data-testid="lift-table"
            rowClassName={(lift) => (lift.activeFault ? 'lift-row-fault' : '')}
            onChange={(pagination, _filters, sorter) => {
              const s = Array.isArray(sorter) ? sorter[0] : sorter;
              const key = typeof s?.columnKey === 'string' ? s.columnKey : null;
              const sorted = key && SORTABLE.has(key) && s?.order;
              setQuery((q) => {
                const sort = sorted ? (key as LiftSortKey) : INITIAL_LIFT_QUERY.sort;
                const order = sorted ? (s.order === 'descend' ? 'desc' : 'asc') : 'asc';
                const pageSize = pagination.pageSize ?? q.pageSize;
                const resort = sort !== q.sort || order !== q.order || pageSize !== q.pageSize;
                return {
                  ...q,
                  sort,
                  order,
                  pageSize,
                  page: resort ? 1 : (pagination.current ?? 1),
                };
              });
            }}
            pagination={{
              current: query.page,
              pageSize: query.pageSize,
              total: page.data?.total ?? 0,
              showSizeChanger: true,
              pageSizeOptions: [10, 20, 50, 100],
              showTotal: (total) => t('common.total', { total }),
              responsive: true,
            }}
          />
        )}
      </Card>
      <LocationModal lift={locating} onClose={() => setLocating(null)} />
    </PageContainer>
  );
}
