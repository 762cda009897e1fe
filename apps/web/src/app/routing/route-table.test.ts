import { describe, expect, it } from 'vitest';
import { APP_ROUTES, BUILT_IN_ROLES, filterRoutes } from '@liftlink/protocol';
import { createRouteTable } from './route-table.ts';

const tableFor = (role: keyof typeof BUILT_IN_ROLES) =>
  createRouteTable(
    filterRoutes(APP_ROUTES, new Set(BUILT_IN_ROLES[role].permissions.map((p) => p.permissionId))),
  );

describe('routes generated from the user info', () => {
  it('opens pages, follows redirects and picks the workplace as home', () => {
    const admin = tableFor('administrator');
    expect(admin.home).toBe('/dashboard/workplace');
    expect(admin.resolve('/')).toEqual({ kind: 'redirect', to: '/dashboard/workplace' });
    expect(admin.resolve('/lift')).toEqual({ kind: 'redirect', to: '/lift/list' });
    expect(admin.resolve('/account/settings')).toEqual({
      kind: 'redirect',
      to: '/account/settings/basic',
    });
    expect(admin.resolve('/system/users')).toMatchObject({
      kind: 'page',
      route: { component: 'SystemUsers' },
    });
  });

  it('lands a user awaiting an organization on the join page; the other pages still open', () => {
    const routes = filterRoutes(
      APP_ROUTES,
      new Set(BUILT_IN_ROLES.viewer.permissions.map((p) => p.permissionId)),
    );
    const waiting = createRouteTable(routes, true);
    expect(waiting.home).toBe('/account/join');
    expect(waiting.resolve('/')).toEqual({ kind: 'redirect', to: '/account/join' });
    expect(waiting.resolve('/account/join')).toMatchObject({
      kind: 'page',
      route: { component: 'AccountJoin' },
    });
    expect(waiting.resolve('/lift/list')).toMatchObject({ kind: 'page' });
    // A member of an organization lands where they always did; the page still answers.
    const member = createRouteTable(routes);
    expect(member.home).toBe('/dashboard/workplace');
    expect(member.resolve('/account/join')).toMatchObject({ kind: 'page' });
  });

  it('prefers a fixed path over a parameter and passes the parameter on', () => {
    const admin = tableFor('administrator');
    expect(admin.resolve('/lift/list')).toMatchObject({
      kind: 'page',
      route: { component: 'LiftList' },
    });
    expect(admin.resolve('/lift/operation-log')).toMatchObject({
      kind: 'page',
      route: { component: 'OperationLog' },
    });
    expect(admin.resolve('/lift/incidents')).toMatchObject({
      kind: 'page',
      route: { component: 'Incidents' },
    });
    expect(admin.resolve('/lift/incidents/42')).toMatchObject({
      kind: 'page',
      route: { component: 'IncidentDetail' },
      params: { incidentId: '42' },
    });
    expect(admin.resolve('/lift/abc-123')).toMatchObject({
      kind: 'page',
      route: { component: 'LiftDetail' },
      params: { liftId: 'abc-123' },
    });
  });

  it('opens the firmware page for firmware alone, in the equipment group', () => {
    expect(tableFor('administrator').resolve('/manufacture/firmware')).toMatchObject({
      kind: 'page',
      route: { component: 'Firmware', titleKey: 'menu.equipment.firmware' },
    });
    // A role with firmware but not the factory bench: the group leads to its only page.
    const firmwareOnly = createRouteTable(
      filterRoutes(APP_ROUTES, new Set(['dashboard', 'firmware'])),
    );
    expect(firmwareOnly.resolve('/manufacture')).toEqual({
      kind: 'redirect',
      to: '/manufacture/firmware',
    });
    expect(firmwareOnly.resolve('/manufacture/device')).toEqual({ kind: 'forbidden' });
    expect(firmwareOnly.find('/manufacture/firmware')?.parents).toEqual(['/manufacture']);
    // The bench's engineers without firmware see the bench, not the packages.
    const bench = createRouteTable(filterRoutes(APP_ROUTES, new Set(['manufacture'])));
    expect(bench.resolve('/manufacture')).toEqual({ kind: 'redirect', to: '/manufacture/device' });
    expect(bench.resolve('/manufacture/firmware')).toEqual({ kind: 'forbidden' });
    expect(tableFor('viewer').resolve('/manufacture/firmware')).toEqual({ kind: 'forbidden' });
  });

  it('a known page the role may not see is 403, an unknown one 404', () => {
    const viewer = tableFor('viewer');
    expect(viewer.resolve('/system/users')).toEqual({ kind: 'forbidden' });
    expect(viewer.resolve('/manufacture/device')).toEqual({ kind: 'forbidden' });
    expect(viewer.resolve('/no/such/page')).toEqual({ kind: 'notFound' });
    expect(viewer.resolve('/dashboard/workplace')).toMatchObject({ kind: 'page' });
  });
});
