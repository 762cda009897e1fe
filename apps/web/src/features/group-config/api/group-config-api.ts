import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  GroupConfigList,
  GroupConfigOptions,
  GroupConfigPreview,
  GroupConfigPreviewRequest,
  GroupConfigSend,
  GroupConfigSendRequest,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/** Group configuration (packages/protocol/src/api/group-config.ts). */
export const GROUP_CONFIG_BASE = '/auth/access/lift/group-config';
const base = GROUP_CONFIG_BASE;

export const groupConfigKeys = {
  all: ['groupConfig'] as const,
  options: ['groupConfig', 'options'] as const,
  list: ['groupConfig', 'list'] as const,
  send: (id: string) => ['groupConfig', 'send', id] as const,
};

export const groupConfigApi = {
  options: (signal?: AbortSignal) =>
    http.get<GroupConfigOptions>(`${base}/options`, undefined, { signal }),
  preview: (body: GroupConfigPreviewRequest) =>
    http.post<GroupConfigPreview>(`${base}/preview`, body),
  send: (body: GroupConfigSendRequest) => http.post<GroupConfigSend>(`${base}/send`, body),
  get: (id: string, signal?: AbortSignal) =>
    http.get<GroupConfigSend>(`${base}/get`, { id }, { signal }),
  list: (signal?: AbortSignal) => http.get<GroupConfigList>(`${base}/list`, undefined, { signal }),
};

export function useGroupOptions() {
  return useQuery({
    queryKey: groupConfigKeys.options,
    queryFn: ({ signal }) => groupConfigApi.options(signal),
  });
}

export function usePreview() {
  return useMutation({ mutationFn: groupConfigApi.preview });
}

export function useSendGroup() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: groupConfigApi.send,
    onSuccess: (send) => {
      client.setQueryData(groupConfigKeys.send(send.id), send);
      void client.invalidateQueries({ queryKey: groupConfigKeys.list });
    },
  });
}

/** How often an unfinished send is read again, in case a live message was missed (a reconnect). */
const UNFINISHED_REFRESH_MS = 5_000;

export function useGroupSend(id: string | null, finished: (send: GroupConfigSend) => boolean) {
  return useQuery({
    queryKey: groupConfigKeys.send(id ?? ''),
    queryFn: ({ signal }) => groupConfigApi.get(id!, signal),
    enabled: id !== null,
    refetchInterval: (query) =>
      query.state.data && !finished(query.state.data) ? UNFINISHED_REFRESH_MS : false,
  });
}

export function useRecentSends() {
  return useQuery({
    queryKey: groupConfigKeys.list,
    queryFn: ({ signal }) => groupConfigApi.list(signal),
  });
}
