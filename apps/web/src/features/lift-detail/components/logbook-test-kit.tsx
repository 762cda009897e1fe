/**
 * What the logbook and maintenance tests share: the components rendered inside the app's
 * providers, with the mocked `http` answering by path. Each test file mocks `http` itself:
 *
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()), http: { get: vi.fn(), post: vi.fn(), download: vi.fn() } }));
 */
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { InApp } from '../../../test/render.tsx';
import type { LogbookEntry } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

export const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';

type Handler = (body: Record<string, unknown>) => unknown;

/** Answers each POST / GET by its path (a missing one fails the call as unexpected). */
export function serveRoutes(routes: {
  post?: Record<string, Handler>;
  get?: Record<string, Handler>;
}) {
  vi.mocked(http.post).mockImplementation(async (url: string, body?: unknown) => {
    const handler = routes.post?.[url];
    if (!handler) throw new Error(`unexpected POST ${url}`);
    return handler(body as Record<string, unknown>);
  });
  vi.mocked(http.get).mockImplementation(async (url: string, query?: unknown) => {
    const handler = routes.get?.[url];
    if (!handler) throw new Error(`unexpected GET ${url}`);
    return handler(query as Record<string, unknown>);
  });
}

/** The bodies POSTed to one path. */
export function postedTo(url: string): Record<string, unknown>[] {
  return vi
    .mocked(http.post)
    .mock.calls.filter(([u]) => u === url)
    .map(([, body]) => body as Record<string, unknown>);
}

export const renderInApp = (element: ReactNode) => render(element, { wrapper: InApp });

let seq = 0;
/** A logbook entry as the server sends it (hashes are not checked by the client). */
export function entryOf(
  kind: LogbookEntry['kind'],
  data: Record<string, unknown>,
  extra: Partial<LogbookEntry> = {},
): LogbookEntry {
  seq += 1;
  return {
    seq,
    ts: new Date(Date.UTC(2026, 10, 24, 10, 0, seq)).toISOString(),
    kind,
    actorId: '11111111-1111-4111-8111-111111111111',
    actorName: 'olga',
    data,
    prevHash: '0'.repeat(64),
    hash: 'a'.repeat(64),
    ...extra,
  };
}
