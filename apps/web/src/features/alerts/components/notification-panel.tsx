import dayjs from 'dayjs';
import { Button, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LoadError } from '../../../components/charts/data-state.tsx';
import { PlainList } from '../../../components/charts/plain-list.tsx';
import { useAccess } from '../../../lib/access.tsx';
import { useLanguage } from '../../../lib/i18n/language.ts';
import {
  alertsApi,
  useAlertMutation,
  useNotifications,
  type NotificationItem,
} from '../api/alerts-api.ts';
import { alertText } from '../api/alert-text.ts';
import { AlertKindTag } from './alert-kind-tag.tsx';

/**
 * The list behind the header's bell: the user's latest alert notifications, newest first;
 * opening one marks it read and shows its lift. Loaded when the bell is first opened.
 */
export default function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const navigate = useNavigate();
  const can = useAccess();
  const notifications = useNotifications();
  const markRead = useAlertMutation((ids: number[]) => alertsApi.markRead(ids));
  const unread = notifications.data?.unread ?? 0;
  const list = notifications.data?.list ?? [];

  const openItem = (item: NotificationItem) => {
    if (!item.read) markRead.mutate([item.id]);
    onClose();
    void navigate(`/lift/${item.liftId}`);
  };

  return (
    <div className="notification-panel" style={{ width: 'min(360px, calc(100vw - 32px))' }}>
      {notifications.isLoading ? (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      ) : notifications.isError ? (
        <LoadError error={notifications.error} onRetry={() => void notifications.refetch()} />
      ) : (
        <PlainList<NotificationItem>
          items={list.slice(0, 20)}
          rowKey={(item) => item.id}
          emptyText={t('notify.empty')}
          style={{ maxHeight: 360, overflowY: 'auto' }}
          rowProps={(item) => ({
            onClick: () => openItem(item),
            style: { cursor: 'pointer' },
            'data-testid': 'notification-item',
            'data-read': String(item.read),
          })}
          renderItem={(item) => (
            <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start', minWidth: 0 }}>
              <AlertKindTag kind={item.kind} />
              <div style={{ minWidth: 0 }}>
                <Typography.Text strong={!item.read} style={{ overflowWrap: 'anywhere' }}>
                  {[item.deviceNo ?? t('lift.noDeviceNo'), item.alias].filter(Boolean).join(' · ')}
                </Typography.Text>
                <div style={{ overflowWrap: 'anywhere' }}>{alertText(item, language)}</div>
                <Typography.Text type="secondary">
                  {dayjs(item.raisedAt).format('MM-DD HH:mm')}
                </Typography.Text>
              </div>
            </div>
          )}
        />
      )}
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, marginTop: 8 }}>
        <Button
          size="small"
          type="link"
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate(list.filter((n) => !n.read).map((n) => n.id))}
          data-testid="notifications-read-all"
        >
          {t('notify.readAll')}
        </Button>
        {can('alert.query') ? (
          <Button
            size="small"
            type="link"
            onClick={() => {
              onClose();
              void navigate('/lift/alerts');
            }}
          >
            {t('notify.viewAll')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
