import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MaintenanceWindow } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export type { MaintenanceWindow };

/** Maintenance windows (docs/service.md): while one runs, the lift raises no alerts. */
const base = '/auth/access/lift/maintenance-windows';

export const maintenanceKeys = {
  current: (liftId: string) => ['lifts', 'maintenance', liftId] as const,
};

export const maintenanceApi = {
  /** The lift's windows that have not ended: running or still to come. */
  current: (liftId: string, signal?: AbortSignal) =>
    http.get<{ list: MaintenanceWindow[] }>(base, { liftId, current: 'true' }, { signal }),
  declare: (body: { liftIds: string[]; startsAt?: string; endsAt: string; reason: string }) =>
    http.post<MaintenanceWindow>(`${base}/declare`, body),
  end: (id: number) => http.post<MaintenanceWindow>(`${base}/end`, { id }),
};

/**
 * The lift's running and planned windows; read again each minute, so a window someone
 * else declared shows up without a reload.
 */
export function useCurrentWindows(liftId: string, enabled: boolean) {
  return useQuery({
    queryKey: maintenanceKeys.current(liftId),
    queryFn: ({ signal }) => maintenanceApi.current(liftId, signal),
    refetchInterval: 60_000,
    enabled,
  });
}

function useRefreshWindows(liftId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: maintenanceKeys.current(liftId) });
}

export function useDeclareWindow(liftId: string) {
  const refresh = useRefreshWindows(liftId);
  return useMutation({
    mutationFn: (body: { startsAt?: string; endsAt: string; reason: string }) =>
      maintenanceApi.declare({ liftIds: [liftId], ...body }),
    onSuccess: refresh,
  });
}

/** Ends a running window now, or calls off a planned one. */
export function useEndWindow(liftId: string) {
  const refresh = useRefreshWindows(liftId);
  return useMutation({ mutationFn: (id: number) => maintenanceApi.end(id), onSuccess: refresh });
}
