import dayjs from 'dayjs';
import { Button, Spin, Tag, Typography } from 'antd';
import type { IncidentNotification } from '@liftlink/protocol';
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
import {
  useIncidentNotifications,
  useMarkIncidentNotificationsRead,
} from '../api/incident-notifications-api.ts';
import { AlertKindTag } from './alert-kind-tag.tsx';

/** One row of the bell: an alert, or an incident notification (escalation). */
type Row =
  | { type: 'alert'; key: string; at: string; read: boolean; item: NotificationItem }
  | { type: 'incident'; key: string; at: string; read: boolean; item: IncidentNotification };

/**
 * The list behind the header's bell: the user's latest alert and incident notifications,
 * newest first; opening one marks it read and shows its lift (an incident's: the incident).
 * Loaded when the bell is first opened.
 */
export default function NotificationPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const navigate = useNavigate();
  const can = useAccess();
  const notifications = useNotifications();
  const markRead = useAlertMutation((ids: number[]) => alertsApi.markRead(ids));
  const incidents = useIncidentNotifications();
  const markIncidentsRead = useMarkIncidentNotificationsRead();
  const unread = (notifications.data?.unread ?? 0) + (incidents.data?.unread ?? 0);
  const list = notifications.data?.list ?? [];
  const incidentList = incidents.data?.list ?? [];
  const rows: Row[] = [
    ...list.map((item): Row => ({
      type: 'alert',
      key: `a${item.id}`,
      at: item.raisedAt,
      read: item.read,
      item,
    })),
    ...incidentList.map((item): Row => ({
      type: 'incident',
      key: `i${item.id}`,
      at: item.at,
      read: item.read,
      item,
    })),
  ].sort((a, b) => b.at.localeCompare(a.at));

  const openItem = (row: Row) => {
    if (row.type === 'alert' && !row.read) markRead.mutate([row.item.id]);
    if (row.type === 'incident' && !row.read) markIncidentsRead.mutate([row.item.id]);
    onClose();
    void navigate(
      row.type === 'alert' ? `/lift/${row.item.liftId}` : `/lift/incidents/${row.item.incidentId}`,
    );
  };
  const readAll = () => {
    const alerts = list.filter((n) => !n.read).map((n) => n.id);
    const mine = incidentList.filter((n) => !n.read).map((n) => n.id);
    if (alerts.length) markRead.mutate(alerts);
    if (mine.length) markIncidentsRead.mutate(mine);
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
        <PlainList<Row>
          items={rows.slice(0, 20)}
          rowKey={(row) => row.key}
          emptyText={t('notify.empty')}
          style={{ maxHeight: 360, overflowY: 'auto' }}
          rowProps={(item) => ({
            onClick: () => openItem(item),
            style: { cursor: 'pointer' },
            'data-testid': item.type === 'alert' ? 'notification-item' : 'notification-incident',
            'data-read': String(item.read),
          })}
          renderItem={(row) => (
            <div style={{ display: 'flex', gap: 8, alignItems: 'flex-start', minWidth: 0 }}>
              {row.type === 'alert' ? (
                <AlertKindTag kind={row.item.kind} />
              ) : (
                <Tag color={row.item.kind === 'taken' ? 'green' : 'orange'}>
                  {t('notify.incident', { id: row.item.incidentId })}
                </Tag>
              )}
              <div style={{ minWidth: 0 }}>
                <Typography.Text strong={!row.read} style={{ overflowWrap: 'anywhere' }}>
                  {[row.item.deviceNo ?? t('lift.noDeviceNo'), row.item.alias]
                    .filter(Boolean)
                    .join(' · ')}
                </Typography.Text>
                <div style={{ overflowWrap: 'anywhere' }}>
                  {row.type === 'alert'
                    ? alertText(row.item, language)
                    : // Asked to acknowledge it, or told who took it.
                      row.item.kind === 'taken'
                      ? t('notify.taken', { name: row.item.actorName ?? '—' })
                      : t(row.item.manager ? 'notify.escalatedManager' : 'notify.escalated')}
                </div>
                <Typography.Text type="secondary">
                  {dayjs(row.at).format('MM-DD HH:mm')}
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
          loading={markRead.isPending || markIncidentsRead.isPending}
          onClick={readAll}
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
