import { useMemo, useState } from 'react';
import {
  Breadcrumb,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Space,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import {
  AVAILABILITY_STATES,
  type AvailabilityReport,
  type AvailabilityRow,
} from '@liftlink/protocol';
import { Chart, type ChartOption } from '../../../components/charts/chart.tsx';
import { DataState } from '../../../components/charts/data-state.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useAvailability } from '../api/availability-api.ts';
import { canOpen, DRILL_START, monthOf, openRow, queryOf, type DrillStep } from '../model/drill.ts';
import { availabilityText, humanDuration } from '../model/duration.ts';

function monthlyOption(report: AvailabilityReport): ChartOption {
  return {
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? `${v.toFixed(2)} %` : '—'),
    },
    grid: { left: 8, right: 8, top: 24, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: report.months.map((m) => m.month) },
    yAxis: { type: 'value', max: 100, name: '%' },
    series: [
      {
        name: tx('availability.availability'),
        type: 'bar',
        data: report.months.map((m) =>
          m.figures.availability === null
            ? null
            : Math.round(m.figures.availability * 10_000) / 100,
        ),
        itemStyle: { color: '#52c41a' },
      },
    ],
  };
}

/**
 * Availability and reliability of the caller's fleet by month (docs/insight.md): a drill-down
 * from organizations to sites, lifts and one lift, with a breadcrumb back, and the chosen
 * level's availability per month.
 */
export function AvailabilitySection() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const [path, setPath] = useState<DrillStep[]>(DRILL_START);
  const [range, setRange] = useState<[string, string]>(() => [
    monthOf(new Date(), 5),
    monthOf(new Date()),
  ]);
  const here = path[path.length - 1]!;
  const report = useAvailability(queryOf(path, range[0], range[1]));
  const data = report.data;
  // Axis names and tooltips follow the language.
  const chart = useMemo(() => (data ? monthlyOption(data) : null), [data, language]); // eslint-disable-line react-hooks/exhaustive-deps
  const empty = !data || data.rows.length === 0;
  const rowName = (row: AvailabilityRow) =>
    here.level === 'sites' && row.key === '' ? t('availability.noSite') : row.name;

  const columns: ColumnsType<AvailabilityRow> = [
    {
      key: 'name',
      title: t('availability.name'),
      render: (_, row) =>
        canOpen(here.level) ? (
          <Button
            type="link"
            style={{ padding: 0 }}
            onClick={() => setPath(openRow(path, row))}
            aria-label={`${t('availability.open')}: ${rowName(row)}`}
          >
            {rowName(row)}
          </Button>
        ) : (
          rowName(row)
        ),
    },
    ...(here.level === 'lift'
      ? []
      : [
          {
            key: 'lifts',
            title: t('availability.lifts'),
            align: 'right' as const,
            render: (_: unknown, row: AvailabilityRow) => row.lifts,
          },
        ]),
    {
      key: 'availability',
      title: t('availability.availability'),
      align: 'right',
      render: (_, row) => availabilityText(row.figures.availability),
    },
    {
      key: 'trips',
      title: t('availability.trips'),
      align: 'right',
      render: (_, row) => row.figures.trips,
    },
    {
      key: 'failures',
      title: t('availability.failures'),
      align: 'right',
      render: (_, row) => row.figures.failures,
    },
    {
      key: 'incidents',
      title: t('availability.incidents'),
      align: 'right',
      render: (_, row) => row.figures.incidents,
    },
    ...(['mtta', 'mttr', 'mtbf'] as const).map((k) => ({
      key: k,
      title: <Tooltip title={t(`availability.${k}Help`)}>{t(`availability.${k}`)}</Tooltip>,
      align: 'right' as const,
      render: (_: unknown, row: AvailabilityRow) => humanDuration(row.figures[k], t),
    })),
  ];

  return (
    <Card title={t('availability.title')} data-testid="availability-section">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        {/* In the body, not beside the title: a phone has no room for both. */}
        <DatePicker.RangePicker
          picker="month"
          allowClear={false}
          aria-label={t('availability.months')}
          value={[dayjs(`${range[0]}-01`), dayjs(`${range[1]}-01`)]}
          disabledDate={(d) => d.isAfter(dayjs(), 'month')}
          onChange={(dates) => {
            if (dates?.[0] && dates[1])
              setRange([dates[0].format('YYYY-MM'), dates[1].format('YYYY-MM')]);
          }}
        />
        <Breadcrumb
          data-testid="availability-breadcrumb"
          items={path.map((step, i) => {
            const text =
              i === 0
                ? t('availability.all')
                : step.level === 'lifts' && step.site === ''
                  ? t('availability.noSite')
                  : step.name;
            return i === path.length - 1
              ? { key: i, title: text }
              : { key: i, title: <a onClick={() => setPath(path.slice(0, i + 1))}>{text}</a> };
          })}
        />
        <DataState
          loading={report.isLoading}
          error={report.error}
          onRetry={() => void report.refetch()}
          empty={empty}
          emptyText={t('availability.empty')}
        >
          <Table
            size="small"
            rowKey="key"
            pagination={here.level === 'lifts' ? { pageSize: 20, hideOnSinglePage: true } : false}
            dataSource={data?.rows ?? []}
            scroll={{ x: 'max-content' }}
            columns={columns}
            summary={() =>
              data && data.rows.length > 1 ? (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>{t('availability.total')}</Table.Summary.Cell>
                  {here.level === 'lift' ? null : <Table.Summary.Cell index={1} />}
                  <Table.Summary.Cell index={2} align="right">
                    {availabilityText(data.total.availability)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    {data.total.trips}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right">
                    {data.total.failures}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right">
                    {data.total.incidents}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right">
                    {humanDuration(data.total.mtta, t)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={7} align="right">
                    {humanDuration(data.total.mttr, t)}
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={8} align="right">
                    {humanDuration(data.total.mtbf, t)}
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              ) : null
            }
          />
          {here.level === 'lift' && data ? (
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, lg: 4 }}
              data-testid="availability-states"
              items={AVAILABILITY_STATES.map((s) => ({
                key: s,
                label: t(`availability.state.${s}`),
                children: humanDuration(data.total.times[s], t),
              }))}
            />
          ) : null}
          {chart ? (
            <Chart
              option={chart}
              height={240}
              testId="chart-availability"
              ariaLabel={t('availability.perMonth')}
            />
          ) : null}
          {data ? (
            <Typography.Text type="secondary">
              {t('availability.asOf', { time: new Date(data.asOf).toLocaleString(language) })}
            </Typography.Text>
          ) : null}
        </DataState>
      </Space>
    </Card>
  );
}
