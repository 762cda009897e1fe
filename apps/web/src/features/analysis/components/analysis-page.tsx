import { useMemo, useState } from 'react';
import { Button, Card, Col, Progress, Row, Segmented, Statistic, Table } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { eventText } from '@liftlink/protocol';
import { Chart, type ChartOption } from '../../../components/charts/chart.tsx';
import { DataState } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import {
  percent,
  useAnalysisDashboard,
  type AnalysisDashboard,
} from '../../../lib/dashboard-api.ts';
import { AvailabilitySection } from './availability-section.tsx';

type Window = '24h' | '7d';

function tripsOption(data: AnalysisDashboard): ChartOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 8, top: 24, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: data.trips30d.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1, name: tx('analysis.trips') },
    series: [
      {
        name: tx('analysis.trips'),
        type: 'bar',
        data: data.trips30d.map((d) => d.trips),
        itemStyle: { color: '#1677ff' },
      },
    ],
  };
}

function faultsOption(list: AnalysisDashboard['faults24h'], language: string): ChartOption {
  const sorted = [...list].sort((a, b) => a.count - b.count);
  return {
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (params: unknown) => {
        const p = (params as { name: string; value: number }[])[0];
        return p ? `${p.name} · ${eventText(p.name, language)}<br/>${p.value}` : '';
      },
    },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: sorted.map((f) => f.code) },
    series: [
      {
        name: tx('analysis.faults'),
        type: 'bar',
        data: sorted.map((f) => f.count),
        itemStyle: { color: '#ff4d4f' },
        label: { show: true, position: 'right' },
      },
    ],
  };
}

/** The fleet's use and health: trips, online ratio, faults by code, the most used lifts. */
export default function AnalysisPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [span, setSpan] = useState<Window>('24h');
  const dashboard = useAnalysisDashboard();
  const data = dashboard.data;
  const faults = useMemo(
    () => (data ? (span === '24h' ? data.faults24h : data.faults7d) : []),
    [data, span],
  );
  const trips30 = data ? data.trips30d.reduce((sum, d) => sum + d.trips, 0) : 0;
  // Axis names and tooltips follow the language.
  const trips = useMemo(() => (data ? tripsOption(data) : null), [data, language]); // eslint-disable-line react-hooks/exhaustive-deps
  const faultChart = useMemo(() => faultsOption(faults, language), [faults, language]);

  const state = {
    loading: dashboard.isLoading,
    error: dashboard.error,
    onRetry: () => void dashboard.refetch(),
  };

  return (
    <PageContainer
      title={t('menu.dashboard.analysis')}
      extra={
        <Button
          icon={<ReloadOutlined />}
          onClick={() => void dashboard.refetch()}
          loading={dashboard.isFetching}
        >
          {t('common.refresh')}
        </Button>
      }
    >
      <Row gutter={[16, 16]} data-testid="analysis-page">
        <Col xs={24} sm={8}>
          <Card>
            <DataState {...state} empty={false}>
              <Statistic title={t('analysis.tripsToday')} value={data?.tripsToday ?? 0} />
            </DataState>
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <DataState {...state} empty={false}>
              <Statistic title={t('analysis.trips30d')} value={trips30} />
            </DataState>
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <DataState {...state} empty={false}>
              <div
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  gap: 12,
                }}
              >
                <Statistic
                  title={t('analysis.onlineRatio')}
                  value={percent(data?.onlineRatio ?? 0)}
                  suffix="%"
                />
                <Progress
                  type="circle"
                  size={64}
                  percent={percent(data?.onlineRatio ?? 0)}
                  showInfo={false}
                  aria-label={t('analysis.onlineRatio')}
                />
              </div>
            </DataState>
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card title={t('analysis.tripsPerDay')}>
            <DataState {...state} empty={!data || data.trips30d.length === 0}>
              {trips ? (
                <Chart option={trips} testId="chart-trips" ariaLabel={t('analysis.tripsPerDay')} />
              ) : null}
            </DataState>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card
            title={t('analysis.faultsByCode')}
            extra={
              <Segmented<Window>
                size="small"
                value={span}
                onChange={setSpan}
                options={[
                  { value: '24h', label: t('analysis.window.24h') },
                  { value: '7d', label: t('analysis.window.7d') },
                ]}
              />
            }
          >
            <DataState {...state} empty={faults.length === 0} emptyText={t('analysis.noFaults')}>
              <Chart
                option={faultChart}
                testId="chart-faults"
                ariaLabel={t('analysis.faultsByCode')}
              />
            </DataState>
          </Card>
        </Col>
        <Col xs={24}>
          <Card title={t('analysis.topLifts')}>
            <DataState {...state} empty={!data || data.topLifts.length === 0}>
              <Table
                size="small"
                rowKey="liftId"
                pagination={false}
                dataSource={data?.topLifts ?? []}
                scroll={{ x: 'max-content' }}
                columns={[
                  {
                    key: 'rank',
                    title: t('analysis.rank'),
                    width: 60,
                    render: (_, __, i) => i + 1,
                  },
                  {
                    key: 'lift',
                    title: t('analysis.lift'),
                    render: (_, l) => (
                      <Link to={`/lift/${l.liftId}`}>
                        {[l.deviceNo ?? t('lift.noDeviceNo'), l.alias].filter(Boolean).join(' · ')}
                      </Link>
                    ),
                  },
                  {
                    key: 'trips',
                    title: t('analysis.trips'),
                    render: (_, l) => {
                      const max = data?.topLifts[0]?.trips || 1;
                      return (
                        <div
                          style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 160 }}
                        >
                          <Progress
                            percent={(l.trips / max) * 100}
                            showInfo={false}
                            size="small"
                            style={{ flex: 1, margin: 0 }}
                          />
                          <span>{l.trips}</span>
                        </div>
                      );
                    },
                  },
                ]}
              />
            </DataState>
          </Card>
        </Col>
        <Col xs={24}>
          <AvailabilitySection />
        </Col>
      </Row>
    </PageContainer>
  );
}
