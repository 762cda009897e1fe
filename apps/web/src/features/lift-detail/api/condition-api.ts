import { useQuery } from '@tanstack/react-query';
import { CONDITION_JOB_MINUTES, type ConditionLift } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/** The lift's condition score, its factors and 30-day history (docs/condition.md). */
export const liftConditionKey = (liftId: string) => ['lifts', 'condition', liftId] as const;

export const liftConditionApi = {
  get: (liftId: string, signal?: AbortSignal) =>
    http.get<ConditionLift>('/auth/access/lift/condition', { liftId }, { signal }),
};

export function useLiftCondition(liftId: string) {
  return useQuery({
    queryKey: liftConditionKey(liftId),
    queryFn: ({ signal }) => liftConditionApi.get(liftId, signal),
    refetchInterval: CONDITION_JOB_MINUTES * 60_000,
  });
}
