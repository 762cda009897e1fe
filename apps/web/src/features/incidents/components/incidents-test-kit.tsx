/**
 * What the incidents tests share: a fake server behind the mocked `http` (answers by path),
 * incidents as the server sends them, and a page rendered for a signed-in user at a path.
 * Each test file mocks the modules itself:
 *
 *   vi.mock('../../../lib/live/use-live.ts', async () => (await import('./incidents-test-live.ts')).liveMock);
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()), http: { get: vi.fn(), post: vi.fn() } }));
 */
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import {
  INCIDENT_TRANSITIONS,
  type BUILT_IN_ROLES,
  type IncidentDetail,
  type IncidentView,
} from '@liftlink/protocol';
import { permissionsOf } from '../../../lib/access.tsx';
import { http } from '../../../lib/http.ts';
import { changeLanguage, withTexts } from '../../../lib/i18n/language.ts';
import { InApp, userInfo } from '../../../test/render.tsx';

export const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
export const TECH_ID = '77777777-7777-4777-8777-777777777777';

/** English texts, with the bundles the incidents pages load with them. */
export async function englishTexts(): Promise<void> {
  await changeLanguage('en-US');
  await withTexts(['lifts', 'incidents'], async () => undefined)();
}

export function incidentOf(extra: Partial<IncidentView> = {}): IncidentView {
  return {
    id: 7,
    liftId: LIFT,
    deviceNo: 'LL-0007',
    alias: 'Station B',
    liftKind: 'inclinedStraightRack',
    cause: 'fault',
    code: 'EC',
    title: null,
    priority: 'high',
    state: 'open',
    assigneeId: null,
    assigneeName: null,
    openedAt: new Date(Date.now() - 15 * 60_000).toISOString(),
    openedById: null,
    openedByName: null,
    repeats: 0,
    lastRepeatAt: null,
    stateChangedAt: new Date().toISOString(),
    endedAt: null,
    rootCause: null,
    resolutionText: null,
    partsUsed: [],
    ...extra,
  };
}

export function detailOf(
  incident: IncidentView,
  extra: Partial<IncidentDetail> = {},
): IncidentDetail {
  return {
    incident,
    steps: [
      {
        id: 1,
        from: null,
        to: 'open',
        actorId: null,
        actorName: null,
        at: incident.openedAt,
        note: null,
        assigneeName: null,
      },
    ],
    notes: [],
    events: [{ id: 11, ts: incident.openedAt, code: 'EC', text: 'server text', fault: true }],
    next: [...INCIDENT_TRANSITIONS[incident.state]],
    rootCauses: [],
    ...extra,
  };
}

type Handler = (body: Record<string, unknown>) => unknown;
const base = '/auth/access/incidents';

/** The server for one test: GET answers by path (query given), POST handlers by route. */
export function serve(server: {
  get?: Record<string, (query: Record<string, unknown>) => unknown>;
  post?: Record<string, Handler>;
}): void {
  vi.mocked(http.get).mockImplementation(async (url: string, query?: unknown) => {
    const route = url === base ? '' : url.replace(`${base}/`, '');
    const handler = server.get?.[route];
    if (handler) return handler((query ?? {}) as Record<string, unknown>);
    return { list: [], total: 0 };
  });
  vi.mocked(http.post).mockImplementation(async (url: string, body?: unknown) => {
    const handler = server.post?.[url.replace(`${base}/`, '')];
    if (!handler) throw new Error(`unexpected POST ${url}`);
    return handler(body as Record<string, unknown>);
  });
}

/** The POST bodies sent to one route. */
export function postsTo(route: string): Record<string, unknown>[] {
  return vi
    .mocked(http.post)
    .mock.calls.filter(([url]) => url === `${base}/${route}`)
    .map(([, body]) => body as Record<string, unknown>);
}

/** The queries of the list calls. */
export function listQueries(): Record<string, unknown>[] {
  return vi
    .mocked(http.get)
    .mock.calls.filter(([url]) => url === base)
    .map(([, query]) => query as Record<string, unknown>);
}

/** A page at `path` (the other incidents route shows a stand-in) for a user of a built-in role. */
export function renderPage(
  page: ReactElement,
  { path, role = 'technician' }: { path: string; role?: keyof typeof BUILT_IN_ROLES },
) {
  const info = userInfo(role, { id: TECH_ID, name: 'Tom' });
  const onList = path.split('?')[0] === '/lift/incidents';
  const router = createMemoryRouter(
    [
      { path: '/lift/incidents', element: onList ? page : <div data-testid="stand-in-list" /> },
      {
        path: '/lift/incidents/:incidentId',
        element: onList ? <div data-testid="stand-in-detail" /> : page,
      },
      { path: '/lift/:liftId', element: <div data-testid="stand-in-lift" /> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <InApp session={{ info, permissions: permissionsOf(info), routes: info.routes }}>
      <RouterProvider router={router} />
    </InApp>,
  );
  return { ...result, router };
}
