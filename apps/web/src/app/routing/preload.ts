import { queryClient } from '../../lib/query-client.ts';
import { userInfoQuery } from '../../lib/session.ts';
import { hasToken } from '../../lib/token.ts';
import { AuthenticatedApp, LoginPage, UserLayout } from '../router.tsx';
import { PAGES } from './pages.ts';
import { componentAt } from './route-table.ts';

/*
 * Loading a page is otherwise a chain of round trips: the layout's code, then (once it runs)
 * the page's, then (once the shell has the user) the page's data. On a slow phone network
 * each link costs a round trip and more. These start the downloads a route will need at
 * once, in parallel; the lazy components then find their code loaded or on its way.
 */

function isSignIn(pathname: string): boolean {
  return pathname === '/user' || pathname === '/user/' || pathname.startsWith('/user/login');
}

/** The sign-in page's code. */
export function preloadSignIn(): void {
  UserLayout.preload();
  LoginPage.preload();
}

/** The signed-in area's code and the user's info (what every signed-in page waits for). */
export function preloadShell(): void {
  AuthenticatedApp.preload();
  if (hasToken()) void queryClient.prefetchQuery(userInfoQuery).catch(() => undefined);
}

/**
 * The code and texts of the signed-in page at `pathname` (`/` is the workplace). Only once
 * the language is loaded: the page's texts come in that language.
 */
export function preloadPage(pathname: string): void {
  const component = componentAt(pathname === '/' ? '/dashboard/workplace' : pathname);
  if (component) PAGES[component]?.preload();
}

/**
 * At start-up, what the page at `pathname` is about to load: the sign-in page's code, or
 * the shell's code and the user's info; `afterLanguage` then adds the page's code and texts.
 */
export function preloadStart(pathname: string): { afterLanguage: () => void } {
  const none = { afterLanguage: () => undefined };
  if (isSignIn(pathname)) {
    preloadSignIn();
    return none;
  }
  if (pathname !== '/' && !componentAt(pathname)) return none;
  // Without a session the signed-in area sends the browser to the sign-in page.
  if (!hasToken()) {
    preloadSignIn();
    return none;
  }
  preloadShell();
  return { afterLanguage: () => preloadPage(pathname) };
}
