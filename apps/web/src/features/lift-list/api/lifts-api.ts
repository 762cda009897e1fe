import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeviceKind, LiftListItem, LiftLocation, LiftPage, LiftSortKey } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { liftKeys } from '../../../lib/lifts.ts';

export type { LiftPage, LiftSortKey };
export type LiftStateFilter = 'online' | 'offline' | 'fault';

/** What the list asks the server for; everything is filtered, sorted and paged there. */
export interface LiftListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  kind: DeviceKind | null;
  state: LiftStateFilter | null;
  sort: LiftSortKey;
  order: 'asc' | 'desc';
}

export const INITIAL_LIFT_QUERY: LiftListQuery = {
  page: 1,
  pageSize: 20,
  keyword: '',
  kind: null,
  state: null,
  sort: 'deviceNo',
  order: 'asc',
};

/** The query string of `GET /auth/access/lift/get` for a list query. */
export function listParams(query: LiftListQuery) {
  return {
    page: query.page,
    pageSize: query.pageSize,
    keyword: query.keyword.trim() || undefined,
    kind: query.kind ?? undefined,
    online: query.state === 'online' ? 'true' : query.state === 'offline' ? 'false' : undefined,
    fault: query.state === 'fault' ? 'true' : undefined,
    sort: query.sort,
    order: query.order,
  };
}

export const liftsApi = {
  list: (query: LiftListQuery, signal?: AbortSignal) =>
    http.get<LiftPage>('/auth/access/lift/get', listParams(query), { signal }),
  updateAlias: (body: { liftId: string; alias: string }) =>
    http.post<null>('/auth/access/lift/alias/update', body),
  updateLocation: (body: { liftId: string; location: LiftLocation }) =>
    http.post<null>('/auth/access/lift/setting/update', body),
};

export function useLiftPage(query: LiftListQuery) {
  return useQuery({
    queryKey: liftKeys.list(query),
    queryFn: ({ signal }) => liftsApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
}

/** A lift edit that refreshes every cached list and the lift's own page afterwards. */
export function useLiftEdit<B extends { liftId: string }>(save: (body: B) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (_result, body) =>
      Promise.all([
        client.invalidateQueries({ queryKey: liftKeys.lists }),
        client.invalidateQueries({ queryKey: liftKeys.info(body.liftId) }),
      ]),
  });
}

/** Applies changes to the cached pages of the list without a refetch (live updates). */
export function patchCachedLifts(
  client: ReturnType<typeof useQueryClient>,
  patches: ReadonlyMap<string, Partial<LiftListItem>>,
): void {
  if (patches.size === 0) return;
  client.setQueriesData<LiftPage>({ queryKey: liftKeys.lists }, (page) => {
    if (!page) return page;
    let changed = false;
    const list = page.list.map((item) => {
      const patch = patches.get(item.id);
      if (!patch) return item;
      const next = { ...item, ...patch };
      if ((Object.keys(patch) as (keyof LiftListItem)[]).every((k) => next[k] === item[k]))
        return item;
      changed = true;
      return next;
    });
    return changed ? { ...page, list } : page;
  });
}
