import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  WebhookCreateRequest,
  WebhookDelivery,
  WebhookUpdateRequest,
  WebhookView,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

const base = '/auth/access/webhooks';
type WithSecret = { webhook: WebhookView; secret: string };

/** The caller's organization's webhooks (docs/webhooks.md); create and rotate answer the secret once. */
export const webhooksApi = {
  list: (signal?: AbortSignal) => http.get<{ list: WebhookView[] }>(base, undefined, { signal }),
  create: (body: WebhookCreateRequest) =>
    http.post<WithSecret>(`${base}/create`, body, { quiet: true }),
  update: (body: WebhookUpdateRequest) => http.post<WebhookView>(`${base}/update`, body),
  remove: (id: string) => http.post<null>(`${base}/delete`, { id }),
  rotate: (id: string) => http.post<WithSecret>(`${base}/rotate-secret`, { id }),
  test: (id: string) => http.post<WebhookDelivery>(`${base}/test`, { id }),
  deliveries: (id: string, page: number, signal?: AbortSignal) =>
    http.get<{ list: WebhookDelivery[]; total: number }>(
      `${base}/deliveries`,
      { id, page, pageSize: 20 },
      { signal },
    ),
};

const LIST_KEY = ['webhooks'] as const;

export function useWebhooks() {
  return useQuery({ queryKey: LIST_KEY, queryFn: ({ signal }) => webhooksApi.list(signal) });
}

export function useWebhookDeliveries(id: string | null, page: number) {
  return useQuery({
    queryKey: ['webhooks', id, 'deliveries', page],
    queryFn: ({ signal }) => webhooksApi.deliveries(id!, page, signal),
    enabled: id !== null,
  });
}

/** A change to the endpoints reloads the list (and the log a test wrote to). */
function useWebhookMutation<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: LIST_KEY }),
  });
}

export const useCreateWebhook = () => useWebhookMutation(webhooksApi.create);
export const useUpdateWebhook = () => useWebhookMutation(webhooksApi.update);
export const useDeleteWebhook = () => useWebhookMutation(webhooksApi.remove);
export const useRotateWebhookSecret = () => useWebhookMutation(webhooksApi.rotate);
export const useTestWebhook = () => useWebhookMutation(webhooksApi.test);
