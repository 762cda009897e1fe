import type { PermissionId } from './permission-rules.ts';

/** A route of the logged-in area as the server sends it in `/auth/access/info`. */
export interface RouteEntry {
  path: string;
  name: string;
  component?: string;
  redirect?: string;
  meta?: { title: string; icon?: string; permission?: PermissionId[]; hideInMenu?: boolean };
  children?: RouteEntry[];
}

/**
 * The whole route tree of the logged-in area. `meta.title` is an i18n key; `component`
 * names the page the web client lazy-loads. The server filters it by the user's
 * permissions (a route with no permission is visible to all; children recursively).
 */
export const APP_ROUTES: RouteEntry[] = [
  {
    path: '/dashboard',
    name: 'dashboard',
    redirect: '/dashboard/workplace',
    meta: { title: 'menu.dashboard', icon: 'dashboard', permission: ['dashboard'] },
    children: [
      { path: '/dashboard/workplace', name: 'workplace', component: 'Workplace', meta: { title: 'menu.dashboard.workplace', permission: ['dashboard'] } },
      { path: '/dashboard/analysis', name: 'analysis', component: 'Analysis', meta: { title: 'menu.dashboard.analysis', permission: ['dashboard'] } },
      { path: '/dashboard/condition', name: 'condition', component: 'Condition', meta: { title: 'menu.dashboard.condition', permission: ['dashboard'] } },
      { path: '/dashboard/reports', name: 'reports', component: 'Reports', meta: { title: 'menu.dashboard.reports', permission: ['dashboard'] } },
    ],
  },
  {
    path: '/lift',
    name: 'cloud',
    redirect: '/lift/list',
    meta: { title: 'menu.cloud', icon: 'cloud', permission: ['lift'] },
    children: [
      { path: '/lift/list', name: 'liftList', component: 'LiftList', meta: { title: 'menu.cloud.liftList', permission: ['lift'] } },
      { path: '/lift/:liftId', name: 'liftDetail', component: 'LiftDetail', meta: { title: 'menu.cloud.liftDetail', permission: ['lift'], hideInMenu: true } },
      { path: '/lift/operation-log', name: 'operationLog', component: 'OperationLog', meta: { title: 'menu.cloud.operationLog', permission: ['operationLog'] } },
      { path: '/lift/alerts', name: 'alerts', component: 'Alerts', meta: { title: 'menu.cloud.alerts', permission: ['alert'] } },
      { path: '/lift/incidents', name: 'incidents', component: 'Incidents', meta: { title: 'menu.cloud.incidents', permission: ['incident'] } },
      { path: '/lift/incidents/:incidentId', name: 'incidentDetail', component: 'IncidentDetail', meta: { title: 'menu.cloud.incidentDetail', permission: ['incident'], hideInMenu: true } },
      { path: '/lift/maintenance', name: 'maintenance', component: 'Maintenance', meta: { title: 'menu.cloud.maintenance', permission: ['incident'] } },
      { path: '/lift/maintenance/visit/:liftId', name: 'maintenanceVisit', component: 'MaintenanceVisit', meta: { title: 'menu.cloud.maintenanceVisit', permission: ['incident'], hideInMenu: true } },
      // What the makers' firmware campaigns will do to the caller's lifts, and when (docs/firmware.md).
      { path: '/lift/firmware-updates', name: 'firmwareUpdates', component: 'FirmwareUpdates', meta: { title: 'menu.cloud.firmwareUpdates', permission: ['lift'] } },
      { path: '/lift/group-config', name: 'groupConfig', component: 'GroupConfig', meta: { title: 'menu.cloud.groupConfig', permission: ['liftConfig'] } },
    ],
  },
  {
    path: '/manufacture',
    name: 'equipment',
    redirect: '/manufacture/device',
    meta: { title: 'menu.equipment', icon: 'tool', permission: ['manufacture', 'firmware'] },
    children: [
      { path: '/manufacture/device', name: 'device', component: 'ManufactureDevice', meta: { title: 'menu.equipment.device', permission: ['manufacture'] } },
      // Firmware packages (docs/firmware.md): its own permission, so the group shows for it too.
      { path: '/manufacture/firmware', name: 'firmware', component: 'Firmware', meta: { title: 'menu.equipment.firmware', permission: ['firmware'] } },
    ],
  },
  {
    path: '/system',
    name: 'system',
    redirect: '/system/users',
    meta: { title: 'menu.system', icon: 'setting', permission: ['user', 'role', 'org'] },
    children: [
      { path: '/system/users', name: 'users', component: 'SystemUsers', meta: { title: 'menu.system.users', permission: ['user'] } },
      { path: '/system/roles', name: 'roles', component: 'SystemRoles', meta: { title: 'menu.system.roles', permission: ['role'] } },
      { path: '/system/orgs', name: 'orgs', component: 'SystemOrgs', meta: { title: 'menu.system.orgs', permission: ['org'] } },
      { path: '/system/backup', name: 'backup', component: 'SystemBackup', meta: { title: 'menu.system.backup', permission: ['user'] } },
    ],
  },
  {
    path: '/account',
    name: 'account',
    redirect: '/account/center',
    meta: { title: 'menu.account', icon: 'user' },
    children: [
      { path: '/account/center', name: 'center', component: 'AccountCenter', meta: { title: 'menu.account.center' } },
      // Where a user awaiting an organization lands (docs/product.md, "Invite codes").
      { path: '/account/join', name: 'join', component: 'AccountJoin', meta: { title: 'menu.account.join', hideInMenu: true } },
      {
        path: '/account/settings',
        name: 'settings',
        redirect: '/account/settings/basic',
        meta: { title: 'menu.account.settings' },
        children: [
          { path: '/account/settings/basic', name: 'basic', component: 'AccountSettings', meta: { title: 'menu.account.settings.basic', hideInMenu: true } },
          { path: '/account/settings/security', name: 'security', component: 'AccountSettings', meta: { title: 'menu.account.settings.security', hideInMenu: true } },
          { path: '/account/settings/custom', name: 'custom', component: 'AccountSettings', meta: { title: 'menu.account.settings.custom', hideInMenu: true } },
          { path: '/account/settings/binding', name: 'binding', component: 'AccountSettings', meta: { title: 'menu.account.settings.binding', hideInMenu: true } },
          { path: '/account/settings/notification', name: 'notification', component: 'AccountSettings', meta: { title: 'menu.account.settings.notification', hideInMenu: true } },
          { path: '/account/settings/webhooks', name: 'webhooks', component: 'AccountSettings', meta: { title: 'menu.account.settings.webhooks', hideInMenu: true, permission: ['liftConfig'] } },
        ],
      },
    ],
  },
];

/** Keeps the routes whose permission list shares an id with the user's (spec section 6). */
export function filterRoutes(routes: readonly RouteEntry[], permissionIds: ReadonlySet<string>): RouteEntry[] {
  const out: RouteEntry[] = [];
  for (const route of routes) {
    const needed = route.meta?.permission;
    if (needed && needed.length > 0 && !needed.some((p) => permissionIds.has(p))) continue;
    const copy: RouteEntry = { ...route };
    if (route.children) copy.children = filterRoutes(route.children, permissionIds);
    out.push(copy);
  }
  return out;
}
