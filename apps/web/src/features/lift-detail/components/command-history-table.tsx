import { Alert, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { refusalText } from '@liftlink/protocol';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { useCommandHistory } from '../api/lift-api.ts';
import { commandLabel } from '../model/command-label.ts';
import { isFailure } from '../model/command-progress.ts';
import { StateTag } from './command-progress-list.tsx';

/** The lift's last commands, whoever sent them. */
export function CommandHistory({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const history = useCommandHistory(liftId);
  if (history.isError) return <Alert type="error" showIcon title={t('lift.loadFailed')} />;
  return (
    <Table
      size="small"
      rowKey="commandId"
      loading={history.isLoading}
      dataSource={history.data?.list ?? []}
      pagination={{ pageSize: 10, size: 'small', hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('command.history.empty') }}
      columns={[
        {
          key: 'time',
          title: t('command.history.time'),
          render: (_, r) => dayjs(r.createdAt).format('MM-DD HH:mm:ss'),
        },
        { key: 'user', title: t('command.history.user'), render: (_, r) => r.username ?? '—' },
        {
          key: 'command',
          title: t('command.history.command'),
          render: (_, r) =>
            r.name === 'configSet'
              ? t('command.configSet')
              : r.name === 'configGet'
                ? t('command.configGet')
                : commandLabel(r.name, r.args ?? {}),
        },
        {
          key: 'state',
          title: t('command.history.state'),
          render: (_, r) => (
            <Space size={4} wrap>
              <StateTag state={r.state} />
              {r.reason && isFailure(r.state) ? (
                <span className="lift-muted">{refusalText(r.reason, language)}</span>
              ) : null}
            </Space>
          ),
        },
      ]}
    />
  );
}
