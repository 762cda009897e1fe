import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IncidentNotification } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/**
 * The user's incident notifications (docs/service.md, "Escalation"): asked to acknowledge an
 * incident, or told who took it. The bell shows them beside the alert notifications.
 */
const base = '/auth/access/notifications/incidents';

export const incidentNotificationKeys = { all: ['alerts', 'notifications', 'incidents'] as const };

export const incidentNotificationsApi = {
  list: (signal?: AbortSignal) =>
    http.get<{ list: IncidentNotification[]; unread: number }>(base, undefined, { signal }),
  markRead: (ids: number[]) => http.post<null>(`${base}/read`, { ids }),
};

export function useIncidentNotifications() {
  return useQuery({
    queryKey: incidentNotificationKeys.all,
    queryFn: ({ signal }) => incidentNotificationsApi.list(signal),
    refetchInterval: 60_000,
    retry: false,
  });
}

export function useMarkIncidentNotificationsRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: incidentNotificationsApi.markRead,
    onSuccess: () => client.invalidateQueries({ queryKey: incidentNotificationKeys.all }),
  });
}
