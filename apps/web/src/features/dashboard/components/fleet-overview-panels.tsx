import { useRef } from 'react';
import { Card, Col, Row, Statistic, Tag, Typography } from 'antd';
import {
  CheckCircleOutlined,
  CloudOutlined,
  DisconnectOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { eventText } from '@liftlink/protocol';
import { DataState } from '../../../components/charts/data-state.tsx';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useFleetLive } from '../../../lib/live/use-live.ts';
import {
  dashboardKeys,
  useWorkplaceDashboard,
  type WorkplaceDashboard,
} from '../../../lib/dashboard-api.ts';

type Attention = WorkplaceDashboard['attention'][number];

const liftName = (l: { deviceNo: string | null; alias: string }, none: string) =>
  [l.deviceNo ?? none, l.alias].filter(Boolean).join(' · ');

function AttentionReason({ item }: { item: Attention }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  if (item.reason === 'fault')
    return (
      <Tag color="red" icon={<WarningOutlined />} className="lift-wrap-tag">
        {item.code ? `${item.code} · ${eventText(item.code, language)}` : t('fleet.reason.fault')}
      </Tag>
    );
  if (item.reason === 'lowBattery') return <Tag color="orange">{t('fleet.reason.lowBattery')}</Tag>;
  return (
    <Tag icon={<DisconnectOutlined />}>
      {item.since
        ? t('fleet.reason.offlineSince', { time: dayjs(item.since).format('MM-DD HH:mm') })
        : t('fleet.reason.offline')}
    </Tag>
  );
}

/** Counts, lifts needing attention and recent events (its own chunk: the workplace loads first). */
export default function FleetOverviewPanels() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const client = useQueryClient();
  const dashboard = useWorkplaceDashboard();
  const data = dashboard.data;
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Presence and faults change the counts: refresh at most every 5 s while they do.
  useFleetLive(
    (msg) => {
      if (msg.type === 'alert' || msg.type === 'presence' || msg.type === 'fleetStatus') {
        refreshTimer.current ??= setTimeout(() => {
          refreshTimer.current = null;
          void client.invalidateQueries({ queryKey: dashboardKeys.workplace });
        }, 5_000);
      }
    },
    { onSubscribed: () => void client.invalidateQueries({ queryKey: dashboardKeys.workplace }) },
  );

  const state = {
    loading: dashboard.isLoading,
    error: dashboard.error,
    onRetry: () => void dashboard.refetch(),
  };
  const counts = [
    { key: 'total', icon: <CloudOutlined />, color: undefined, value: data?.counts.total },
    { key: 'online', icon: <CheckCircleOutlined />, color: '#389e0d', value: data?.counts.online },
    { key: 'offline', icon: <DisconnectOutlined />, color: '#8c8c8c', value: data?.counts.offline },
    { key: 'fault', icon: <WarningOutlined />, color: '#cf1322', value: data?.counts.fault },
  ] as const;

  return (
    <Row
      gutter={[16, 16]}
      className="fleet-overview"
      data-testid="fleet-overview"
      style={{ marginTop: 16 }}
    >
      {counts.map((c) => (
        <Col xs={12} md={6} key={c.key}>
          <Card size="small">
            <DataState {...state} empty={false}>
              <Statistic
                title={t(`fleet.count.${c.key}`)}
                value={c.value ?? 0}
                prefix={c.icon}
                styles={{ content: { color: c.color } }}
                data-testid={`fleet-count-${c.key}`}
              />
            </DataState>
          </Card>
        </Col>
      ))}
      <Col xs={24} lg={12}>
        <Card title={t('fleet.attention')} size="small">
          <DataState
            {...state}
            empty={!data || data.attention.length === 0}
            emptyText={t('fleet.attentionNone')}
          >
            <PlainList
              items={data?.attention ?? []}
              rowKey={(item) => `${item.liftId}-${item.reason}`}
              renderItem={(item) => (
                <div
                  style={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    gap: 8,
                    alignItems: 'center',
                    minWidth: 0,
                  }}
                >
                  <Link to={`/lift/${item.liftId}`} style={{ overflowWrap: 'anywhere' }}>
                    {liftName(item, t('lift.noDeviceNo'))}
                  </Link>
                  <AttentionReason item={item} />
                </div>
              )}
            />
          </DataState>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('fleet.recentEvents')} size="small">
          <DataState {...state} empty={!data || data.recentEvents.length === 0}>
            <PlainList
              items={data?.recentEvents ?? []}
              rowKey={(event) => `${event.liftId}-${event.id}`}
              renderItem={(event) => (
                <div
                  style={{
                    display: 'flex',
                    flexWrap: 'wrap',
                    gap: '4px 8px',
                    alignItems: 'center',
                    minWidth: 0,
                  }}
                >
                  <Typography.Text type="secondary" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {dayjs(event.ts).format('MM-DD HH:mm:ss')}
                  </Typography.Text>
                  <Link to={`/lift/${event.liftId}`}>{event.deviceNo ?? t('lift.noDeviceNo')}</Link>
                  <Tag color={event.fault ? 'red' : 'default'}>{event.code}</Tag>
                  <Typography.Text
                    type={event.fault ? 'danger' : undefined}
                    style={{ overflowWrap: 'anywhere' }}
                  >
                    {eventText(event.code, language)}
                  </Typography.Text>
                </div>
              )}
            />
          </DataState>
        </Card>
      </Col>
    </Row>
  );
}
