import { useState } from 'react';
import { App, Badge, Button, Card, Grid, Segmented, Table } from 'antd';
import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ColumnsType } from 'antd/es/table/interface';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useFleetLive } from '../../../lib/live/use-live.ts';
import { LiftPicker } from '../../../components/lift-picker.tsx';
import {
  alertKeys,
  alertsApi,
  useAlertMutation,
  useAlerts,
  type AlertItem,
  type AlertState,
} from '../api/alerts-api.ts';
import { alertText } from '../api/alert-text.ts';
import { AlertKindTag } from './alert-kind-tag.tsx';
import './alerts.css';

const TIME = 'YYYY-MM-DD HH:mm:ss';

/** Fault, help and offline alerts: the open ones to acknowledge, and the acknowledged history. */
export default function AlertsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const can = useAccess();
  const client = useQueryClient();
  const [state, setState] = useState<AlertState>('open');
  const [liftId, setLiftId] = useState<string | null>(null);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const alerts = useAlerts({ ...paging, state, liftId });
  const ack = useAlertMutation((id: number) => alertsApi.acknowledge(id));

  const refetchAlerts = () => void client.invalidateQueries({ queryKey: alertKeys.all });
  useFleetLive((msg) => msg.type === 'alert' && refetchAlerts(), { onSubscribed: refetchAlerts });

  const acknowledge = (alert: AlertItem) =>
    ack.mutate(alert.id, {
      onSuccess: () => void message.success(t('alert.acknowledged')),
      onError: (error) => showError(message, error),
    });

  const open = alerts.data?.open;

  const phone = Grid.useBreakpoint().md === false;
  const liftLink = (a: AlertItem) => (
    <Link to={`/lift/${a.liftId}`} style={{ overflowWrap: 'anywhere' }}>
      {[a.deviceNo ?? t('lift.noDeviceNo'), a.alias].filter(Boolean).join(' · ')}
    </Link>
  );
  const statusOf = (a: AlertItem) =>
    a.acknowledgedAt ? (
      <span className="lift-muted">
        {t('alert.acknowledgedBy', {
          time: dayjs(a.acknowledgedAt).format(TIME),
          user: a.acknowledgedBy ?? '—',
        })}
      </span>
    ) : a.clearedAt ? (
      <span className="lift-muted">
        {t('alert.clearedAt', { time: dayjs(a.clearedAt).format(TIME) })}
      </span>
    ) : (
      <Badge status="error" text={t('alert.status.open')} />
    );
  const ackButton = (a: AlertItem) =>
    can('alert.edit') && !a.acknowledgedAt ? (
      <Button
        size="small"
        icon={<CheckOutlined />}
        loading={ack.isPending && ack.variables === a.id}
        onClick={() => acknowledge(a)}
        data-testid={`alert-ack-${a.id}`}
      >
        {t('alert.acknowledge')}
      </Button>
    ) : null;
  const text = (a: AlertItem) => (
    <span style={{ overflowWrap: 'anywhere' }}>{alertText(a, language)}</span>
  );

  const columns: ColumnsType<AlertItem> = [
    {
      key: 'raisedAt',
      title: t('alert.raisedAt'),
      render: (_, a) => dayjs(a.raisedAt).format(TIME),
    },
    { key: 'lift', title: t('alert.lift'), render: (_, a) => liftLink(a) },
    { key: 'kind', title: t('alert.kind'), render: (_, a) => <AlertKindTag kind={a.kind} /> },
    { key: 'text', title: t('alert.what'), render: (_, a) => text(a) },
    { key: 'status', title: t('alert.status'), render: (_, a) => statusOf(a) },
    ...(can('alert.edit')
      ? [
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_: unknown, a: AlertItem) => ackButton(a),
          },
        ]
      : []),
  ];
  const phoneColumns: ColumnsType<AlertItem> = [
    {
      key: 'when',
      title: t('alert.raisedAt'),
      width: 110,
      render: (_, a) => (
        <div className="alert-compact">
          <span>{dayjs(a.raisedAt).format('MM-DD HH:mm:ss')}</span>
          <AlertKindTag kind={a.kind} />
        </div>
      ),
    },
    {
      key: 'what',
      title: t('alert.what'),
      render: (_, a) => (
        <div className="alert-compact">
          {liftLink(a)}
          {text(a)}
          {statusOf(a)}
          {ackButton(a)}
        </div>
      ),
    },
  ];

  return (
    <PageContainer
      title={t('menu.cloud.alerts')}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void alerts.refetch()}
          loading={alerts.isFetching}
        >
          {t('common.refresh')}
        </Button>
      }
    >
      <Card>
        <div
          className="alerts-filters"
          style={{ display: 'flex', flexWrap: 'wrap', gap: 12, marginBottom: 16 }}
        >
          <Segmented<AlertState>
            value={state}
            onChange={(value) => {
              setState(value);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            options={[
              {
                value: 'open',
                label: (
                  <span>
                    {t('alert.state.open')}{' '}
                    {open ? (
                      <Badge count={open} size="small" data-testid="alerts-open-count" />
                    ) : null}
                  </span>
                ),
              },
              { value: 'acknowledged', label: t('alert.state.acknowledged') },
              { value: 'all', label: t('alert.state.all') },
            ]}
            data-testid="alerts-state"
          />
          <LiftPicker
            value={liftId}
            onChange={(id) => {
              setLiftId(id);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            testId="alerts-lift"
          />
        </div>
        {alerts.isError ? (
          <LoadError
            error={alerts.error}
            onRetry={() => void alerts.refetch()}
            className="lift-panel-alert"
          />
        ) : null}
        <Table<AlertItem>
          rowKey="id"
          size="middle"
          loading={alerts.isFetching && !alerts.data}
          dataSource={alerts.data?.list ?? []}
          scroll={phone ? undefined : { x: 'max-content' }}
          locale={{
            emptyText: alerts.isError
              ? t('panel.loadFailed')
              : t(state === 'open' ? 'alert.emptyOpen' : 'alert.emptyHistory'),
          }}
          data-testid="alerts-table"
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: alerts.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('common.total', { total }),
            onChange: (page, pageSize) =>
              setPaging((p) => ({ page: pageSize !== p.pageSize ? 1 : page, pageSize })),
          }}
          columns={phone ? phoneColumns : columns}
        />
      </Card>
    </PageContainer>
  );
}
