import { Suspense, useState } from 'react';
import { Button, Popover } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../../lib/access.tsx';
import { withTexts } from '../../../lib/i18n/language.ts';
import { lazyPage } from '../../../lib/lazy.ts';
import { useFleetLive } from '../../../lib/live/use-live.ts';
import { alertKeys, useNotifications } from '../api/alerts-api.ts';
import {
  incidentNotificationKeys,
  useIncidentNotifications,
} from '../api/incident-notifications-api.ts';
import './notification-bell.css';

// The list, its antd parts and the alert texts download when the bell is first opened.
const NotificationPanel = lazyPage(withTexts(['lifts'], () => import('./notification-panel.tsx')));

/**
 * The in-app notifications of the alerts the user chose (notification settings) and of the
 * incidents escalated to them (docs/service.md, "Escalation"): a bell with the unread count
 * for the layout header; new ones arrive live.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const can = useAccess();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const notifications = useNotifications();
  // Escalation: asked to acknowledge an incident, or told who took it.
  const incidentNotifications = useIncidentNotifications();
  const unread = (notifications.data?.unread ?? 0) + (incidentNotifications.data?.unread ?? 0);

  const refetchNotifications = () =>
    void client.invalidateQueries({ queryKey: alertKeys.notifications });
  const refetchIncidentNotifications = () =>
    void client.invalidateQueries({ queryKey: incidentNotificationKeys.all });
  useFleetLive(
    (msg) => {
      if (msg.type === 'alert') refetchNotifications();
      if (msg.type === 'notification') refetchIncidentNotifications();
    },
    {
      enabled: can('lift.query'),
      onSubscribed: () => {
        refetchNotifications();
        refetchIncidentNotifications();
      },
    },
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      // On a phone the bell is not at the screen's edge and the panel is wider than the room
      // to its left: shift the panel into the screen instead of letting it run off.
      align={{ overflow: { adjustX: true, adjustY: true, shiftX: true } }}
      open={open}
      onOpenChange={setOpen}
      title={t('notify.title')}
      content={
        <Suspense fallback={<div className="notification-panel-loading" aria-busy="true" />}>
          <NotificationPanel onClose={() => setOpen(false)} />
        </Suspense>
      }
    >
      <span className="notification-bell">
        <Button
          type="text"
          icon={<BellOutlined />}
          aria-label={t('notify.title')}
          data-testid="notification-bell"
        />
        {unread > 0 ? (
          <span className="notification-bell-count" data-testid="notification-count">
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </span>
    </Popover>
  );
}
