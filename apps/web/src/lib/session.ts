import { createContext, useContext } from 'react';
import { queryOptions } from '@tanstack/react-query';
import type { Permission, RouteEntry, UserInfo } from '@liftlink/protocol';
import { http } from './http.ts';
import { clearToken } from './token.ts';
import { queryClient } from './query-client.ts';

export const userInfoQuery = queryOptions({
  queryKey: ['auth', 'info'] as const,
  // A failure has its own notice (spec section 8), not the generic Forbidden one beside it.
  queryFn: ({ signal }) =>
    http.get<UserInfo>('/auth/access/info', undefined, { signal, quiet: 'forbidden' }),
  staleTime: Infinity,
  retry: false,
});

export interface Session {
  info: UserInfo;
  /** The role's permissions in the shape `hasPermission` checks. */
  permissions: Permission[];
  /** The user's routes, filtered by permission. */
  routes: RouteEntry[];
}

export const SessionContext = createContext<Session | null>(null);

/** The signed-in user; only inside the logged-in area. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the logged-in area');
  return session;
}

export function useOptionalSession(): Session | null {
  return useContext(SessionContext);
}

/** Spec section 4: logout clears the token and roles even when the call fails. */
export async function logout(): Promise<void> {
  try {
    await http.post('/auth/access/logout', {}, { quiet: true });
  } catch {
    // Nothing to do: the local session ends anyway.
  } finally {
    clearToken();
    queryClient.clear();
  }
}

/**
 * A redirect target from the query string: same-site paths only. Without one the user goes
 * to `/`, which leads to the first page they may see.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\'))
    return fallback;
  if (target.startsWith('/user/login')) return fallback;
  return target;
}

let welcomePending = false;

/** Sign-in succeeded: greet the user once their user info has loaded (not before: it may fail). */
export function expectWelcome(): void {
  welcomePending = true;
}

/** True once after a sign-in; a failed user-info load takes it too, so no welcome follows. */
export function takeWelcome(): boolean {
  const pending = welcomePending;
  welcomePending = false;
  return pending;
}

/** Navigation state of the step right after sign-in (see isFromSignIn). */
export const FROM_SIGN_IN = { fromSignIn: true } as const;

/** True on the page reached by signing in: a target the user may not see then yields to home. */
export function isFromSignIn(state: unknown): boolean {
  return (
    typeof state === 'object' &&
    state !== null &&
    (state as { fromSignIn?: unknown }).fromSignIn === true
  );
}

export function loginPath(target: string): string {
  return `/user/login?redirect=${encodeURIComponent(target)}`;
}
