import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../lib/http.ts';
import type { AlertItem } from '../../../lib/live/messages.ts';

export type { AlertItem };
export type AlertState = 'open' | 'acknowledged' | 'all';
export interface NotificationItem extends AlertItem {
  read: boolean;
}

const base = '/auth/access';

export const alertKeys = {
  all: ['alerts'] as const,
  list: (query: object) => ['alerts', 'list', query] as const,
  notifications: ['alerts', 'notifications'] as const,
};

export const alertsApi = {
  list: (
    query: { page: number; pageSize: number; state?: 'open' | 'acknowledged'; liftId?: string },
    signal?: AbortSignal,
  ) =>
    http.get<{ list: AlertItem[]; total: number; open: number }>(`${base}/alerts`, query, {
      signal,
    }),
  acknowledge: (id: number) => http.post<null>(`${base}/alerts/ack`, { id }),
  notifications: (signal?: AbortSignal) =>
    http.get<{ list: NotificationItem[]; unread: number }>(`${base}/notifications`, undefined, {
      signal,
    }),
  markRead: (ids: number[]) => http.post<null>(`${base}/notifications/read`, { ids }),
};

export function useAlerts(query: {
  page: number;
  pageSize: number;
  state: AlertState;
  liftId: string | null;
}) {
  const params = {
    page: query.page,
    pageSize: query.pageSize,
    state: query.state === 'all' ? undefined : query.state,
    liftId: query.liftId ?? undefined,
  };
  return useQuery({
    queryKey: alertKeys.list(params),
    queryFn: ({ signal }) => alertsApi.list(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useNotifications() {
  return useQuery({
    queryKey: alertKeys.notifications,
    queryFn: ({ signal }) => alertsApi.notifications(signal),
    refetchInterval: 60_000,
    retry: false,
  });
}

/** A change to alerts refreshes every alert list and the bell. */
export function useAlertMutation<A>(run: (arg: A) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: alertKeys.all }),
  });
}
