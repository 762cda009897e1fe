/**
 * What the maintenance tests share: a fake server behind the mocked `http` (answers by path),
 * a lift's maintenance as the server sends it, and a page rendered for a signed-in user.
 * Each test file mocks `http` itself:
 *
 *   vi.mock('../../../lib/http.ts', async (importOriginal) => ({
 *     ...(await importOriginal<typeof HttpModule>()), http: { get: vi.fn(), post: vi.fn() } }));
 */
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type {
  BUILT_IN_ROLES,
  ChecklistItemView,
  IncidentView,
  LiftInfo,
  MaintenanceLift,
  MaintenanceVisit,
  PermissionCheck,
} from '@liftlink/protocol';
import { permissionsOf } from '../../../lib/access.tsx';
import { http } from '../../../lib/http.ts';
import { changeLanguage, withTexts } from '../../../lib/i18n/language.ts';
import { InApp, userInfo } from '../../../test/render.tsx';

export const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
export const BASE = '/auth/access/lift/maintenance';

/** English texts, with the bundles the maintenance pages load with them. */
export async function englishTexts(): Promise<void> {
  await changeLanguage('en-US');
  await withTexts(['lifts', 'incidents', 'maintenance'], async () => undefined)();
}

export const BRAKE: ChecklistItemView = {
  id: 'brake',
  labelText: { 'zh-CN': '制动器动作与磨损', 'en-US': 'Brake action and wear', 'ru-RU': 'Тормоз' },
  label: 'Brake action and wear',
  type: 'passFail',
  unit: null,
  min: null,
  max: null,
};
export const BATTERY: ChecklistItemView = {
  id: 'batteryVoltage',
  labelText: 'Battery rest voltage',
  label: 'Battery rest voltage',
  type: 'measured',
  unit: 'V',
  min: 24,
  max: 28.8,
};

/** A lift's access as the server sends it with the lift: what this role may do there. */
export function liftInfoOf(allowed: PermissionCheck[]): LiftInfo {
  return {
    lift: {
      id: LIFT,
      deviceNo: 'LL-0007',
      alias: 'Station B',
      kind: 'inclinedStraightRack',
      access: { allowed },
    },
    stats: { onlineMsTotal: 0, onlineMsToday: 0, tripsTotal: 5200, tripsToday: 12 },
  } as unknown as LiftInfo;
}

export const TECHNICIAN_ACCESS: PermissionCheck[] = [
  'lift.query',
  'lift.get',
  'incident.query',
  'incident.get',
  'incident.add',
  'incident.edit',
];
export const VIEWER_ACCESS: PermissionCheck[] = [
  'lift.query',
  'lift.get',
  'incident.query',
  'incident.get',
];
export const OPERATOR_ACCESS: PermissionCheck[] = [
  ...TECHNICIAN_ACCESS,
  'liftConfig.get',
  'liftConfig.edit',
];

export function maintenanceOf(extra: Partial<MaintenanceLift> = {}): MaintenanceLift {
  return {
    liftId: LIFT,
    liftKind: 'inclinedStraightRack',
    plan: {
      liftId: LIFT,
      intervalDays: 90,
      intervalTrips: 5000,
      since: '2026-01-01T00:00:00.000Z',
      updatedByName: 'Olga',
    },
    due: {
      status: 'overdue',
      lastVisitAt: '2026-08-01T08:00:00.000Z',
      lastVisitId: 3,
      dueAt: '2026-10-30T08:00:00.000Z',
      daysLeft: -26,
      tripsSinceVisit: 5200,
      tripsDue: 5000,
      tripsLeft: -200,
      dueBy: 'days',
    },
    checklist: [BRAKE, BATTERY],
    tripsTotal: 5200,
    recentVisits: [],
    rootCauses: [
      { id: 'battery', text: 'Battery' },
      { id: 'other', text: 'Other' },
    ],
    ...extra,
  };
}

export function visitOf(extra: Partial<MaintenanceVisit> = {}): MaintenanceVisit {
  return {
    id: 4,
    liftId: LIFT,
    deviceNo: 'LL-0007',
    alias: 'Station B',
    technicianId: null,
    technicianName: 'Tom',
    startedAt: '2026-11-25T08:00:00.000Z',
    endedAt: '2026-11-25T09:00:00.000Z',
    recordedAt: '2026-11-25T09:00:00.000Z',
    results: [
      { ...BRAKE, itemId: 'brake', value: null, passed: true, note: null },
      { ...BATTERY, itemId: 'batteryVoltage', value: 23.1, passed: false, note: 'Old battery' },
    ].map(({ id: _id, ...rest }) => rest),
    failedItems: ['batteryVoltage'],
    findings: 'Battery replaced',
    partsUsed: ['Battery 24 V'],
    incidentIds: [7],
    tripsAt: 5200,
    ...extra,
  };
}

export function openIncident(extra: Partial<IncidentView> = {}): IncidentView {
  return {
    id: 7,
    liftId: LIFT,
    deviceNo: 'LL-0007',
    alias: 'Station B',
    liftKind: 'inclinedStraightRack',
    cause: 'alarmBattery',
    code: null,
    title: null,
    priority: 'high',
    state: 'onSite',
    assigneeId: null,
    assigneeName: null,
    openedAt: '2026-11-24T08:00:00.000Z',
    openedById: null,
    openedByName: null,
    repeats: 0,
    lastRepeatAt: null,
    stateChangedAt: '2026-11-24T08:00:00.000Z',
    endedAt: null,
    rootCause: null,
    resolutionText: null,
    partsUsed: [],
    ...extra,
  };
}

type Handler = (body: Record<string, unknown>) => unknown;

/** Answers each GET / POST by its full path; a missing POST fails the call as unexpected. */
export function serve(routes: { get?: Record<string, Handler>; post?: Record<string, Handler> }) {
  vi.mocked(http.get).mockImplementation(async (url: string, query?: unknown) => {
    const handler = routes.get?.[url];
    if (!handler) throw new Error(`unexpected GET ${url}`);
    return handler((query ?? {}) as Record<string, unknown>);
  });
  vi.mocked(http.post).mockImplementation(async (url: string, body?: unknown) => {
    const handler = routes.post?.[url];
    if (!handler) throw new Error(`unexpected POST ${url}`);
    return handler(body as Record<string, unknown>);
  });
}

/** The bodies POSTed to one path. */
export function postedTo(url: string): Record<string, unknown>[] {
  return vi
    .mocked(http.post)
    .mock.calls.filter(([u]) => u === url)
    .map(([, body]) => body as Record<string, unknown>);
}

/** `page` at `path` for a user of a built-in role; the lift page is a stand-in. */
export function renderPage(
  page: ReactElement,
  {
    path,
    route,
    role = 'technician',
  }: { path: string; route: string; role?: keyof typeof BUILT_IN_ROLES },
) {
  const info = userInfo(role, { name: 'Tom' });
  const router = createMemoryRouter(
    [
      { path: route, element: page },
      ...[
        { path: '/lift/:liftId', element: <div data-testid="stand-in-lift" /> },
        { path: '/lift/maintenance/visit/:liftId', element: <div data-testid="stand-in-visit" /> },
      ].filter((other) => other.path !== route),
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
