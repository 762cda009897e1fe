import type { RunLogEntry } from '@liftlink/protocol';

export interface RunLogFilter {
  /** ISO times, inclusive; null is open-ended. */
  from: string | null;
  to: string | null;
  eventClass: 'state' | 'fault' | null;
  codes: string[];
}

export const EMPTY_FILTER: RunLogFilter = { from: null, to: null, eventClass: null, codes: [] };

/** The query string of the run-log endpoints (page and export). */
export function runLogParams(
  liftId: string,
  filter: RunLogFilter,
  page: number,
  pageSize: number,
  lang: string,
) {
  return {
    liftId,
    page,
    pageSize,
    from: filter.from ?? undefined,
    to: filter.to ?? undefined,
    class: filter.eventClass ?? undefined,
    codes: filter.codes.length > 0 ? filter.codes.join(',') : undefined,
    lang,
  };
}

/** Whether a live entry belongs on the page the filter shows. */
export function matchesFilter(
  entry: Pick<RunLogEntry, 'ts' | 'code' | 'fault'>,
  filter: RunLogFilter,
): boolean {
  if (filter.eventClass === 'fault' && !entry.fault) return false;
  if (filter.eventClass === 'state' && entry.fault) return false;
  if (filter.codes.length > 0 && !filter.codes.includes(entry.code)) return false;
  const ts = Date.parse(entry.ts);
  if (filter.from && ts < Date.parse(filter.from)) return false;
  if (filter.to && ts > Date.parse(filter.to)) return false;
  return true;
}

/** Newest first, as the server orders them: by time, then by id. */
function newestFirst(a: RunLogEntry, b: RunLogEntry): number {
  return Date.parse(b.ts) - Date.parse(a.ts) || b.id - a.id;
}

/**
 * Puts live entries on the first page: no duplicates (a replay after a reconnect repeats
 * entries), newest first, at most one page. Returns how many were new.
 */
export function mergeLiveEntries(
  page: readonly RunLogEntry[],
  incoming: readonly RunLogEntry[],
  pageSize: number,
): { list: RunLogEntry[]; added: number } {
  const known = new Set(page.map((e) => e.id));
  const fresh = incoming.filter(
    (e, i) => !known.has(e.id) && incoming.findIndex((o) => o.id === e.id) === i,
  );
  if (fresh.length === 0) return { list: [...page], added: 0 };
  return { list: [...fresh, ...page].sort(newestFirst).slice(0, pageSize), added: fresh.length };
}

/** The entries as a tab-separated text (the "save as text file" action). */
export function runLogText(
  entries: readonly RunLogEntry[],
  headers: { time: string; code: string; meaning: string; floor: string },
  textOf: (code: string, reason: RunLogEntry['reason']) => string,
  timeOf: (ts: string) => string,
): string {
  const lines = [[headers.time, headers.code, headers.meaning, headers.floor].join('\t')];
  for (const e of entries)
    lines.push([timeOf(e.ts), e.code, textOf(e.code, e.reason), e.floor ?? ''].join('\t'));
  return lines.join('\r\n') + '\r\n';
}
