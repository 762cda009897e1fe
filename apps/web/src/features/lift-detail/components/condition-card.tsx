import { Alert, Card, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DataState } from '../../../components/charts/data-state.tsx';
import { ConditionFactors } from '../../../components/condition/condition-factors.tsx';
import { ConditionScore } from '../../../components/condition/condition-score.tsx';
import { ConditionSparkline } from '../../../components/condition/condition-sparkline.tsx';
import { reasonText } from '../../../components/condition/condition-texts.ts';
import { useLiftCondition } from '../api/condition-api.ts';

/**
 * The lift's condition (issue 17): its score with the 30-day history, the proposed visit when
 * it is listed, and every factor with its explanation.
 */
export function ConditionCard({ liftId }: { liftId: string }) {
  const { t } = useTranslation();
  const query = useLiftCondition(liftId);
  const c = query.data;
  return (
    <Card title={t('condition.card.title')} data-testid="panel-condition">
      <DataState
        loading={query.isPending}
        error={c ? null : query.error}
        empty={!!c && c.score === null}
        emptyText={t('condition.card.notYet')}
        onRetry={() => void query.refetch()}
      >
        {c && c.score !== null ? (
          <>
            <Space wrap align="center">
              <ConditionScore score={c.score} />
              <ConditionSparkline history={c.history} label={t('condition.card.history')} />
              {c.computedAt ? (
                <Typography.Text type="secondary">
                  {t('condition.card.computedAt', {
                    time: dayjs(c.computedAt).format('YYYY-MM-DD HH:mm'),
                  })}
                </Typography.Text>
              ) : null}
            </Space>
            {c.proposal ? (
              <Alert
                type="warning"
                showIcon
                className="condition-proposal"
                data-testid="condition-proposal"
                title={t('condition.card.proposal', {
                  date: c.proposal.visitOn,
                  reason: reasonText(c.proposal.reason),
                })}
              />
            ) : null}
            <ConditionFactors factors={c.factors} />
          </>
        ) : null}
      </DataState>
    </Card>
  );
}
