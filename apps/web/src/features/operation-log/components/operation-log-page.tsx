import { useState } from 'react';
import { App, Button, Card, Grid, Input, Select, Table, Tag } from 'antd';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { auditActionName, auditResultText, auditSummary } from '@liftlink/protocol';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { Access } from '../../../lib/access.tsx';
import { downloadFile } from '../../../lib/download.ts';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { LiftPicker } from '../../../components/lift-picker.tsx';
import {
  EMPTY_OPERATION_FILTER,
  OPERATION_ACTIONS,
  OPERATION_LOG_EXPORT_PATH,
  operationLogParams,
  useOperationLog,
  type OperationLogEntry,
  type OperationLogFilter,
} from '../api/operation-log-api.ts';
import { resultColor } from './operation-detail.ts';
import { TimeRangeFilter } from '../../../components/time-range-filter.tsx';
import './operation-log.css';

const TIME = 'YYYY-MM-DD HH:mm:ss';

/** The audited commands and configuration changes the user may see: filter, page, export. */
export default function OperationLogPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { language } = useLanguage();
  const [filter, setFilter] = useState<OperationLogFilter>(EMPTY_OPERATION_FILTER);
  const [username, setUsername] = useState('');
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [exporting, setExporting] = useState(false);
  const log = useOperationLog(filter, paging.page, paging.pageSize);
  const phone = Grid.useBreakpoint().md === false;

  const change = (patch: Partial<OperationLogFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadFile(
        OPERATION_LOG_EXPORT_PATH,
        // The file speaks the page's language: the same names and summaries as the table.
        { ...operationLogParams(filter), lang: language },
        `operation-log-${dayjs().format('YYYY-MM-DD')}.csv`,
      );
    } catch (error) {
      showError(message, error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <PageContainer
      title={t('menu.cloud.operationLog')}
      extra={
        <>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void log.refetch()}
            loading={log.isFetching}
          >
            {t('common.refresh')}
          </Button>
          <Access check="operationLog.export">
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={() => void exportCsv()}
              data-testid="oplog-export"
            >
              {t('oplog.export')}
            </Button>
          </Access>
        </>
      }
    >
      <Card>
        <div className="oplog-filters">
          <LiftPicker
            value={filter.liftId}
            onChange={(liftId) => change({ liftId })}
            testId="oplog-lift"
          />
          <Input.Search
            allowClear
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            onSearch={(value) => change({ username: value })}
            placeholder={t('oplog.username')}
            className="oplog-user"
            data-testid="oplog-user"
          />
          <Select<string>
            allowClear
            value={filter.action}
            placeholder={t('oplog.allActions')}
            onChange={(action) => change({ action: action ?? null })}
            options={OPERATION_ACTIONS.map((action) => ({
              value: action,
              label: auditActionName(action, language),
            }))}
            popupMatchSelectWidth={false}
            style={{ minWidth: 150 }}
            aria-label={t('oplog.action')}
          />
          <TimeRangeFilter
            from={filter.from}
            to={filter.to}
            onChange={change}
            className="oplog-range"
            ariaLabel={t('oplog.range')}
          />
        </div>
        {log.isError ? (
          <LoadError error={log.error} onRetry={() => void log.refetch()} className="oplog-alert" />
        ) : null}
        <Table<OperationLogEntry>
          rowKey={(r) => String(r.id)}
          size="middle"
          loading={log.isFetching && !log.data}
          dataSource={log.data?.list ?? []}
          scroll={phone ? undefined : { x: 'max-content' }}
          locale={{ emptyText: log.isError ? t('panel.loadFailed') : t('oplog.empty') }}
          data-testid="oplog-table"
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: log.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('common.total', { total }),
            onChange: (page, pageSize) =>
              setPaging((p) => ({ page: pageSize !== p.pageSize ? 1 : page, pageSize })),
          }}
          columns={
            phone
              ? [
                  {
                    key: 'when',
                    title: t('oplog.time'),
                    width: 110,
                    render: (_, r) => (
                      <span className="oplog-time oplog-time-compact">
                        {dayjs(r.ts).format('MM-DD HH:mm:ss')}
                        <br />
                        <span className="lift-muted">{r.username ?? '—'}</span>
                      </span>
                    ),
                  },
                  {
                    key: 'what',
                    title: t('oplog.action'),
                    render: (_, r) => (
                      <div className="oplog-compact">
                        <div>
                          {r.liftId ? (
                            <Link to={`/lift/${r.liftId}`}>
                              {r.deviceNo ?? t('lift.noDeviceNo')}
                            </Link>
                          ) : null}{' '}
                          {auditActionName(r.action, language)}
                        </div>
                        <div className="oplog-detail">
                          {auditSummary(r.action, r.detail, language)}
                        </div>
                        <Tag color={resultColor(r.result)}>
                          {auditResultText(r.result, language)}
                        </Tag>
                      </div>
                    ),
                  },
                ]
              : [
                  {
                    key: 'ts',
                    title: t('oplog.time'),
                    render: (_, r) => (
                      <span className="oplog-time">{dayjs(r.ts).format(TIME)}</span>
                    ),
                  },
                  { key: 'user', title: t('oplog.user'), render: (_, r) => r.username ?? '—' },
                  {
                    key: 'lift',
                    title: t('oplog.lift'),
                    render: (_, r) =>
                      r.liftId ? (
                        <Link to={`/lift/${r.liftId}`}>{r.deviceNo ?? t('lift.noDeviceNo')}</Link>
                      ) : (
                        '—'
                      ),
                  },
                  {
                    key: 'action',
                    title: t('oplog.action'),
                    render: (_, r) => auditActionName(r.action, language),
                  },
                  {
                    key: 'detail',
                    title: t('oplog.detail'),
                    render: (_, r) => (
                      <span className="oplog-detail">
                        {auditSummary(r.action, r.detail, language)}
                      </span>
                    ),
                  },
                  {
                    key: 'result',
                    title: t('oplog.result'),
                    render: (_, r) => (
                      <Tag color={resultColor(r.result)}>{auditResultText(r.result, language)}</Tag>
                    ),
                  },
                ]
          }
        />
      </Card>
    </PageContainer>
  );
}
