import { useState } from 'react';
import { App, Button, Select } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { IncidentView } from '@liftlink/protocol';
import { showError } from '../../../lib/form-errors.ts';
import { useSession } from '../../../lib/session.ts';
import { incidentsApi, useAssignees, useIncidentMutation } from '../api/incidents-api.ts';

/**
 * Who works on it: "take it" for the technician holding the phone, or any person the
 * server offers (the lift's organizations, a role that may work on incidents).
 */
export function AssignControl({ incident }: { incident: IncidentView }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useSession().info;
  const [picking, setPicking] = useState(false);
  const assignees = useAssignees(incident.id, picking);
  const assign = useIncidentMutation(incidentsApi.assign);

  const to = (userId: string) =>
    assign.mutate(
      { id: incident.id, userId },
      {
        onSuccess: (view) =>
          void message.success(t('incident.assigned', { name: view.assigneeName ?? '' })),
        onError: (error) => showError(message, error),
      },
    );

  return (
    <div className="incident-assign" data-testid="incident-assign">
      {incident.assigneeId !== me.id ? (
        <Button
          size="large"
          icon={<UserAddOutlined />}
          loading={assign.isPending && assign.variables?.userId === me.id}
          onClick={() => to(me.id)}
          data-testid="incident-take"
        >
          {t('incident.takeIt')}
        </Button>
      ) : null}
      <Select<string>
        size="large"
        className="incident-assign-select"
        placeholder={t('incident.assignTo')}
        aria-label={t('incident.assignTo')}
        value={null}
        onOpenChange={(open) => open && setPicking(true)}
        loading={assignees.isFetching}
        notFoundContent={
          assignees.isError
            ? t('panel.loadFailed')
            : assignees.isFetching
              ? null
              : t('incident.noAssignees')
        }
        options={(assignees.data?.list ?? [])
          .filter((a) => a.id !== incident.assigneeId)
          .map((a) => ({ value: a.id, label: `${a.name} (${a.username})` }))}
        onChange={(userId) => userId && to(userId)}
        disabled={assign.isPending}
        popupMatchSelectWidth={false}
        data-testid="incident-assign-select"
      />
    </div>
  );
}
