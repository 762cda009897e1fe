import { z } from 'zod';

/** The nine actions of the spec (section 3). */
export const ACTIONS = ['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number];
export const actionSchema = z.enum(ACTIONS);

/**
 * Permission ids: one per resource a role can be granted. The web client checks
 * `permissionId.action` to show a control; the server checks the same pair on every route.
 *
 * - dashboard: query (fleet dashboards)
 * - lift: query (list), get (detail, run log), edit (alias, location), export (run log)
 * - liftControl: enable (send commands to a lift)
 * - liftConfig: get (read configuration), edit (write it), import, export (config files)
 * - operationLog: query, export (audited commands and configuration changes)
 * - alert: query, edit (acknowledge)
 * - manufacture: query, add (provision), edit (IoT info, configuration), delete (reset IoT)
 * - document: query, import (upload), delete
 * - user, role, org: add, delete, edit, query, get (administration)
 */
export const PERMISSION_IDS = [
  'dashboard',
  'lift',
  'liftControl',
  'liftConfig',
  'operationLog',
  'alert',
  'manufacture',
  'document',
  'user',
  'role',
  'org',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];
export const permissionIdSchema = z.enum(PERMISSION_IDS);

export interface Permission {
  permissionId: PermissionId;
  actions: Action[];
}

export const permissionSchema = z.strictObject({
  permissionId: permissionIdSchema,
  actions: z.array(actionSchema).max(ACTIONS.length),
});

/** A check of the form `permissionId.action` (spec section 6). */
export type PermissionCheck = `${PermissionId}.${Action}`;

export function hasPermission(perms: readonly Permission[], check: PermissionCheck): boolean {
  const [id, action] = check.split('.') as [PermissionId, Action];
  return perms.some((p) => p.permissionId === id && p.actions.includes(action));
}

const ALL: Action[] = [...ACTIONS];

/** Built-in roles, created at first start; the administrator may add more. */
export const BUILT_IN_ROLES = {
  administrator: {
    roleType: 'admin',
    permissions: PERMISSION_IDS.map((permissionId) => ({ permissionId, actions: ALL })),
  },
  manufacturerEngineer: {
    roleType: 'manufacturer',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'] },
      { permissionId: 'lift', actions: ['query', 'get', 'edit', 'export'] },
      { permissionId: 'liftControl', actions: ['enable'] },
      { permissionId: 'liftConfig', actions: ['get', 'edit', 'import', 'export'] },
      { permissionId: 'operationLog', actions: ['query', 'export'] },
      { permissionId: 'alert', actions: ['query', 'edit'] },
      { permissionId: 'manufacture', actions: ['query', 'add', 'edit', 'delete'] },
      { permissionId: 'document', actions: ['query', 'import', 'delete'] },
    ],
  },
  operator: {
    roleType: 'operator',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'] },
      { permissionId: 'lift', actions: ['query', 'get', 'edit', 'export'] },
      { permissionId: 'liftControl', actions: ['enable'] },
      { permissionId: 'liftConfig', actions: ['get', 'edit', 'export'] },
      { permissionId: 'operationLog', actions: ['query', 'export'] },
      { permissionId: 'alert', actions: ['query', 'edit'] },
      { permissionId: 'document', actions: ['query'] },
    ],
  },
  viewer: {
    roleType: 'viewer',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'] },
      { permissionId: 'lift', actions: ['query', 'get'] },
      { permissionId: 'liftConfig', actions: ['get'] },
      { permissionId: 'operationLog', actions: ['query'] },
      { permissionId: 'alert', actions: ['query'] },
      { permissionId: 'document', actions: ['query'] },
    ],
  },
} as const satisfies Record<string, { roleType: string; permissions: Permission[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;
