import { useState } from 'react';
import { Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/charts/data-state.tsx';
import { ConfigResultTag } from '../../../components/config-result-tag.tsx';
import { hasKey, tx } from '../../../lib/i18n/i18n.ts';
import { useConfigLogs, type ConfigLogEntry } from '../api/lift-api.ts';
import { configDiff } from '../../../lib/config-model.ts';
import { iotChanges } from '../model/iot-info.ts';
import { ConfigDiffTable, type DiffWords } from './config-diff.tsx';

/** An IoT entry's fields and values (the IoT details, not the configuration). */
const IOT_WORDS: DiffWords = {
  label: (key) => tx(`iot.${key}`),
  value: (key, value) =>
    value === undefined || value === ''
      ? '—'
      : key === 'signal'
        ? tx('iot.signalValue', { dbm: value })
        : String(value),
};

const isIot = (r: ConfigLogEntry) => r.source === 'iot';

/** What an entry changed, as the expanded row lists it. */
function entryDiff(r: ConfigLogEntry) {
  return isIot(r) ? iotChanges(r.before, r.after) : configDiff(r.before, r.after);
}

/** Who changed the configuration, when, and what changed (expand a row). */
export function ConfigHistory({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, pageSize: 10 });
  const logs = useConfigLogs(liftId, paging.page, paging.pageSize);
  return (
    <DataState
      loading={logs.isLoading}
      error={logs.error}
      empty={false}
      onRetry={() => void logs.refetch()}
    >
      <Table<ConfigLogEntry>
        size="small"
        rowKey={(r) => String(r.id)}
        dataSource={logs.data?.list ?? []}
        loading={logs.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('config.history.empty') }}
        data-testid="config-history"
        expandable={{
          expandedRowRender: (r) => (
            <ConfigDiffTable changes={entryDiff(r)} words={isIot(r) ? IOT_WORDS : undefined} />
          ),
          rowExpandable: (r) => r.after !== null,
        }}
        pagination={{
          current: paging.page,
          pageSize: paging.pageSize,
          total: logs.data?.total ?? 0,
          size: 'small',
          hideOnSinglePage: true,
          onChange: (page, pageSize) => setPaging({ page, pageSize }),
        }}
        columns={[
          {
            key: 'ts',
            title: t('config.history.time'),
            render: (_, r) => dayjs(r.ts).format('YYYY-MM-DD HH:mm:ss'),
          },
          {
            key: 'who',
            title: t('config.history.who'),
            render: (_, r) =>
              r.username ??
              (hasKey(`config.history.source.${r.source}`)
                ? tx(`config.history.source.${r.source}`)
                : r.source),
          },
          { key: 'version', title: t('config.history.version'), dataIndex: 'version' },
          {
            key: 'changes',
            title: t('config.history.changes'),
            render: (_, r) =>
              isIot(r)
                ? t('config.history.iotChanges', {
                    fields: iotChanges(r.before, r.after)
                      .map((c) => IOT_WORDS.label(c.key))
                      .join(', '),
                  })
                : t('config.history.changeCount', { count: configDiff(r.before, r.after).length }),
          },
          {
            key: 'result',
            title: t('config.history.result'),
            render: (_, r) => <ConfigResultTag result={r.result} />,
          },
        ]}
      />
    </DataState>
  );
}
