import type { LiftPage } from '@liftlink/protocol';
import { http } from './http.ts';

/** Query keys of the lifts the user may see; the fleet list, the lift page and pickers share them. */
export const liftKeys = {
  all: ['lifts'] as const,
  list: (query: object) => ['lifts', 'list', query] as const,
  lists: ['lifts', 'list'] as const,
  info: (liftId: string) => ['lifts', 'info', liftId] as const,
  search: (keyword: string) => ['lifts', 'search', keyword] as const,
};

/** A small search for pickers (operation log, alerts): first 20 matches. */
export function searchLifts(keyword: string, signal?: AbortSignal): Promise<LiftPage> {
  return http.get<LiftPage>(
    '/auth/access/lift/get',
    { keyword: keyword.trim() || undefined, pageSize: 20 },
    { signal },
  );
}
