/**
 * The authorization model as plain values and functions (no schema library), so the web
 * client's shell can check permissions with the same code the server runs.
 *
 * A role holds permission entries `{ permissionId, actions, scope }`. An entry grants each of
 * its actions on the resource `permissionId`, for the lifts its scope reaches:
 *
 * - `own`: the lifts assigned to the caller's organization (it is their operator).
 * - `served`: those, and the lifts the caller's organization made, wherever they run
 *   (a manufacturer serves the lifts it built; an operator serves the lifts assigned to it).
 * - `all`: every lift.
 *
 * Scopes nest (own ⊆ served ⊆ all). Permissions whose objects are not lifts (administration
 * of users, roles and organizations; the shared documents) take scope `all` only.
 * Nothing else about a role (its name, its type) grants anything.
 */

/** The nine actions of the spec (section 3). */
export const ACTIONS = ['add', 'delete', 'edit', 'query', 'get', 'enable', 'disable', 'import', 'export'] as const;
export type Action = (typeof ACTIONS)[number];

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
 * - incident: query (list), get (detail), add (open one, declare a maintenance window),
 *   edit (transitions, assignment, notes, end a window early)
 * - manufacture: query, add (provision), edit (IoT info, configuration), delete (reset IoT)
 * - document: query, import (upload), delete
 * - firmware: query (list, get packages), add (create, upload an image), delete (withdraw);
 *   an organization's packages (docs/firmware.md), not lifts
 * - user, role, org: add, delete, edit, query, get (administration)
 */
export const PERMISSION_IDS = [
  'dashboard',
  'lift',
  'liftControl',
  'liftConfig',
  'operationLog',
  'alert',
  'incident',
  'manufacture',
  'document',
  'firmware',
  'user',
  'role',
  'org',
] as const;
export type PermissionId = (typeof PERMISSION_IDS)[number];

/** How far a permission entry reaches, narrowest first. */
export const SCOPES = ['own', 'served', 'all'] as const;
export type Scope = (typeof SCOPES)[number];

/** Permissions whose objects are lifts: their scope decides which lifts. */
export const LIFT_PERMISSION_IDS = ['dashboard', 'lift', 'liftControl', 'liftConfig', 'operationLog', 'alert', 'incident', 'manufacture'] as const satisfies readonly PermissionId[];

/** The scopes an entry of `permissionId` may carry: any for lift permissions, else `all`. */
export function scopesFor(permissionId: PermissionId): readonly Scope[] {
  return (LIFT_PERMISSION_IDS as readonly string[]).includes(permissionId) ? SCOPES : ['all'];
}

/**
 * The scope an entry gets when a request names none: the caller's organization's lifts
 * (`served`, what every role reached before scopes existed), `all` for the other resources.
 */
export function defaultScope(permissionId: PermissionId): Scope {
  return scopesFor(permissionId).includes('served') ? 'served' : 'all';
}

export interface Permission {
  permissionId: PermissionId;
  actions: Action[];
  scope: Scope;
}

/** A check of the form `permissionId.action` (spec section 6). */
export type PermissionCheck = `${PermissionId}.${Action}`;

/** The widest of two scopes (null: none). */
export function widerScope(a: Scope | null, b: Scope | null): Scope | null {
  if (a === null) return b;
  if (b === null) return a;
  return SCOPES.indexOf(a) >= SCOPES.indexOf(b) ? a : b;
}

/**
 * The scope in which `permissions` grant `permissionId.action` (the widest entry holding
 * the action), or null when they do not grant it at all. The one evaluation of a grant:
 * the server turns its answer into the lift filter of every query, the web hides controls.
 */
export function scopeOf(permissions: readonly Permission[], check: PermissionCheck): Scope | null {
  const [id, action] = check.split('.');
  let scope: Scope | null = null;
  for (const p of permissions) {
    if (p.permissionId === id && (p.actions as readonly string[]).includes(action ?? '')) scope = widerScope(scope, p.scope);
  }
  return scope;
}

/** Whether `permissions` grant `permissionId.action` in any scope (routes, menus, controls). */
export function hasPermission(permissions: readonly Permission[], check: PermissionCheck): boolean {
  return scopeOf(permissions, check) !== null;
}

/** Every `permissionId.action` pair, in declaration order. */
export const PERMISSION_CHECKS: PermissionCheck[] = PERMISSION_IDS.flatMap((id) => ACTIONS.map((a): PermissionCheck => `${id}.${a}`));

/**
 * The grants of `wanted` that reach further than the granter's own (`permissionId.action`
 * pairs): nobody hands out a right, or a wider scope of it, that they do not hold.
 */
export function grantsBeyond(granter: readonly Permission[], wanted: readonly Permission[]): PermissionCheck[] {
  const out = new Set<PermissionCheck>();
  for (const p of wanted) {
    for (const action of p.actions) {
      const check: PermissionCheck = `${p.permissionId}.${action}`;
      const held = scopeOf(granter, check);
      if (held === null || SCOPES.indexOf(held) < SCOPES.indexOf(p.scope)) out.add(check);
    }
  }
  return [...out];
}

/**
 * Stored form of a role's permissions: one entry per permission id and scope, each action
 * kept only in the widest scope that grants it, actions in the spec's order.
 */
export function canonicalPermissions(permissions: readonly Permission[]): Permission[] {
  const widest = new Map<PermissionCheck, Scope>();
  for (const p of permissions) {
    for (const a of p.actions) {
      const check: PermissionCheck = `${p.permissionId}.${a}`;
      widest.set(check, widerScope(widest.get(check) ?? null, p.scope)!);
    }
  }
  const out: Permission[] = [];
  for (const permissionId of PERMISSION_IDS) {
    for (const scope of SCOPES) {
      const actions = ACTIONS.filter((a) => widest.get(`${permissionId}.${a}`) === scope);
      if (actions.length) out.push({ permissionId, actions, scope });
    }
  }
  return out;
}

/**
 * What the caller may do with one lift, sent with the lift: the `permissionId.action` pairs
 * whose scope reaches it, and which configuration fields a write may touch (`manufacturer`:
 * all of them, for the lift's maker or a configuration grant over every lift).
 */
export interface LiftAccess {
  allowed: PermissionCheck[];
  configRole: 'manufacturer' | 'operator';
}

const ALL: Action[] = [...ACTIONS];

/** Built-in roles, created at first start; the administrator may add more. `roleType` is informational. */
export const BUILT_IN_ROLES = {
  administrator: {
    roleType: 'admin',
    permissions: PERMISSION_IDS.map((permissionId) => ({ permissionId, actions: ALL, scope: 'all' })),
  },
  manufacturerEngineer: {
    roleType: 'manufacturer',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'], scope: 'served' },
      { permissionId: 'lift', actions: ['query', 'get', 'edit', 'export'], scope: 'served' },
      { permissionId: 'liftControl', actions: ['enable'], scope: 'served' },
      { permissionId: 'liftConfig', actions: ['get', 'edit', 'import', 'export'], scope: 'served' },
      { permissionId: 'operationLog', actions: ['query', 'export'], scope: 'served' },
      { permissionId: 'alert', actions: ['query', 'edit'], scope: 'served' },
      { permissionId: 'incident', actions: ['query', 'get', 'add', 'edit'], scope: 'served' },
      { permissionId: 'manufacture', actions: ['query', 'add', 'edit', 'delete'], scope: 'served' },
      { permissionId: 'document', actions: ['query', 'import', 'delete'], scope: 'all' },
      // their organization's firmware packages (docs/firmware.md): upload, withdraw
      { permissionId: 'firmware', actions: ['query', 'add', 'delete'], scope: 'all' },
    ],
  },
  operator: {
    roleType: 'operator',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'], scope: 'served' },
      { permissionId: 'lift', actions: ['query', 'get', 'edit', 'export'], scope: 'served' },
      { permissionId: 'liftControl', actions: ['enable'], scope: 'served' },
      { permissionId: 'liftConfig', actions: ['get', 'edit', 'export'], scope: 'served' },
      { permissionId: 'operationLog', actions: ['query', 'export'], scope: 'served' },
      { permissionId: 'alert', actions: ['query', 'edit'], scope: 'served' },
      { permissionId: 'incident', actions: ['query', 'get', 'add', 'edit'], scope: 'served' },
      { permissionId: 'document', actions: ['query'], scope: 'all' },
    ],
  },
  /** Service technicians: they see their organization's lifts and work on their incidents. */
  technician: {
    roleType: 'technician',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'], scope: 'served' },
      { permissionId: 'lift', actions: ['query', 'get'], scope: 'served' },
      { permissionId: 'liftConfig', actions: ['get'], scope: 'served' },
      { permissionId: 'alert', actions: ['query', 'edit'], scope: 'served' },
      { permissionId: 'incident', actions: ['query', 'get', 'add', 'edit'], scope: 'served' },
      { permissionId: 'document', actions: ['query'], scope: 'all' },
    ],
  },
  viewer: {
    roleType: 'viewer',
    permissions: [
      { permissionId: 'dashboard', actions: ['query'], scope: 'served' },
      { permissionId: 'lift', actions: ['query', 'get'], scope: 'served' },
      { permissionId: 'liftConfig', actions: ['get'], scope: 'served' },
      { permissionId: 'operationLog', actions: ['query'], scope: 'served' },
      { permissionId: 'alert', actions: ['query'], scope: 'served' },
      { permissionId: 'incident', actions: ['query', 'get'], scope: 'served' },
      { permissionId: 'document', actions: ['query'], scope: 'all' },
    ],
  },
} as const satisfies Record<string, { roleType: string; permissions: Permission[] }>;

export type BuiltInRole = keyof typeof BUILT_IN_ROLES;
