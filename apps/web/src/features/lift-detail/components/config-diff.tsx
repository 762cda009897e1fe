import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel, valueText, type ConfigChange } from '../../../lib/config-model.ts';

/** Field, value before, value after: what a configuration send (or a past change) changes. */
export function ConfigDiffTable({ changes, testId }: { changes: ConfigChange[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Table<ConfigChange>
      size="small"
      rowKey="key"
      dataSource={changes}
      pagination={false}
      scroll={{ y: 360 }}
      locale={{ emptyText: t('config.diff.none') }}
      data-testid={testId}
      onRow={(change) => ({ 'data-key': change.key }) as object}
      columns={[
        {
          key: 'field',
          title: t('config.diff.field'),
          render: (_, c) => fieldLabel(c.key),
        },
        {
          key: 'before',
          title: t('config.diff.before'),
          render: (_, c) => (
            <span className="config-diff-before">{valueText(c.key, c.before)}</span>
          ),
        },
        {
          key: 'after',
          title: t('config.diff.after'),
          render: (_, c) => (
            <strong className="config-diff-after">{valueText(c.key, c.after)}</strong>
          ),
        },
      ]}
    />
  );
}
