import { useState } from 'react';
import { Alert, App, Button, Card, Descriptions, Flex, Skeleton, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { downloadBackup, useBackupInfo } from '../api/backup-api.ts';

/** What a backup holds, in this order. */
const COUNTED = [
  'organizations',
  'users',
  'lifts',
  'lift_config_log',
  'lift_events',
  'audit_log',
] as const;

function megabytes(bytes: number, language: string): string {
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytes / 1_048_576)} MB`;
}

/**
 * System → Backup: downloads a backup of the embedded database while the server runs (the
 * file `npm run restore` reads). With PostgreSQL the page says to use pg_dump instead.
 */
export default function BackupPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { message } = App.useApp();
  const can = useAccess();
  const info = useBackupInfo();
  const [busy, setBusy] = useState(false);
  const number = new Intl.NumberFormat(language);

  const download = async () => {
    setBusy(true);
    try {
      await downloadBackup();
      void message.success(t('system.backup.done'));
    } catch (error) {
      showError(message, error);
    } finally {
      setBusy(false);
    }
  };

  const data = info.data;
  const embedded = data?.database === 'pglite';
  return (
    <PageContainer
      title={t('menu.system.backup')}
      extra={
        embedded && can('user.export') ? (
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            loading={busy}
            onClick={() => void download()}
          >
            {t('system.backup.download')}
          </Button>
        ) : null
      }
    >
      {info.isError ? (
        <LoadError error={info.error} onRetry={() => void info.refetch()} />
      ) : !data ? (
        <Card>
          <Skeleton active />
        </Card>
      ) : (
        <Flex vertical gap="middle">
          <Alert
            type={embedded ? 'info' : 'warning'}
            showIcon
            message={embedded ? t('system.backup.embedded') : t('system.backup.postgres')}
            description={
              <Typography.Paragraph>
                {embedded ? t('system.backup.restoreEmbedded') : t('system.backup.restorePostgres')}
              </Typography.Paragraph>
            }
          />
          <Card title={t('system.backup.contents')}>
            <Descriptions column={{ xs: 1, sm: 1, md: 2 }} size="small" bordered>
              <Descriptions.Item label={t('system.backup.database')}>
                {embedded
                  ? t('system.backup.database.pglite')
                  : t('system.backup.database.postgres')}
              </Descriptions.Item>
              <Descriptions.Item label={t('system.backup.version')}>
                {data.productVersion} ·{' '}
                {t('system.backup.schema', {
                  latest: data.schema.latest.replace(/\.sql$/, ''),
                  count: data.schema.count,
                })}
              </Descriptions.Item>
              {data.dataBytes !== null ? (
                <Descriptions.Item label={t('system.backup.size')}>
                  {megabytes(data.dataBytes, language)}
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('system.backup.retention')}>
                {t('system.backup.retentionDays', { days: data.runLogRetentionDays })}
              </Descriptions.Item>
              {COUNTED.map((table) => (
                <Descriptions.Item key={table} label={t(`system.backup.count.${table}`)}>
                  {number.format(data.counts[table] ?? 0)}
                </Descriptions.Item>
              ))}
            </Descriptions>
          </Card>
        </Flex>
      )}
    </PageContainer>
  );
}
