import { useState } from 'react';
import { Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataState } from '../../../components/charts/data-state.tsx';
import { ConditionScore } from '../../../components/condition/condition-score.tsx';
import { reasonText } from '../../../components/condition/condition-texts.ts';
import { PageContainer } from '../../../components/page-container.tsx';
import { tx } from '../../../lib/i18n/i18n.ts';
import { useConditionList, type ConditionListItem } from '../api/condition-api.ts';

const PAGE_SIZE = 20;

/**
 * Lift health (issue 17): the lifts in the user's reach whose condition score is low or fell,
 * worst first, each with its main reason, the proposed visit and a link to the lift.
 */
export default function ConditionPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const query = useConditionList(page, PAGE_SIZE);
  const data = query.data;
  return (
    <PageContainer title={t('condition.title')}>
      <Card>
        <Typography.Paragraph type="secondary">{t('condition.intro')}</Typography.Paragraph>
        <DataState
          loading={query.isPending}
          error={data ? null : query.error}
          empty={!!data && data.total === 0}
          emptyText={t('condition.empty')}
          onRetry={() => void query.refetch()}
        >
          {data ? (
            <Table<ConditionListItem>
              rowKey="liftId"
              size="middle"
              scroll={{ x: 'max-content' }}
              dataSource={data.list}
              data-testid="condition-list"
              pagination={{
                current: page,
                pageSize: PAGE_SIZE,
                total: data.total,
                onChange: setPage,
                hideOnSinglePage: true,
              }}
              columns={[
                {
                  key: 'lift',
                  title: t('condition.lift'),
                  render: (_, item) => (
                    <Link to={`/lift/${item.liftId}`} data-testid="condition-lift-link">
                      {item.alias ? `${item.alias} · ${item.deviceNo}` : item.deviceNo}
                    </Link>
                  ),
                },
                {
                  key: 'score',
                  title: t('condition.score'),
                  render: (_, item) => (
                    <>
                      <ConditionScore score={item.score} />
                      {item.fellBy !== null ? (
                        <Typography.Text type="danger">
                          {t('condition.fellBy', { points: item.fellBy })}
                        </Typography.Text>
                      ) : null}
                    </>
                  ),
                },
                {
                  key: 'reason',
                  title: t('condition.mainReason'),
                  render: (_, item) => (
                    <span data-testid="condition-reason">
                      <strong>{tx(`condition.factor.${item.mainFactor}`)}</strong>:{' '}
                      {reasonText(item.reason)}
                    </span>
                  ),
                },
                {
                  key: 'visit',
                  title: t('condition.visit'),
                  dataIndex: 'visitOn',
                  render: (visitOn: string) => <span data-testid="condition-visit">{visitOn}</span>,
                },
              ]}
            />
          ) : null}
        </DataState>
      </Card>
    </PageContainer>
  );
}
