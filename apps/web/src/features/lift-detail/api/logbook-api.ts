import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type {
  LogbookEntry,
  LogbookKind,
  LogbookPageRequest,
  LogbookVerifyResult,
} from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

// The answers' shapes are the protocol's (docs/logbook.md).
export type { LogbookEntry, LogbookKind, LogbookVerifyResult };

const base = '/auth/access/lift/logbook';

export const LOGBOOK_EXPORT_PATH = `${base}/export`;

/** What the panel filters by: some kinds (none: all) and a time range, either end open. */
export interface LogbookFilter {
  kinds: LogbookKind[];
  from: string | null;
  to: string | null;
}

export const EMPTY_LOGBOOK_FILTER: LogbookFilter = { kinds: [], from: null, to: null };

/** The filter as the request's fields: unset parts left out (the server reads them as "all"). */
export function logbookFilterBody(liftId: string, filter: LogbookFilter) {
  return {
    liftId,
    ...(filter.kinds.length ? { kinds: filter.kinds } : {}),
    ...(filter.from ? { from: filter.from } : {}),
    ...(filter.to ? { to: filter.to } : {}),
  };
}

/** The browser's time zone (the PDF's times are written in it), null when it has none to tell. */
export function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

/** The PDF export's request: the filter, the format and the zone its times are written in. */
export function logbookPdfBody(liftId: string, filter: LogbookFilter) {
  const timeZone = browserTimeZone();
  return {
    ...logbookFilterBody(liftId, filter),
    format: 'pdf' as const,
    ...(timeZone ? { timeZone } : {}),
  };
}

export const logbookKeys = {
  all: (liftId: string) => ['lifts', 'logbook', liftId] as const,
};

export const logbookApi = {
  page: (body: LogbookPageRequest, signal?: AbortSignal) =>
    http.post<{ list: LogbookEntry[]; total: number }>(`${base}/page`, body, { signal }),
  verify: (liftId: string) => http.post<LogbookVerifyResult>(`${base}/verify`, { liftId }),
};

/** One page of the logbook, newest first; the previous page stays on screen while the next loads. */
export function useLogbookPage(
  liftId: string,
  filter: LogbookFilter,
  page: number,
  pageSize: number,
) {
  const body = { ...logbookFilterBody(liftId, filter), page, pageSize };
  return useQuery({
    queryKey: [...logbookKeys.all(liftId), body],
    queryFn: ({ signal }) => logbookApi.page(body, signal),
    placeholderData: keepPreviousData,
  });
}

/** Checks the lift's whole chain on the server (audited there). */
export function useLogbookVerify(liftId: string) {
  return useMutation({ mutationFn: () => logbookApi.verify(liftId) });
}
