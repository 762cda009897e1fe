import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

/**
 * What a page is about (a lift's alias, else its device number), by path. The layout puts
 * it into the page's tab and window title, so "Lift details · Staircase B" names the lift
 * instead of a fragment of its id. Pages report their subject; the layout only reads, so
 * the layout knows nothing of any feature. Kept for the browser tab's lifetime so tabs
 * restored after a reload keep their names.
 */
const STORAGE_KEY = 'liftlink.pageSubjects';
const MAX_ENTRIES = 200;

function load(): Map<string, string> {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(parsed)) return new Map();
    return new Map(
      parsed.filter(
        (e): e is [string, string] =>
          Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string',
      ),
    );
  } catch {
    return new Map();
  }
}

let subjects: Map<string, string> | null = null;
const listeners = new Set<() => void>();

function current(): Map<string, string> {
  subjects ??= load();
  return subjects;
}

export function setPageSubject(pathname: string, subject: string | undefined): void {
  const map = current();
  const name = subject?.trim();
  if ((name || undefined) === map.get(pathname)) return;
  const next = new Map(map);
  if (name) next.set(pathname, name);
  else next.delete(pathname);
  while (next.size > MAX_ENTRIES) next.delete(next.keys().next().value!);
  subjects = next;
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify([...next]));
  } catch {
    // Storage full or denied: the names still show for this page's lifetime.
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** All subjects by path, re-rendering the caller when one changes. */
export function usePageSubjects(): ReadonlyMap<string, string> {
  return useSyncExternalStore(subscribe, current);
}

/** Names the current page (undefined while its data loads: the title stays generic). */
export function usePageSubject(subject: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (subject) setPageSubject(pathname, subject);
  }, [pathname, subject]);
}
