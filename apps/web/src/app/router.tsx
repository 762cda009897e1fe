import { Suspense, type ComponentType } from 'react';
import {
  createBrowserRouter,
  Navigate,
  Outlet,
  useLocation,
  useRouteError,
  type RouteObject,
} from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { PageErrorBoundary } from '../components/page-error-boundary.tsx';
import { lazyPage, withChunkTimeout } from '../lib/lazy.ts';
import { hasToken } from '../lib/token.ts';
import { loginPath } from '../lib/session.ts';

/** A route-level lazy page: its code is fetched on first visit (120 s chunk time-out). */
function page(load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> {
  return { lazy: () => withChunkTimeout(load)().then((module) => ({ Component: module.default })) };
}

function Rethrow({ error }: { error: unknown }): never {
  throw error instanceof Error ? error : new Error(String(error));
}

/** Rethrows into the page error boundary so a failed chunk shows the same result page. */
function RouteError() {
  const error = useRouteError();
  return (
    <PageErrorBoundary>
      <Rethrow error={error} />
    </PageErrorBoundary>
  );
}

const AuthenticatedApp = lazyPage(() => import('./authenticated-app.tsx'));

/** Spec section 6: without a token, go to login with the full target in `redirect`. */
function RequireToken() {
  const location = useLocation();
  if (!hasToken())
    return <Navigate to={loginPath(location.pathname + location.search + location.hash)} replace />;
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageLoading />}>
        <AuthenticatedApp />
      </Suspense>
    </PageErrorBoundary>
  );
}

/** `/qrcode` -> `/qrcode/qrcode`, keeping `?deviceNo=`. */
function QrcodeRedirect() {
  const location = useLocation();
  return <Navigate to={{ pathname: '/qrcode/qrcode', search: location.search }} replace />;
}

/** The public pages that use antd load it (theme and locale) through this layout route. */
const withAntd = page(() => import('./antd/antd-outlet.tsx'));

export const routes: RouteObject[] = [
  {
    element: <Outlet />,
    hydrateFallbackElement: <PageLoading />,
    errorElement: <RouteError />,
    children: [
      {
        // The login layout: sign-in pages and the page behind a lift's QR code. It and the
        // login page are built without antd (the sign-in JavaScript budget of issue 5).
        ...page(() => import('./layout/user-layout.tsx')),
        children: [
          {
            path: '/user',
            children: [
              { index: true, element: <Navigate to="/user/login" replace /> },
              {
                path: 'login',
                ...page(() => import('../features/auth/components/login-page.tsx')),
              },
              {
                ...withAntd,
                children: [
                  {
                    path: 'register',
                    ...page(() => import('../features/auth/components/register-page.tsx')),
                  },
                  {
                    path: 'register-result',
                    ...page(() => import('../features/auth/components/register-result-page.tsx')),
                  },
                  {
                    path: 'recover',
                    ...page(() => import('../features/auth/components/recover-page.tsx')),
                  },
                  {
                    path: 'reset-password',
                    ...page(() => import('../features/auth/components/reset-password-page.tsx')),
                  },
                  {
                    path: 'activate',
                    ...page(() => import('../features/auth/components/activate-page.tsx')),
                  },
                ],
              },
            ],
          },
          {
            ...withAntd,
            children: [
              {
                path: '/qrcode/qrcode',
                ...page(() => import('../features/qrcode/components/qrcode-page.tsx')),
              },
            ],
          },
        ],
      },
      { path: '/qrcode', element: <QrcodeRedirect /> },
      {
        ...withAntd,
        children: [
          {
            path: '/404',
            ...page(() => import('../features/exception/components/not-found-page.tsx')),
          },
          {
            path: '/exception/:status',
            ...page(() => import('../features/exception/components/exception-page.tsx')),
          },
          {
            path: '/result/fail',
            ...page(() => import('../features/exception/components/failure-page.tsx')),
          },
        ],
      },
      { path: '*', element: <RequireToken /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
