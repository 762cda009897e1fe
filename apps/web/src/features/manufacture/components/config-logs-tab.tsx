import { useState } from 'react';
import { Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { changedConfigKeys } from '@liftlink/protocol';
import { ConfigResultTag } from '../../../components/config-result-tag.tsx';
import { fieldLabel } from '../../../lib/config-model.ts';
import { useConfigLogs, type ConfigLogEntry } from '../api/manufacture-api.ts';
import { useBench } from './bench-context.tsx';

/** Configuration logs of the lift on the bench (`GET /manufacture/lift/getConfigLogs`). */
export function ConfigLogsTab() {
  const { t, i18n } = useTranslation();
  const { lift } = useBench();
  const [page, setPage] = useState(1);
  const logs = useConfigLogs(lift?.id ?? null, page);
  if (!lift)
    return (
      <Empty
        description={t('manufacture.device.notRegistered')}
        image={Empty.PRESENTED_IMAGE_SIMPLE}
      />
    );
  return (
    <Table<ConfigLogEntry>
      size="small"
      rowKey="id"
      loading={logs.isFetching}
      dataSource={logs.data?.list ?? []}
      scroll={{ x: 640 }}
      pagination={{
        current: page,
        pageSize: 10,
        total: logs.data?.total ?? 0,
        onChange: setPage,
        size: 'small',
      }}
      columns={[
        {
          title: t('manufacture.logs.time'),
          dataIndex: 'ts',
          width: 170,
          render: (ts: string) => new Date(ts).toLocaleString(i18n.language),
        },
        {
          title: t('manufacture.logs.user'),
          dataIndex: 'username',
          width: 120,
          render: (u: string | null) => u ?? '—',
        },
        {
          title: t('manufacture.logs.source'),
          dataIndex: 'source',
          width: 100,
          render: (s: string) => (
            <Tag>{t(`manufacture.logs.source.${s}`, { defaultValue: s })}</Tag>
          ),
        },
        { title: t('manufacture.logs.version'), dataIndex: 'version', width: 80 },
        {
          title: t('manufacture.logs.changes'),
          render: (_, e) => {
            const keys = e.after ? changedConfigKeys(e.before, e.after) : [];
            return keys.length
              ? keys.slice(0, 6).map(fieldLabel).join(', ') +
                  (keys.length > 6 ? ` +${keys.length - 6}` : '')
              : '—';
          },
        },
        {
          title: t('manufacture.logs.result'),
          dataIndex: 'result',
          width: 90,
          render: (result: string) => <ConfigResultTag result={result} />,
        },
      ]}
    />
  );
}
