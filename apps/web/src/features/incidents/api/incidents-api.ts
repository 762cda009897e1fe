import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  IncidentDetail,
  IncidentPriority,
  IncidentState,
  IncidentView,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

const base = '/auth/access/incidents';

/** Which incidents the list shows: those still worked on, every one, or the closed ones. */
export type IncidentFilter = 'active' | 'all' | 'closed';

export interface IncidentListQuery {
  page: number;
  pageSize: number;
  filter: IncidentFilter;
  /** Only those assigned to this user (the "assigned to me" switch). */
  assigneeId: string | null;
  /** Only this lift's (the lift page's link). */
  liftId?: string | null;
}

export interface IncidentPage {
  list: IncidentView[];
  total: number;
}

export interface Assignee {
  id: string;
  name: string;
  username: string;
}

export interface ResolutionInput {
  rootCause: string;
  resolutionText?: string;
  partsUsed?: string[];
}

export const incidentKeys = {
  all: ['incidents'] as const,
  lists: ['incidents', 'list'] as const,
  list: (query: object) => ['incidents', 'list', query] as const,
  detail: (id: number) => ['incidents', 'detail', id] as const,
  assignees: (id: number) => ['incidents', 'assignees', id] as const,
};

export const incidentsApi = {
  list: (query: IncidentListQuery, signal?: AbortSignal) =>
    http.get<IncidentPage>(
      base,
      {
        page: query.page,
        pageSize: query.pageSize,
        state: query.filter === 'all' ? undefined : query.filter,
        assigneeId: query.assigneeId ?? undefined,
        liftId: query.liftId ?? undefined,
      },
      { signal },
    ),
  get: (id: number, signal?: AbortSignal) =>
    http.get<IncidentDetail>(`${base}/get`, { id }, { signal }),
  assignees: (id: number, signal?: AbortSignal) =>
    http.get<{ list: Assignee[] }>(`${base}/assignees`, { id }, { signal }),
  create: (body: { liftId: string; title: string; priority?: IncidentPriority }) =>
    http.post<IncidentView>(`${base}/create`, body),
  transition: (body: { id: number; to: IncidentState; note?: string } & Partial<ResolutionInput>) =>
    http.post<IncidentView>(`${base}/transition`, body),
  assign: (body: { id: number; userId: string }) => http.post<IncidentView>(`${base}/assign`, body),
  addNote: (body: { id: number; text: string }) =>
    http.post<IncidentView>(`${base}/notes/add`, body),
};

export function useIncidents(query: IncidentListQuery) {
  return useQuery({
    queryKey: incidentKeys.list(query),
    queryFn: ({ signal }) => incidentsApi.list(query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useIncident(id: number) {
  return useQuery({
    queryKey: incidentKeys.detail(id),
    queryFn: ({ signal }) => incidentsApi.get(id, signal),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

/** Who may be assigned; asked for only when the picker opens (one more call on a slow network). */
export function useAssignees(id: number, enabled: boolean) {
  return useQuery({
    queryKey: incidentKeys.assignees(id),
    queryFn: ({ signal }) => incidentsApi.assignees(id, signal),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * A change to an incident: the answer (the incident as it is now) goes into the caches at
 * once, then the detail (steps, notes) and the lists are fetched again.
 */
export function useIncidentMutation<A>(run: (arg: A) => Promise<IncidentView>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (incident) => {
      patchIncident(client, incident);
      return client.invalidateQueries({ queryKey: incidentKeys.all });
    },
  });
}

/** Puts the newest view of an incident into every cached list and its detail. */
export function patchIncident(
  client: ReturnType<typeof useQueryClient>,
  incident: IncidentView,
): void {
  client.setQueriesData<IncidentPage>({ queryKey: incidentKeys.lists }, (page) =>
    page ? { ...page, list: page.list.map((i) => (i.id === incident.id ? incident : i)) } : page,
  );
  client.setQueryData<IncidentDetail>(incidentKeys.detail(incident.id), (detail) =>
    detail ? { ...detail, incident } : detail,
  );
}
