import { App, Button, Card, Space, Table, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PageContainer } from '../../../components/page-container.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { LANGUAGE_LABELS } from '../../../lib/i18n/language.ts';
import { reportsApi, useReports, type ReportView } from '../api/reports-api.ts';
import { GenerateForm } from './generate-form.tsx';
import './reports.css';

/**
 * The stored availability reports of the organizations in reach (built monthly and on demand)
 * with their PDF and CSV, and the form that builds one now. A mail's link names its report
 * (`?id=`): that row is marked.
 */
export default function ReportsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const linked = params.get('id');
  const reports = useReports();

  const save = (report: ReportView, format: 'pdf' | 'csv') =>
    reportsApi.download(report, format).catch((error: unknown) => showError(message, error));

  return (
    <PageContainer title={t('menu.dashboard.reports')}>
      <div className="reports-page">
        <Card title={t('reports.generateTitle')}>
          <Typography.Paragraph type="secondary">{t('reports.intro')}</Typography.Paragraph>
          <GenerateForm />
        </Card>
        <Card title={t('reports.listTitle')}>
          {reports.isError ? (
            <LoadError error={reports.error} onRetry={() => void reports.refetch()} />
          ) : (
            <Table<ReportView>
              rowKey="id"
              size="small"
              loading={reports.isPending}
              dataSource={reports.data?.list ?? []}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: t('reports.empty') }}
              rowClassName={(r) => (r.id === linked ? 'reports-linked' : '')}
              pagination={{ pageSize: 20, hideOnSinglePage: true }}
              columns={[
                { key: 'month', title: t('reports.month'), dataIndex: 'month' },
                { key: 'org', title: t('reports.org'), dataIndex: 'orgName' },
                {
                  key: 'site',
                  title: t('reports.site'),
                  render: (_, r) => r.site ?? t('reports.wholeOrg'),
                },
                {
                  key: 'language',
                  title: t('reports.language'),
                  render: (_, r) => LANGUAGE_LABELS[r.language],
                },
                {
                  key: 'created',
                  title: t('reports.created'),
                  render: (_, r) => (
                    <span>
                      {dayjs(r.createdAt).format('YYYY-MM-DD HH:mm')}
                      <Typography.Text type="secondary">
                        {' '}
                        · {r.createdBy ?? t('reports.monthlyJob')}
                      </Typography.Text>
                    </span>
                  ),
                },
                {
                  key: 'files',
                  title: t('reports.download'),
                  render: (_, r) => (
                    <Space size={4}>
                      <Button
                        size="small"
                        icon={<DownloadOutlined />}
                        onClick={() => void save(r, 'pdf')}
                        aria-label={`${t('reports.pdf')} ${r.month} ${r.orgName} ${r.site ?? ''}`}
                      >
                        {t('reports.pdf')}
                      </Button>
                      <Button
                        size="small"
                        icon={<DownloadOutlined />}
                        onClick={() => void save(r, 'csv')}
                        aria-label={`${t('reports.csv')} ${r.month} ${r.orgName} ${r.site ?? ''}`}
                      >
                        {t('reports.csv')}
                      </Button>
                    </Space>
                  ),
                },
              ]}
            />
          )}
        </Card>
      </div>
    </PageContainer>
  );
}
