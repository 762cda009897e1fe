import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AvailabilityQuery, AvailabilityReport } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export type { AvailabilityQuery, AvailabilityReport };

export const availabilityKeys = {
  all: ['dashboard', 'availability'] as const,
  report: (query: AvailabilityQuery) => ['dashboard', 'availability', query] as const,
};

export const availabilityApi = {
  report: (query: AvailabilityQuery, signal?: AbortSignal) =>
    http.get<AvailabilityReport>('/auth/access/dashboard/availability', { ...query }, { signal }),
};

/** The availability report of one level and month range; the figures of this month run on, so it is read again every 5 minutes. */
export function useAvailability(query: AvailabilityQuery) {
  return useQuery({
    queryKey: availabilityKeys.report(query),
    queryFn: ({ signal }) => availabilityApi.report(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 5 * 60_000,
  });
}
