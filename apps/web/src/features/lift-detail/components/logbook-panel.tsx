import { useState } from 'react';
import { App, Button, Card, Grid, Select, Space, Table, Tag } from 'antd';
import { DownloadOutlined, FilePdfOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LOGBOOK_KINDS } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { TimeRangeFilter } from '../../../components/time-range-filter.tsx';
import { downloadPostedFile } from '../../../lib/download.ts';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import {
  EMPTY_LOGBOOK_FILTER,
  LOGBOOK_EXPORT_PATH,
  logbookFilterBody,
  logbookPdfBody,
  useLogbookPage,
  useLogbookVerify,
  type LogbookEntry,
  type LogbookFilter,
  type LogbookKind,
} from '../api/logbook-api.ts';
import { logbookSummary } from '../model/logbook-summary.ts';
import { LogbookVerifyResultView } from './logbook-verify-result.tsx';
import './logbook.css';
import { CompactTime, logPagination } from './log-table-parts.tsx';

const TIME = 'YYYY-MM-DD HH:mm:ss';

const KIND_COLORS: Record<LogbookKind, string> = {
  command: 'blue',
  config: 'purple',
  credential: 'gold',
  lease: 'cyan',
  approval: 'geekblue',
  incident: 'red',
  visit: 'green',
  firmware: 'magenta',
};

/** The exports: CSV (every field the hash covers), PDF (to read, print and file). */
const EXPORTS = [
  {
    format: 'csv',
    icon: <DownloadOutlined />,
    label: 'logbook.exportCsv',
    testId: 'logbook-export',
  },
  {
    format: 'pdf',
    icon: <FilePdfOutlined />,
    label: 'logbook.exportPdf',
    testId: 'logbook-export-pdf',
  },
] as const;

interface Props {
  liftId: string;
  deviceNo: string | null;
  /** The user may export this lift's data (`lift.export` reaching the lift). */
  canExport: boolean;
}

/**
 * The lift's logbook (docs/logbook.md): entries newest first with who did what in words,
 * filtered by kind and time, paged on the server; the chain's verification, the CSV export
 * (the file an auditor recomputes the chain from) and the PDF export (to read, print, file).
 */
export function LogbookPanel({ liftId, deviceNo, canExport }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const phone = Grid.useBreakpoint().md === false;
  const [filter, setFilter] = useState<LogbookFilter>(EMPTY_LOGBOOK_FILTER);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [exporting, setExporting] = useState<'csv' | 'pdf' | null>(null);
  const log = useLogbookPage(liftId, filter, paging.page, paging.pageSize);
  const verify = useLogbookVerify(liftId);

  const change = (patch: Partial<LogbookFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };
  const filtered = filter !== EMPTY_LOGBOOK_FILTER;

  /** CSV: every field the hash covers; PDF: to read, print and file, in the user's language and time zone. */
  const exportAs = async (format: 'csv' | 'pdf') => {
    setExporting(format);
    try {
      await downloadPostedFile(
        LOGBOOK_EXPORT_PATH,
        format === 'pdf' ? logbookPdfBody(liftId, filter) : logbookFilterBody(liftId, filter),
        `logbook-${deviceNo ?? liftId}.${format}`,
      );
    } catch (error) {
      showError(message, error);
    } finally {
      setExporting(null);
    }
  };

  const kindTag = (e: LogbookEntry) => (
    <Tag color={KIND_COLORS[e.kind]} data-testid="logbook-kind">
      {t(`logbook.kind.${e.kind}`)}
    </Tag>
  );
  const actor = (e: LogbookEntry) => (
    <span className="logbook-actor" data-testid="logbook-actor">
      {e.actorName ?? t('logbook.system')}
    </span>
  );
  const summary = (e: LogbookEntry) => (
    <span className="logbook-summary" data-testid="logbook-summary">
      {logbookSummary(e, language)}
    </span>
  );

  return (
    <Card title={t('logbook.title')} data-testid="logbook">
      <div className="logbook-intro">{t('logbook.intro')}</div>
      <div className="logbook-filters">
        <TimeRangeFilter
          from={filter.from}
          to={filter.to}
          onChange={change}
          className="logbook-range"
          ariaLabel={t('logbook.range')}
        />
        <Select<LogbookKind[]>
          mode="multiple"
          allowClear
          value={filter.kinds}
          placeholder={t('logbook.allKinds')}
          onChange={(kinds) => change({ kinds })}
          options={LOGBOOK_KINDS.map((kind) => ({
            value: kind,
            label: t(`logbook.kind.${kind}`),
          }))}
          optionFilterProp="label"
          maxTagCount="responsive"
          className="logbook-kinds"
          data-testid="logbook-kinds"
          aria-label={t('logbook.kinds')}
        />
        <Space wrap className="logbook-actions">
          <Button
            icon={<SafetyCertificateOutlined />}
            loading={verify.isPending}
            onClick={() => verify.mutate(undefined, { onError: (e) => showError(message, e) })}
            data-testid="logbook-verify"
          >
            {t('logbook.verify')}
          </Button>
          {canExport
            ? EXPORTS.map((x) => (
                <Button
                  key={x.format}
                  icon={x.icon}
                  loading={exporting === x.format}
                  disabled={exporting !== null && exporting !== x.format}
                  onClick={() => void exportAs(x.format)}
                  data-testid={x.testId}
                >
                  {t(x.label)}
                </Button>
              ))
            : null}
        </Space>
      </div>
      {verify.data ? <LogbookVerifyResultView result={verify.data} /> : null}
      {log.isError ? (
        <LoadError
          error={log.error}
          onRetry={() => void log.refetch()}
          className="lift-panel-alert"
        />
      ) : null}
      <Table<LogbookEntry>
        rowKey="seq"
        size="small"
        loading={log.isFetching && !log.data}
        dataSource={log.data?.list ?? []}
        // At least this wide (narrower: it scrolls); the summary column wraps in what is left.
        scroll={phone ? undefined : { x: 900 }}
        locale={{
          emptyText: log.isError
            ? t('lift.loadFailed')
            : filtered
              ? t('logbook.emptyFiltered')
              : t('logbook.empty'),
        }}
        data-testid="logbook-table"
        onRow={(e) => ({ 'data-kind': e.kind, 'data-seq': String(e.seq) }) as object}
        pagination={logPagination(paging, setPaging, log.data?.total ?? 0, t)}
        columns={
          phone
            ? [
                {
                  key: 'ts',
                  title: t('logbook.time'),
                  width: 96,
                  render: (_, e) => (
                    <CompactTime ts={e.ts} className="logbook-time logbook-time-compact" />
                  ),
                },
                {
                  key: 'entry',
                  title: t('logbook.summary'),
                  render: (_, e) => (
                    <>
                      <div className="logbook-entry-meta">
                        {kindTag(e)}
                        {actor(e)}
                      </div>
                      {summary(e)}
                    </>
                  ),
                },
              ]
            : [
                { key: 'seq', title: t('logbook.seq'), width: 64, render: (_, e) => e.seq },
                {
                  key: 'ts',
                  title: t('logbook.time'),
                  width: 180,
                  render: (_, e) => (
                    <span className="logbook-time">{dayjs(e.ts).format(TIME)}</span>
                  ),
                },
                {
                  key: 'kind',
                  title: t('logbook.kindColumn'),
                  width: 140,
                  render: (_, e) => kindTag(e),
                },
                { key: 'actor', title: t('logbook.actor'), width: 160, render: (_, e) => actor(e) },
                { key: 'summary', title: t('logbook.summary'), render: (_, e) => summary(e) },
              ]
        }
      />
    </Card>
  );
}
