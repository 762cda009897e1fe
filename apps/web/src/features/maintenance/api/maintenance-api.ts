import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChecklistItem,
  DeviceKind,
  IncidentView,
  LiftInfo,
  MaintenanceDueLift,
  MaintenanceLift,
  MaintenanceTemplate,
  MaintenanceVisit,
  MaintenanceVisitRecordInput,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';
import { liftKeys } from '../../../lib/lifts.ts';

export type { MaintenanceDueLift, MaintenanceLift, MaintenanceTemplate, MaintenanceVisit };

/** Maintenance plans, checklists and visits (packages/protocol/src/api/maintenance.ts). */
export const MAINTENANCE_BASE = '/auth/access/lift/maintenance';
const base = MAINTENANCE_BASE;

export const maintenanceKeys = {
  all: ['maintenance'] as const,
  lift: (liftId: string) => ['maintenance', 'lift', liftId] as const,
  visits: (liftId: string, page: number, pageSize: number) =>
    ['maintenance', 'visits', liftId, page, pageSize] as const,
  due: ['maintenance', 'due'] as const,
  templates: (orgId: string | undefined) => ['maintenance', 'templates', orgId ?? ''] as const,
  orgs: ['maintenance', 'orgs'] as const,
  openIncidents: (liftId: string) => ['incidents', 'list', { liftId, open: true }] as const,
};

export interface VisitPage {
  list: MaintenanceVisit[];
  total: number;
}

export const maintenanceApi = {
  lift: (liftId: string, signal?: AbortSignal) =>
    http.get<MaintenanceLift>(base, { liftId }, { signal }),
  /** The lift's name, kind and what the user may do with it (shared with the lift page's cache). */
  liftInfo: (liftId: string, signal?: AbortSignal) =>
    http.post<LiftInfo>('/auth/access/lift/getInfo', { liftId }, { signal }),
  visits: (liftId: string, page: number, pageSize: number, signal?: AbortSignal) =>
    http.get<VisitPage>(`${base}/visits`, { liftId, page, pageSize }, { signal }),
  record: (body: MaintenanceVisitRecordInput) =>
    http.post<MaintenanceVisit>(`${base}/visits/record`, body),
  setPlan: (body: { liftId: string; intervalDays: number | null; intervalTrips: number | null }) =>
    http.post<MaintenanceLift>(`${base}/plan/set`, body),
  deletePlan: (liftId: string) => http.post<MaintenanceLift>(`${base}/plan/delete`, { liftId }),
  due: (signal?: AbortSignal) =>
    http.get<{ list: MaintenanceDueLift[] }>(`${base}/due`, undefined, { signal }),
  /** Every kind's checklist of the caller's organization, or of `orgId` (a scope of `all`). */
  templates: (orgId: string | undefined, signal?: AbortSignal) =>
    http.get<{ list: MaintenanceTemplate[] }>(`${base}/templates`, { orgId }, { signal }),
  setTemplate: (body: { orgId?: string; kind: DeviceKind; items: ChecklistItem[] }) =>
    http.post<MaintenanceTemplate>(`${base}/templates/set`, body),
  resetTemplate: (body: { orgId?: string; kind: DeviceKind }) =>
    http.post<MaintenanceTemplate>(`${base}/templates/reset`, body),
  /** The organizations an administrator picks the checklists of. */
  orgs: (signal?: AbortSignal) =>
    http.get<{ list: { id: string; name: string }[] }>('/auth/access/system/orgs', undefined, {
      signal,
    }),
  /** The lift's incidents still being worked on: those a visit may resolve. */
  openIncidents: (liftId: string, signal?: AbortSignal) =>
    http.get<{ list: IncidentView[]; total: number }>(
      '/auth/access/incidents',
      { liftId, state: 'active', page: 1, pageSize: 50 },
      { signal },
    ),
};

/** Plan, due state, checklist and last visits of one lift. */
export function useMaintenanceLift(liftId: string) {
  return useQuery({
    queryKey: maintenanceKeys.lift(liftId),
    queryFn: ({ signal }) => maintenanceApi.lift(liftId, signal),
    enabled: liftId !== '',
  });
}

export function useLiftSummary(liftId: string) {
  return useQuery({
    queryKey: liftKeys.info(liftId),
    queryFn: ({ signal }) => maintenanceApi.liftInfo(liftId, signal),
    enabled: liftId !== '',
  });
}

export function useVisits(liftId: string, page: number, pageSize: number) {
  return useQuery({
    queryKey: maintenanceKeys.visits(liftId, page, pageSize),
    queryFn: ({ signal }) => maintenanceApi.visits(liftId, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}

export function useOpenIncidents(liftId: string, enabled: boolean) {
  return useQuery({
    queryKey: maintenanceKeys.openIncidents(liftId),
    queryFn: ({ signal }) => maintenanceApi.openIncidents(liftId, signal),
    enabled: enabled && liftId !== '',
  });
}

/** Overdue and due-soon lifts in the user's reach (overdue first); read again every 5 minutes. */
export function useDueList(enabled = true) {
  return useQuery({
    queryKey: maintenanceKeys.due,
    queryFn: ({ signal }) => maintenanceApi.due(signal),
    refetchInterval: 300_000,
    enabled,
  });
}

export function useTemplates(orgId: string | undefined, enabled = true) {
  return useQuery({
    queryKey: maintenanceKeys.templates(orgId),
    queryFn: ({ signal }) => maintenanceApi.templates(orgId, signal),
    enabled,
  });
}

export function useOrgs(enabled: boolean) {
  return useQuery({
    queryKey: maintenanceKeys.orgs,
    queryFn: ({ signal }) => maintenanceApi.orgs(signal),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * Records a visit. The answer is the stored visit; the lift's due state, the due list and the
 * incidents it closed are read again.
 */
export function useRecordVisit() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: maintenanceApi.record,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: maintenanceKeys.all }),
        client.invalidateQueries({ queryKey: ['incidents'] }),
      ]),
  });
}

/** Sets or removes a lift's plan; the answer is the lift's maintenance as it is now. */
export function usePlanMutation<A>(liftId: string, run: (arg: A) => Promise<MaintenanceLift>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (lift) => {
      client.setQueryData(maintenanceKeys.lift(liftId), lift);
      return client.invalidateQueries({ queryKey: maintenanceKeys.due });
    },
  });
}

export function useTemplateMutation<A>(run: (arg: A) => Promise<MaintenanceTemplate>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: maintenanceKeys.all }),
  });
}
