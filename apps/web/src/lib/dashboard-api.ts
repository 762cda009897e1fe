import { useQuery } from '@tanstack/react-query';
import type { AnalysisDashboard, WorkplaceDashboard } from '@liftlink/protocol';
import { http } from './http.ts';

export type { AnalysisDashboard, WorkplaceDashboard };

export const dashboardKeys = {
  workplace: ['dashboard', 'workplace'] as const,
  analysis: ['dashboard', 'analysis'] as const,
};

export function useWorkplaceDashboard() {
  return useQuery({
    queryKey: dashboardKeys.workplace,
    queryFn: ({ signal }) =>
      http.get<WorkplaceDashboard>('/auth/access/dashboard/workplace', undefined, { signal }),
    refetchInterval: 30_000,
  });
}

export function useAnalysisDashboard() {
  return useQuery({
    queryKey: dashboardKeys.analysis,
    queryFn: ({ signal }) =>
      http.get<AnalysisDashboard>('/auth/access/dashboard/analysis', undefined, { signal }),
    refetchInterval: 60_000,
  });
}

/** A ratio as a percentage 0..100, whether the server sends 0..1 or 0..100. */
export function percent(ratio: number): number {
  const value = ratio <= 1 ? ratio * 100 : ratio;
  return Math.round(Math.min(100, Math.max(0, value)) * 10) / 10;
}
