import { useEffect, useMemo, useState } from 'react';
import { App, Button, Card, Grid, Select, Space, Table, Tag } from 'antd';
import { DownloadOutlined, FileTextOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { EVENT_TABLE, eventText, isFault, type RunLogEntry } from '@liftlink/protocol';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { Access } from '../../../lib/access.tsx';
import { DEFAULT_TEXT_FILE_NAME, downloadFile, saveTextFile } from '../../../lib/download.ts';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { liveClient, useLiftLive } from '../../../lib/live/use-live.ts';
import { liftApi, liftDetailKeys, RUN_LOG_EXPORT_PATH } from '../api/lift-api.ts';
import { TimeRangeFilter } from '../../../components/time-range-filter.tsx';
import {
  EMPTY_FILTER,
  matchesFilter,
  mergeLiveEntries,
  runLogParams,
  runLogText,
  type RunLogFilter,
} from '../model/run-log.ts';
import { CompactTime, logPagination } from './log-table-parts.tsx';

const TIME = 'YYYY-MM-DD HH:mm:ss';

/**
 * The run log: paged on the server, filtered by time, class and code, each code with its
 * meaning in the user's language, faults highlighted, new entries arriving live on the
 * first page; CSV export (`lift.export`) and the page as a text file.
 */
export function RunLogPanel({ liftId, deviceNo }: { liftId: string; deviceNo: string | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const [filter, setFilter] = useState<RunLogFilter>(EMPTY_FILTER);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [live, setLive] = useState<{ filter: RunLogFilter; entries: RunLogEntry[] }>({
    filter: EMPTY_FILTER,
    entries: [],
  });
  const [exporting, setExporting] = useState(false);
  const phone = Grid.useBreakpoint().md === false;

  const params = runLogParams(liftId, filter, paging.page, paging.pageSize, language);
  const log = useQuery({
    queryKey: [...liftDetailKeys.runLog(liftId), params],
    queryFn: ({ signal }) => liftApi.runLog(params, signal),
    placeholderData: keepPreviousData,
  });

  // Whatever happened between this answer and the live stream is replayed by the server.
  const newestId = paging.page === 1 ? (log.data?.list[0]?.id ?? null) : null;
  useEffect(() => {
    if (newestId !== null && log.isSuccess && !log.isPlaceholderData)
      liveClient.catchUp(liftId, newestId);
  }, [liftId, newestId, log.isSuccess, log.isPlaceholderData]);

  useLiftLive(liftId, (msg) => {
    if (msg.type !== 'event') return;
    const entry: RunLogEntry = {
      id: msg.id,
      ts: msg.ts,
      code: msg.code,
      text: eventText(msg.code, language, msg.reason),
      fault: msg.fault || isFault(msg.code),
      floor: msg.floor,
      reason: msg.reason ?? null,
    };
    if (!matchesFilter(entry, filter)) return;
    setLive((current) => ({
      filter,
      entries: [entry, ...(current.filter === filter ? current.entries : [])].slice(0, 200),
    }));
  });

  const liveEntries = useMemo(
    () => (live.filter === filter && paging.page === 1 ? live.entries : []),
    [live, filter, paging.page],
  );
  const merged = useMemo(
    () => mergeLiveEntries(log.data?.list ?? [], liveEntries, paging.pageSize),
    [log.data, liveEntries, paging.pageSize],
  );
  const freshIds = useMemo(() => new Set(liveEntries.map((e) => e.id)), [liveEntries]);
  const total = (log.data?.total ?? 0) + merged.added;

  const change = (patch: Partial<RunLogFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { page: _page, pageSize: _size, ...query } = params;
      await downloadFile(RUN_LOG_EXPORT_PATH, query, `run-log-${deviceNo ?? liftId}.csv`);
    } catch (error) {
      showError(message, error);
    } finally {
      setExporting(false);
    }
  };

  const saveText = () => {
    const text = runLogText(
      merged.list,
      {
        time: t('runLog.time'),
        code: t('runLog.code'),
        meaning: t('runLog.meaning'),
        floor: t('runLog.floor'),
      },
      (code, reason) => eventText(code, language, reason),
      (ts) => dayjs(ts).format(TIME),
    );
    saveTextFile(text, DEFAULT_TEXT_FILE_NAME);
  };

  return (
    <Card title={t('runLog.title')} data-testid="run-log">
      <div className="run-log-filters">
        <TimeRangeFilter
          from={filter.from}
          to={filter.to}
          onChange={change}
          className="run-log-range"
          ariaLabel={t('runLog.range')}
        />
        <Select<'state' | 'fault'>
          allowClear
          value={filter.eventClass}
          placeholder={t('runLog.allClasses')}
          onChange={(value) => change({ eventClass: value ?? null })}
          options={[
            { value: 'state', label: t('runLog.class.state') },
            { value: 'fault', label: t('runLog.class.fault') },
          ]}
          style={{ minWidth: 130 }}
          data-testid="run-log-class"
          aria-label={t('runLog.class')}
        />
        <Select<string[]>
          mode="multiple"
          allowClear
          value={filter.codes}
          placeholder={t('runLog.allCodes')}
          onChange={(codes) => change({ codes })}
          options={EVENT_TABLE.map((e) => ({
            value: e.code,
            label: `${e.code} · ${eventText(e.code, language)}`,
          }))}
          optionFilterProp="label"
          maxTagCount="responsive"
          className="run-log-codes"
          data-testid="run-log-codes"
          aria-label={t('runLog.codes')}
        />
        <Space wrap className="run-log-actions">
          <Access check="lift.export">
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={() => void exportCsv()}
              data-testid="run-log-export"
            >
              {t('runLog.exportCsv')}
            </Button>
          </Access>
          <Button
            icon={<FileTextOutlined />}
            onClick={saveText}
            disabled={merged.list.length === 0}
            data-testid="run-log-save-text"
          >
            {t('runLog.saveText')}
          </Button>
        </Space>
      </div>
      {log.isError ? (
        <LoadError
          error={log.error}
          onRetry={() => void log.refetch()}
          className="lift-panel-alert"
        />
      ) : null}
      <Table<RunLogEntry>
        rowKey="id"
        size="small"
        loading={log.isFetching && !log.data}
        dataSource={merged.list}
        scroll={phone ? undefined : { x: 'max-content' }}
        locale={{ emptyText: log.isError ? t('lift.loadFailed') : t('runLog.empty') }}
        rowClassName={(e) =>
          [e.fault ? 'run-log-fault' : '', freshIds.has(e.id) ? 'run-log-new' : ''].join(' ')
        }
        data-testid="run-log-table"
        onRow={(e) => ({ 'data-code': e.code, 'data-fault': String(e.fault) }) as object}
        pagination={logPagination(paging, setPaging, total, t)}
        columns={
          phone
            ? [
                {
                  key: 'ts',
                  title: t('runLog.time'),
                  width: 96,
                  render: (_, e) => (
                    <CompactTime ts={e.ts} className="run-log-time run-log-time-compact" />
                  ),
                },
                {
                  key: 'event',
                  title: t('runLog.meaning'),
                  render: (_, e) => (
                    <>
                      <Tag color={e.fault ? 'red' : 'default'} className="run-log-code">
                        {e.code}
                      </Tag>
                      <span
                        className={e.fault ? 'run-log-fault-text' : undefined}
                        data-testid="run-log-meaning"
                      >
                        {eventText(e.code, language, e.reason)}
                      </span>
                    </>
                  ),
                },
              ]
            : [
                {
                  key: 'ts',
                  title: t('runLog.time'),
                  width: 180,
                  render: (_, e) => (
                    <span className="run-log-time">{dayjs(e.ts).format(TIME)}</span>
                  ),
                },
                {
                  key: 'code',
                  title: t('runLog.code'),
                  width: 90,
                  render: (_, e) => (
                    <Tag color={e.fault ? 'red' : 'default'} className="run-log-code">
                      {e.code}
                    </Tag>
                  ),
                },
                {
                  key: 'meaning',
                  title: t('runLog.meaning'),
                  render: (_, e) => (
                    <span
                      className={e.fault ? 'run-log-fault-text' : undefined}
                      data-testid="run-log-meaning"
                    >
                      {eventText(e.code, language, e.reason)}
                    </span>
                  ),
                },
                {
                  key: 'floor',
                  title: t('runLog.floor'),
                  width: 70,
                  render: (_, e) => e.floor ?? '—',
                },
              ]
        }
      />
    </Card>
  );
}
