import { useState } from 'react';
import { Button, Card, Col, Result, Row, Space, Tabs, Tag, Tooltip } from 'antd';
import { AlertOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageContainer } from '../../../components/page-container.tsx';
import { PageLoading } from '../../../components/page-loading.tsx';
import { liftAllows } from '../../../lib/access.tsx';
import type { LiftPageTab } from '../../../lib/lift-tabs.ts';
import { errorMessage } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/http.ts';
import { useLiveConnection } from '../../../lib/live/use-live.ts';
import { usePageSubject } from '../../../lib/page-subject.ts';
import { useLiftInfo } from '../api/lift-api.ts';
import { CommandsPanel } from './commands-panel.tsx';
import { ConfigPanel } from './config-panel.tsx';
import { IotPanel } from './iot-panel.tsx';
import { AlarmDevicePanel } from './alarm-device-panel.tsx';
import { ConditionCard } from './condition-card.tsx';
import { FirmwareUpdateCard } from './firmware-update-card.tsx';
import { LiftHeader } from './lift-header.tsx';
import { LivePanels } from './live-panels.tsx';
import { LogbookPanel } from './logbook-panel.tsx';
import { MaintenanceWindowBar } from './maintenance-window.tsx';
import { RunLogPanel } from './run-log-panel.tsx';
import { ShaftDrawing } from './shaft-drawing.tsx';
import { StatsPanel } from './stats-panel.tsx';
import { useLiftLiveState } from './use-lift-live-state.ts';
import './lift-detail.css';

function LiveIndicator() {
  const { t } = useTranslation();
  const state = useLiveConnection();
  const look =
    state === 'open'
      ? { color: 'green', key: 'live.open' as const }
      : state === 'unauthorized'
        ? { color: 'red', key: 'live.unauthorized' as const }
        : { color: 'orange', key: 'live.connecting' as const };
  return (
    <Tooltip title={t('live.hint')}>
      <Tag color={look.color} data-testid="live-indicator" data-state={state}>
        {t(look.key)}
      </Tag>
    </Tooltip>
  );
}

type TabKey = 'monitor' | 'log' | 'logbook' | 'config' | 'stats' | (string & {});

/**
 * One lift: header, maintenance window, live panels and drawing, commands, run log, logbook,
 * configuration, statistics.
 */
export default function LiftDetailPage({
  extraTabs = [],
}: {
  /** Tabs of other features after the logbook (composed in app/routing/pages.ts). */
  extraTabs?: readonly LiftPageTab[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { liftId = '' } = useParams();
  const info = useLiftInfo(liftId);
  const live = useLiftLiveState(liftId, info.data);
  // The tab and window title name the lift: its alias, else its device number.
  usePageSubject(
    info.data ? info.data.lift.alias || info.data.lift.deviceNo || undefined : undefined,
  );
  const [tab, setTab] = useState<TabKey>('monitor');

  if (info.isLoading) return <PageLoading />;
  if (!info.data) {
    const notFound =
      info.error instanceof ApiError &&
      (info.error.status === 404 || info.error.code === 'validation.failed');
    return (
      <Result
        status={notFound ? '404' : 'error'}
        title={notFound ? t('lift.notFound') : t('lift.loadFailed')}
        subTitle={notFound ? null : errorMessage(info.error)}
        extra={
          <Space>
            <Button onClick={() => void navigate('/lift/list')}>{t('lift.backToList')}</Button>
            {notFound ? null : (
              <Button type="primary" onClick={() => void info.refetch()}>
                {t('exception.retry')}
              </Button>
            )}
          </Space>
        }
      />
    );
  }

  const data = info.data;
  const { lift } = data;
  const name = lift.alias || lift.deviceNo || t('lift.unnamed');

  const monitor = (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={9} xxl={7}>
        <Card title={t('lift.panel.drawing')} data-testid="panel-drawing">
          <ShaftDrawing
            kind={lift.kind}
            floors={lift.floors}
            config={data.config}
            status={live.status}
            online={live.online}
          />
        </Card>
      </Col>
      <Col xs={24} lg={15} xxl={17}>
        {liftAllows(lift, 'liftControl.enable') ? (
          <CommandsPanel
            liftId={liftId}
            liftName={name}
            floors={lift.floors}
            online={live.online}
            hasDeviceNo={lift.deviceNo !== null}
            status={live.status}
            canTakeOver={liftAllows(lift, 'liftControl.edit')}
            approvalClasses={data.approvalClasses}
          />
        ) : (
          <LivePanels status={live.status} only="platform" />
        )}
      </Col>
      <Col xs={24}>
        <LivePanels
          status={live.status}
          only={liftAllows(lift, 'liftControl.enable') ? 'all' : 'io'}
        />
      </Col>
      <Col xs={24}>
        <IotPanel liftId={liftId} />
      </Col>
      <Col xs={24}>
        <AlarmDevicePanel liftId={liftId} />
      </Col>
      <Col xs={24}>
        <ConditionCard liftId={liftId} />
      </Col>
    </Row>
  );

  return (
    <PageContainer
      title={t('menu.cloud.liftDetail')}
      extra={
        <Space wrap>
          <LiveIndicator />
          {liftAllows(lift, 'incident.query') ? (
            <Button
              icon={<AlertOutlined />}
              onClick={() =>
                void navigate(
                  `/lift/incidents?${new URLSearchParams({ liftId, lift: lift.alias || lift.deviceNo || '' }).toString()}`,
                )
              }
              data-testid="lift-incidents"
            >
              {t('lift.incidents')}
            </Button>
          ) : null}
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void info.refetch()}
            loading={info.isFetching}
          >
            {t('common.refresh')}
          </Button>
        </Space>
      }
    >
      <div className="lift-detail">
        <LiftHeader info={data} live={live} />
        <MaintenanceWindowBar
          liftId={liftId}
          canSee={liftAllows(lift, 'incident.query')}
          canDeclare={liftAllows(lift, 'incident.add')}
          canEnd={liftAllows(lift, 'incident.edit')}
        />
        <FirmwareUpdateCard liftId={liftId} />
        <Tabs
          activeKey={tab}
          onChange={setTab}
          className="lift-detail-tabs"
          items={[
            { key: 'monitor', label: t('lift.tab.monitor'), children: monitor },
            {
              key: 'log',
              label: t('lift.tab.log'),
              children: <RunLogPanel liftId={liftId} deviceNo={lift.deviceNo} />,
            },
            {
              key: 'logbook',
              label: t('lift.tab.logbook'),
              children: (
                <LogbookPanel
                  liftId={liftId}
                  deviceNo={lift.deviceNo}
                  canExport={liftAllows(lift, 'lift.export')}
                />
              ),
            },
            ...extraTabs
              .filter((extra) => extra.shown?.(data) ?? true)
              .map(({ key, Label, Panel }) => ({
                key,
                label: <Label />,
                children: <Panel info={data} />,
              })),
            ...(liftAllows(lift, 'liftConfig.get')
              ? [
                  {
                    key: 'config',
                    label: t('lift.tab.config'),
                    children: <ConfigPanel info={data} online={live.online} />,
                  },
                ]
              : []),
            {
              key: 'stats',
              label: t('lift.tab.stats'),
              children: <StatsPanel liftId={liftId} stats={data.stats} />,
            },
          ]}
        />
      </div>
    </PageContainer>
  );
}
