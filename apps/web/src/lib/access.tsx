import type { ReactNode } from 'react';
import type { Permission, PermissionCheck, UserInfo } from '@liftlink/protocol';
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
  }));
}

/**
 * The protocol's `hasPermission`, for the shell: the protocol module that holds it also
 * builds the permission schemas, and importing it would put zod into the first download
 * after sign-in. access.test.tsx holds the two to the same answers.
 */
export function holds(permissions: readonly Permission[], check: PermissionCheck): boolean {
  const [id, action] = check.split('.');
  return permissions.some(
    (p) => p.permissionId === id && (p.actions as readonly string[]).includes(action ?? ''),
  );
}

/** `permissionId.action` check (spec section 6); false outside the logged-in area. */
export function useAccess(): (check: PermissionCheck) => boolean {
  const session = useOptionalSession();
  return (check) => (session ? holds(session.permissions, check) : false);
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
