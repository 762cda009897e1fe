import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel, valueText, type ConfigChange } from '../../../lib/config-model.ts';

/** How a change's field and values read; the configuration's own by default. */
export interface DiffWords {
  label: (key: string) => string;
  value: (key: string, value: ConfigChange['before']) => string;
}
const CONFIG_WORDS: DiffWords = { label: fieldLabel, value: valueText };

/** Field, value before, value after: what a configuration send (or a past change) changes. */
export function ConfigDiffTable({
  changes,
  testId,
  words = CONFIG_WORDS,
}: {
  changes: ConfigChange[];
  testId?: string;
  words?: DiffWords;
}) {
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
          render: (_, c) => words.label(c.key),
        },
        {
          key: 'before',
          title: t('config.diff.before'),
          render: (_, c) => (
            <span className="config-diff-before">{words.value(c.key, c.before)}</span>
          ),
        },
        {
          key: 'after',
          title: t('config.diff.after'),
          render: (_, c) => (
            <strong className="config-diff-after">{words.value(c.key, c.after)}</strong>
          ),
        },
      ]}
    />
  );
}
