import { Alert, Button, Grid, Popconfirm, Table, Tag } from 'antd';
import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GroupConfigPreviewLift } from '@liftlink/protocol';
import { configIssueText, fieldLabel, valueText } from '../../../lib/config-model.ts';
import { reviewCounts, reviewOutcome } from '../model/group-config.ts';
import { StepFooter } from './step-footer.tsx';

const OUTCOME_COLORS = {
  send: 'blue',
  offline: 'warning',
  invalid: 'error',
  forbidden: 'error',
  unchanged: 'default',
} as const;

function Problems({ lift }: { lift: GroupConfigPreviewLift }) {
  const { t } = useTranslation();
  const outcome = reviewOutcome(lift);
  return (
    <div className="group-config-problems">
      <Tag color={OUTCOME_COLORS[outcome]} data-testid={`group-outcome-${lift.deviceNo}`}>
        {t(`groupConfig.outcome.${outcome}`)}
      </Tag>
      {lift.issues.map((issue) => (
        <div key={issue.path} className="group-config-problem">
          {issue.path === 'config' ? '' : `${fieldLabel(issue.path)}: `}
          {configIssueText(issue)}
        </div>
      ))}
      {lift.forbidden.length ? (
        <div className="group-config-problem">
          {t('groupConfig.problem.forbidden', {
            fields: lift.forbidden.map(fieldLabel).join(', '),
          })}
        </div>
      ) : null}
    </div>
  );
}

/** Step 3: each selected lift with its difference and its problems; then send. */
export function ReviewStep({
  lifts,
  sending,
  error,
  canSend,
  onBack,
  onSend,
}: {
  lifts: GroupConfigPreviewLift[];
  sending: boolean;
  /** False without liftConfig.edit: the review is shown, the send is not offered. */
  canSend: boolean;
  error: unknown;
  onBack: () => void;
  onSend: () => void;
}) {
  const { t } = useTranslation();
  const counts = reviewCounts(lifts);
  // A phone has no room for four columns: the outcome goes under the lift, nothing scrolls sideways.
  const narrow = Grid.useBreakpoint().sm === false;
  return (
    <div data-testid="group-review-step">
      {lifts.length === 0 ? (
        <Alert
          type="warning"
          showIcon
          title={t('groupConfig.review.empty')}
          className="group-config-alert"
        />
      ) : (
        <Alert
          type="info"
          showIcon
          title={t('groupConfig.review.summary', {
            total: lifts.length,
            send: counts.send,
            other: counts.other,
          })}
          description={t('groupConfig.noMovement')}
          className="group-config-alert"
          data-testid="group-review-summary"
        />
      )}
      <Table<GroupConfigPreviewLift>
        rowKey="liftId"
        size="small"
        pagination={lifts.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        dataSource={lifts}
        scroll={narrow ? undefined : { x: 640 }}
        data-testid="group-review-table"
        columns={[
          {
            key: 'lift',
            title: t('groupConfig.col.lift'),
            width: narrow ? '45%' : 160,
            render: (_, l) => (
              <div>
                <div className="group-config-device">{l.deviceNo ?? '—'}</div>
                {l.alias ? <div className="lift-muted">{l.alias}</div> : null}
                <Tag color={l.online ? 'success' : 'default'} className="group-config-online">
                  {t(l.online ? 'groupConfig.online' : 'groupConfig.offline')}
                </Tag>
                {narrow ? <Problems lift={l} /> : null}
              </div>
            ),
          },
          {
            key: 'kind',
            title: t('groupConfig.col.kind'),
            responsive: ['md'],
            render: (_, l) => (
              <div>
                <div>{t(`device.kind.${l.kind}`)}</div>
                <div className="lift-muted">{[l.firmware, l.site].filter(Boolean).join(' · ')}</div>
              </div>
            ),
          },
          {
            key: 'change',
            title: t('groupConfig.col.change'),
            render: (_, l) => (
              <div className="group-config-diff">
                {Object.keys(l.next).map((key) => (
                  <div key={key} className={l.changed.includes(key) ? '' : 'lift-muted'}>
                    <span className="group-config-field">{fieldLabel(key)}</span>{' '}
                    {valueText(key, l.current[key])} →{' '}
                    <strong>{valueText(key, l.next[key])}</strong>
                  </div>
                ))}
              </div>
            ),
          },
          ...(narrow
            ? []
            : [
                {
                  key: 'outcome',
                  title: t('groupConfig.col.outcome'),
                  render: (_: unknown, l: GroupConfigPreviewLift) => <Problems lift={l} />,
                },
              ]),
        ]}
      />
      <StepFooter error={error} errorTestId="group-send-error" onBack={onBack}>
        {canSend ? (
          <Popconfirm
            title={t('groupConfig.send.confirm', { count: counts.send })}
            okText={t('groupConfig.send.ok')}
            cancelText={t('common.cancel')}
            onConfirm={onSend}
            okButtonProps={{ 'data-testid': 'group-send-confirm' }}
          >
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              disabled={counts.send === 0}
              loading={sending}
              data-testid="group-send"
            >
              {t('groupConfig.send.button', { count: counts.send })}
            </Button>
          </Popconfirm>
        ) : null}
      </StepFooter>
    </div>
  );
}
