import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { CONDITION_JOB_MINUTES, type ConditionListItem } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export type { ConditionListItem };

/** The lifts whose condition score is low or falling (docs/condition.md). */
export const conditionKeys = {
  list: (page: number, pageSize: number) => ['condition', 'list', page, pageSize] as const,
};

export const conditionApi = {
  list: (page: number, pageSize: number, signal?: AbortSignal) =>
    http.get<{ list: ConditionListItem[]; total: number }>(
      '/auth/access/dashboard/condition',
      { page, pageSize },
      { signal },
    ),
};

/** A page of the list, read again as often as the server recomputes the scores. */
export function useConditionList(page: number, pageSize: number) {
  return useQuery({
    queryKey: conditionKeys.list(page, pageSize),
    queryFn: ({ signal }) => conditionApi.list(page, pageSize, signal),
    placeholderData: keepPreviousData,
    refetchInterval: CONDITION_JOB_MINUTES * 60_000,
  });
}
