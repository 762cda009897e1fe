import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './http.ts';

/** Retries only what may pass on a second try: network trouble and 5xx, never 4xx. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, refetchOnWindowFocus: false, staleTime: 0 },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();
