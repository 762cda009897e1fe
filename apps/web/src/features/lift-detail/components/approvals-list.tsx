import { useState } from 'react';
import { App, Button, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { refusalText, type ApprovalView } from '@liftlink/protocol';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { showError } from '../../../lib/form-errors.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { commandLabel } from '../model/command-label.ts';
import { shownState, timeLeft } from '../model/approvals.ts';
import { isFailure } from '../model/command-progress.ts';
import { StateTag } from './command-progress-list.tsx';
import type { Approvals } from './use-approvals.ts';
import { useNow } from './use-now.ts';

const STATE_COLOR: Record<ApprovalView['state'], string> = {
  pending: 'processing',
  approved: 'success',
  rejected: 'error',
  withdrawn: 'default',
  expired: 'warning',
};

interface Props {
  approvals: Approvals;
  userId: string | null;
  liftName: string;
  /** Approves a request: its command runs at once (the panel follows its progress). */
  onApprove: (approval: ApprovalView) => Promise<unknown>;
}

/**
 * "Awaiting approval": the lift's requests for a second person's approval (command,
 * requester, reason, time left) and how the recent ones ended. Another user approves or
 * rejects; the requester may withdraw.
 */
export function ApprovalsList({ approvals, userId, liftName, onApprove }: Props) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { modal, message } = App.useApp();
  const [acting, setActing] = useState<string | null>(null);
  const now = useNow(
    (at) => approvals.list.some((a) => a.state === 'pending' && Date.parse(a.expiresAt) > at),
    1000,
  );
  if (approvals.list.length === 0) return null;
  const pending = approvals.list.filter((a) => shownState(a, now) === 'pending').length;

  const act = async (approval: ApprovalView, run: () => Promise<unknown>) => {
    setActing(approval.id);
    try {
      await run();
    } catch (error) {
      showError(message, error);
    } finally {
      setActing(null);
    }
  };

  const approve = (approval: ApprovalView) =>
    void modal.confirm({
      title: t('approval.approveConfirm.title'),
      content: t('approval.approveConfirm.text', {
        command: commandLabel(approval.command, approval.args),
        lift: liftName,
        name: approval.requesterName,
        reason: approval.reason,
      }),
      okText: t('approval.approve'),
      okButtonProps: { 'data-testid': 'approval-approve-confirm' },
      cancelText: t('common.cancel'),
      // The command's own outcome shows in the progress list.
      onOk: () => void act(approval, () => onApprove(approval)),
    });

  return (
    <section className="approvals" data-testid="approvals-list">
      <PlainList
        header={
          <strong>
            {t('approval.title')}
            {pending > 0 ? ` (${pending})` : ''}
          </strong>
        }
        items={approvals.list}
        rowKey={(a) => a.id}
        rowProps={(a) => ({
          'data-testid': 'approval-row',
          'data-command': a.command,
          'data-state': shownState(a, now),
        })}
        renderItem={(a) => {
          const state = shownState(a, now);
          const own = a.requesterId === userId;
          return (
            <div className="approval-item">
              <div className="command-progress-main">
                <span className="command-progress-label">{commandLabel(a.command, a.args)}</span>
                <Tag color={STATE_COLOR[state]} data-testid="approval-state">
                  {t(`approval.state.${state}`)}
                </Tag>
                {state === 'pending' ? (
                  <span className="lift-muted approval-time-left" data-testid="approval-time-left">
                    {t('approval.timeLeft', { time: timeLeft(a, now) })}
                  </span>
                ) : null}
                {a.commandState ? <StateTag state={a.commandState} /> : null}
              </div>
              <div className="approval-meta lift-muted">
                {t('approval.requestedBy', {
                  name: own ? t('approval.you') : a.requesterName,
                  time: dayjs(a.requestedAt).format('HH:mm:ss'),
                })}
                {a.deciderName ? ` · ${t('approval.decidedBy', { name: a.deciderName })}` : ''}
              </div>
              <div className="approval-reason" data-testid="approval-reason-text">
                {a.reason}
              </div>
              {a.commandReason && a.commandState && isFailure(a.commandState) ? (
                <div className="command-progress-reason">
                  {refusalText(a.commandReason, language)}
                </div>
              ) : null}
              {state === 'pending' ? (
                <Space wrap size={8} className="approval-actions">
                  {own ? (
                    <>
                      <span className="lift-muted">{t('approval.own')}</span>
                      <Button
                        size="small"
                        loading={acting === a.id}
                        onClick={() => void act(a, () => approvals.withdraw(a))}
                        data-testid="approval-withdraw"
                      >
                        {t('approval.withdraw')}
                      </Button>
                    </>
                  ) : (
                    <>
                      <Button
                        size="small"
                        type="primary"
                        loading={acting === a.id}
                        onClick={() => approve(a)}
                        data-testid="approval-approve"
                      >
                        {t('approval.approve')}
                      </Button>
                      <Button
                        size="small"
                        danger
                        disabled={acting === a.id}
                        onClick={() => void act(a, () => approvals.reject(a))}
                        data-testid="approval-reject"
                      >
                        {t('approval.reject')}
                      </Button>
                    </>
                  )}
                </Space>
              ) : null}
            </div>
          );
        }}
      />
    </section>
  );
}
