import type { ReactNode } from 'react';
import { Button, Space, Tag } from 'antd';
import {
  CheckCircleOutlined,
  ClockCircleOutlined,
  CloseCircleOutlined,
  DisconnectOutlined,
  LoadingOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { translateError } from '../../../lib/i18n/i18n.ts';
import { useLanguage } from '../../../lib/i18n/language.ts';
import { commandLabel } from '../model/command-label.ts';
import {
  cancelWindowLeft,
  isFailure,
  isRetryable,
  type CommandEntry,
  type ProgressState,
} from '../model/command-progress.ts';
import { refusalView } from '../model/refusal.ts';
import { RefusalNote } from './refusal-note.tsx';
import { useNow } from './use-now.ts';

const STATE_LOOK: Record<ProgressState, { color: string; icon: ReactNode }> = {
  sending: { color: 'processing', icon: <LoadingOutlined /> },
  created: { color: 'processing', icon: <LoadingOutlined /> },
  sent: { color: 'processing', icon: <LoadingOutlined /> },
  accepted: { color: 'processing', icon: <SyncOutlined spin /> },
  done: { color: 'success', icon: <CheckCircleOutlined /> },
  rejected: { color: 'error', icon: <CloseCircleOutlined /> },
  failed: { color: 'error', icon: <CloseCircleOutlined /> },
  expired: { color: 'warning', icon: <ClockCircleOutlined /> },
  cancelled: { color: 'default', icon: <CloseCircleOutlined /> },
  timeout: { color: 'warning', icon: <ClockCircleOutlined /> },
  offline: { color: 'default', icon: <DisconnectOutlined /> },
  error: { color: 'error', icon: <CloseCircleOutlined /> },
};

/** `holding`: still in the cloud, in its cancel window; the lift has not heard of it yet. */
export function StateTag({ state, holding = false }: { state: ProgressState; holding?: boolean }) {
  const { t } = useTranslation();
  const look = STATE_LOOK[state];
  return (
    <Tag color={look.color} icon={look.icon} data-testid="command-state">
      {holding ? t('command.state.holding') : t(`command.state.${state}`)}
    </Tag>
  );
}

interface Props {
  entries: CommandEntry[];
  onCancel: (entry: CommandEntry) => void;
  onRetry: (entry: CommandEntry) => void;
  /** Offers "Request approval" after an `approval.required` refusal; null while it cannot be asked. */
  onRequestApproval: ((entry: CommandEntry) => void) | null;
}

/**
 * The commands this page sent, newest first: their state as the lift answers, "Cancel" with
 * a countdown during the cancel window, and after a refusal its reason and what to do next.
 */
export function ProgressList({ entries, onCancel, onRetry, onRequestApproval }: Props) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const now = useNow((at) => entries.some((e) => cancelWindowLeft(e, at) !== null));
  if (entries.length === 0) return null;
  return (
    <PlainList
      style={{ marginTop: 16 }}
      header={<strong>{t('command.progress')}</strong>}
      items={entries}
      rowKey={(entry) => entry.localId}
      rowProps={(entry) => ({
        'data-testid': 'command-progress',
        'data-command': entry.name,
        'data-state': entry.state,
      })}
      renderItem={(entry) => {
        const refusal = isFailure(entry.state) ? refusalView(entry, language) : null;
        const cancelLeft = cancelWindowLeft(entry, now);
        return (
          <div className="command-progress-item">
            <div className="command-progress-main">
              <span className="command-progress-label">{commandLabel(entry.name, entry.args)}</span>
              <StateTag state={entry.state} holding={cancelLeft !== null} />
              <span className="lift-muted">{dayjs(entry.startedAt).format('HH:mm:ss')}</span>
              {cancelLeft !== null ? (
                <Button
                  size="small"
                  danger
                  loading={entry.cancel === 'pending'}
                  onClick={() => onCancel(entry)}
                  data-testid="command-cancel"
                >
                  {t('command.cancel', { seconds: Math.ceil(cancelLeft / 1000) })}
                </Button>
              ) : null}
            </div>
            {refusal ? <RefusalNote view={refusal} /> : null}
            {entry.cancelError ? (
              <div className="command-progress-reason" data-testid="command-cancel-error">
                {translateError(entry.cancelError)}
              </div>
            ) : null}
            {(entry.reason === 'approvalRequired' && onRequestApproval) || isRetryable(entry) ? (
              <Space wrap size={8}>
                {entry.reason === 'approvalRequired' && onRequestApproval ? (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => onRequestApproval(entry)}
                    data-testid="command-request-approval"
                  >
                    {t('approval.request.title')}
                  </Button>
                ) : null}
                {isRetryable(entry) ? (
                  <Button size="small" onClick={() => onRetry(entry)} data-testid="command-retry">
                    {t('command.retry')}
                  </Button>
                ) : null}
              </Space>
            ) : null}
          </div>
        );
      }}
    />
  );
}
