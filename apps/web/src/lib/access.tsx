import type { ReactNode } from 'react';
import {
  hasPermission,
  type LiftAccess,
  type Permission,
  type PermissionCheck,
  type UserInfo,
} from '@liftlink/protocol';
import { useOptionalSession } from './session.ts';

/** The role's permissions from `/auth/access/info` (actionList, else actionEntitySet). */
export function permissionsOf(info: Pick<UserInfo, 'role'>): Permission[] {
  const list = Array.isArray(info.role?.permissions) ? info.role.permissions : [];
  return list.map((p) => ({
    permissionId: p.permissionId,
    actions:
      Array.isArray(p.actionList) && p.actionList.length > 0
        ? [...p.actionList]
        : (p.actionEntitySet ?? []).map((a) => a.action),
    scope: p.scope,
  }));
}

/**
 * `permissionId.action` check of the user's role (spec section 6): the protocol's
 * `hasPermission`, which the server runs too. For menus, pages and controls that are not
 * about one lift; false outside the logged-in area.
 */
export function useAccess(): (check: PermissionCheck) => boolean {
  const session = useOptionalSession();
  return (check) => (session ? hasPermission(session.permissions, check) : false);
}

/**
 * What the user may do with one lift: the server's answer sent with the lift (its scope
 * rules live on the server only). A lift without the answer allows nothing.
 */
export function liftAllows(lift: { access?: LiftAccess }, check: PermissionCheck): boolean {
  return lift.access?.allowed.includes(check) ?? false;
}

/** Renders its children only when the user holds `check`; the control is absent otherwise. */
export function Access({
  check,
  children,
  fallback = null,
}: {
  check: PermissionCheck;
  children: ReactNode;
  fallback?: ReactNode;
}) {
  const can = useAccess();
  return <>{can(check) ? children : fallback}</>;
}
