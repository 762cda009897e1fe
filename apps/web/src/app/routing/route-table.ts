import { matchPath } from 'react-router';
import { APP_ROUTES, type RouteEntry } from '@liftlink/protocol';

/** A route of the logged-in area, flattened, with the chain of its ancestors. */
export interface FlatRoute {
  path: string;
  titleKey: string;
  component?: string;
  redirect?: string;
  hideInMenu: boolean;
  /** Ancestor paths, outermost first. */
  parents: string[];
}

export function flattenRoutes(routes: readonly RouteEntry[], parents: string[] = []): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const route of routes) {
    out.push({
      path: route.path,
      titleKey: route.meta?.title ?? route.name,
      component: route.component,
      redirect: route.redirect,
      hideInMenu: route.meta?.hideInMenu === true,
      parents,
    });
    if (route.children) out.push(...flattenRoutes(route.children, [...parents, route.path]));
  }
  return out;
}

/** Static segments win over `:params` (`/lift/list` before `/lift/:liftId`). */
function byPrecedence(a: FlatRoute, b: FlatRoute): number {
  return Number(a.path.includes(':')) - Number(b.path.includes(':'));
}

export type Resolution =
  | { kind: 'page'; route: FlatRoute; params: Record<string, string | undefined> }
  | { kind: 'redirect'; to: string }
  | { kind: 'forbidden' }
  | { kind: 'notFound' };

const ALL_ROUTES = flattenRoutes(APP_ROUTES).sort(byPrecedence);

/** The page component the product shows at `pathname`, whoever asks (for preloading its code). */
export function componentAt(pathname: string): string | undefined {
  return findIn(ALL_ROUTES, pathname)?.route.component;
}

export interface RouteTable {
  routes: FlatRoute[];
  home: string;
  resolve(pathname: string): Resolution;
  find(pathname: string): FlatRoute | undefined;
}

function findIn(
  routes: readonly FlatRoute[],
  pathname: string,
): { route: FlatRoute; params: Record<string, string | undefined> } | undefined {
  const normalized = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const route of routes) {
    const match = matchPath({ path: route.path, end: true }, normalized);
    if (match) return { route, params: match.params };
  }
  return undefined;
}

/**
 * Where the user lands: the first page of the menu they may see (the workplace for most),
 * else any page they may see, else their account centre.
 */
function homeOf(routes: readonly FlatRoute[]): string {
  const pages = routes.filter((r) => r.component && !r.path.includes(':'));
  return pages.find((r) => !r.hideInMenu)?.path ?? pages[0]?.path ?? '/account/center';
}

/** Where a user awaiting an organization lands: how to join one (docs/product.md, "Invite codes"). */
export const JOIN_PATH = '/account/join';

/**
 * The user's route table, generated from `info.routes` (already filtered by the server,
 * filtered again here by permission). A path the product knows but the user may not see
 * resolves to 403; an unknown path to 404. A user awaiting an organization lands on the
 * page that says how to join one; the other pages still open.
 */
export function createRouteTable(
  userRoutes: readonly RouteEntry[],
  awaitingOrganization = false,
): RouteTable {
  const routes = flattenRoutes(userRoutes).sort(byPrecedence);
  const home = awaitingOrganization && findIn(routes, JOIN_PATH) ? JOIN_PATH : homeOf(routes);
  return {
    routes,
    home,
    find: (pathname) => findIn(routes, pathname)?.route,
    resolve(pathname) {
      if (pathname === '/' || pathname === '') return { kind: 'redirect', to: home };
      const found = findIn(routes, pathname);
      if (found) {
        if (found.route.component)
          return { kind: 'page', route: found.route, params: found.params };
        const child = routes.find((r) => r.parents.at(-1) === found.route.path);
        const target =
          found.route.redirect && findIn(routes, found.route.redirect)
            ? found.route.redirect
            : child?.path;
        return target ? { kind: 'redirect', to: target } : { kind: 'forbidden' };
      }
      return findIn(ALL_ROUTES, pathname) ? { kind: 'forbidden' } : { kind: 'notFound' };
    },
  };
}
