import { useMemo, useState } from 'react';
import { Card, Col, Row, Segmented, Statistic } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LiftStats } from '@liftlink/protocol';
import { Chart, type ChartOption } from '../../../components/charts/chart.tsx';
import { DataState } from '../../../components/charts/data-state.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { liftApi, liftDetailKeys } from '../api/lift-api.ts';

/** "3 d 4 h", "4 h 12 min", "12 min": online time as people read it. */
export function durationText(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  const mins = minutes % 60;
  if (days > 0) return tx('lift.duration.days', { days, hours });
  if (hours > 0) return tx('lift.duration.hours', { hours, minutes: mins });
  return tx('lift.duration.minutes', { minutes: mins });
}

const HOURS = [1, 6, 24] as const;

/** Accumulated and daily online time and use counts; uses per day and voltage charts. */
export function StatsPanel({ liftId, stats }: { liftId: string; stats: LiftStats }) {
  const { t, i18n } = useTranslation();
  const [hours, setHours] = useState<(typeof HOURS)[number]>(6);
  const daily = useQuery({
    queryKey: liftDetailKeys.daily(liftId, 30),
    queryFn: ({ signal }) => liftApi.daily(liftId, 30, signal),
  });
  const samples = useQuery({
    queryKey: liftDetailKeys.samples(liftId, hours),
    queryFn: ({ signal }) => liftApi.samples(liftId, hours, signal),
    refetchInterval: 60_000,
  });

  const language = i18n.language;
  const usesOption = useMemo<ChartOption>(() => {
    const list = daily.data?.list ?? [];
    return {
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: list.map((d) => d.day.slice(5)) },
      yAxis: [
        {
          type: 'value',
          name: tx('lift.stats.trips'),
          minInterval: 1,
          nameTextStyle: { align: 'left' },
        },
        {
          type: 'value',
          name: tx('lift.stats.onlineHours'),
          max: 24,
          splitLine: { show: false },
          nameTextStyle: { align: 'right' },
        },
      ],
      series: [
        {
          name: tx('lift.stats.trips'),
          type: 'bar',
          data: list.map((d) => d.trips),
          itemStyle: { color: '#1677ff' },
        },
        {
          name: tx('lift.stats.onlineHours'),
          type: 'line',
          yAxisIndex: 1,
          smooth: true,
          data: list.map((d) => Math.round((d.onlineMs / 3_600_000) * 10) / 10),
          itemStyle: { color: '#52c41a' },
        },
      ],
    };
    // The language is part of the option: axis names follow it.
  }, [daily.data, language]); // eslint-disable-line react-hooks/exhaustive-deps

  const voltageOption = useMemo<ChartOption>(() => {
    const list = samples.data?.list ?? [];
    return {
      tooltip: { trigger: 'axis' },
      grid: { left: 8, right: 16, top: 28, bottom: 8, containLabel: true },
      xAxis: { type: 'time' },
      yAxis: { type: 'value', name: tx('lift.stats.voltageAxis'), scale: true },
      series: [
        {
          name: tx('device.status.voltage'),
          type: 'line',
          showSymbol: false,
          data: list.map((s) => [s.ts, s.voltage]),
          itemStyle: { color: '#fa8c16' },
        },
      ],
    };
  }, [samples.data, language]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Row gutter={[16, 16]} data-testid="stats-panel">
      <Col xs={24}>
        <Card>
          <Row gutter={[16, 16]}>
            <Col xs={12} md={6}>
              <Statistic
                title={t('lift.stats.onlineTotal')}
                value={durationText(stats.onlineMsTotal)}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic
                title={t('lift.stats.onlineToday')}
                value={durationText(stats.onlineMsToday)}
              />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('lift.stats.tripsTotal')} value={stats.tripsTotal} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('lift.stats.tripsToday')} value={stats.tripsToday} />
            </Col>
          </Row>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('lift.stats.usesPerDay')}>
          <DataState
            loading={daily.isLoading}
            error={daily.error}
            empty={(daily.data?.list.length ?? 0) === 0}
            onRetry={() => void daily.refetch()}
          >
            <Chart option={usesOption} testId="chart-uses" ariaLabel={t('lift.stats.usesPerDay')} />
          </DataState>
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card
          title={t('lift.stats.voltage')}
          extra={
            <Segmented
              size="small"
              value={hours}
              onChange={(v) => setHours(v)}
              options={HOURS.map((h) => ({ value: h, label: t('lift.stats.hours', { hours: h }) }))}
            />
          }
        >
          <DataState
            loading={samples.isLoading}
            error={samples.error}
            empty={(samples.data?.list.length ?? 0) === 0}
            onRetry={() => void samples.refetch()}
          >
            <Chart
              option={voltageOption}
              testId="chart-voltage"
              ariaLabel={t('lift.stats.voltage')}
            />
          </DataState>
        </Card>
      </Col>
    </Row>
  );
}
