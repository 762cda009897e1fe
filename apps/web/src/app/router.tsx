import { Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { PageLoading } from '../components/page-loading.tsx';
import { PageErrorBoundary } from '../components/page-error-boundary.tsx';
import { lazyPage } from '../lib/lazy.ts';
import { hasToken } from '../lib/token.ts';
import { loginPath } from '../lib/session.ts';

/*
 * Declarative routes (`<Routes>` in a `<BrowserRouter>`): the app uses no loaders, actions
 * or fetchers, and the data router costs the sign-in page and the shell about 10 KB more.
 * Every page is a lazy component (120 s chunk time-out) that shows the loading spinner in
 * its layout while its code arrives.
 */
export const UserLayout = lazyPage(() => import('./layout/user-layout.tsx'));
export const LoginPage = lazyPage(() => import('../features/auth/components/login-page.tsx'));
/** The public pages that use antd load it (theme and locale) through this layout route. */
const AntdOutlet = lazyPage(() => import('./antd/antd-outlet.tsx'));
const RegisterPage = lazyPage(() => import('../features/auth/components/register-page.tsx'));
const RegisterResultPage = lazyPage(
  () => import('../features/auth/components/register-result-page.tsx'),
);
const RecoverPage = lazyPage(() => import('../features/auth/components/recover-page.tsx'));
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/components/reset-password-page.tsx'),
);
const ActivatePage = lazyPage(() => import('../features/auth/components/activate-page.tsx'));
const QrcodePage = lazyPage(() => import('../features/qrcode/components/qrcode-page.tsx'));
const NotFoundPage = lazyPage(() => import('../features/exception/components/not-found-page.tsx'));
const ExceptionPage = lazyPage(() => import('../features/exception/components/exception-page.tsx'));
const FailurePage = lazyPage(() => import('../features/exception/components/failure-page.tsx'));
export const AuthenticatedApp = lazyPage(() => import('./authenticated-app.tsx'));

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

/** The app's routes; a page whose code fails to load shows the page error (reload). */
export function AppRoutes() {
  return (
    <PageErrorBoundary>
      <Suspense fallback={<PageLoading />}>
        <Routes>
          {/* The login layout: sign-in pages and the page behind a lift's QR code. It and
              the login page are built without antd (the sign-in JavaScript budget). */}
          <Route element={<UserLayout />}>
            <Route path="/user">
              <Route index element={<Navigate to="/user/login" replace />} />
              <Route path="login" element={<LoginPage />} />
              <Route element={<AntdOutlet />}>
                <Route path="register" element={<RegisterPage />} />
                <Route path="register-result" element={<RegisterResultPage />} />
                <Route path="recover" element={<RecoverPage />} />
                <Route path="reset-password" element={<ResetPasswordPage />} />
                <Route path="activate" element={<ActivatePage />} />
              </Route>
            </Route>
            <Route element={<AntdOutlet />}>
              <Route path="/qrcode/qrcode" element={<QrcodePage />} />
            </Route>
          </Route>
          <Route path="/qrcode" element={<QrcodeRedirect />} />
          <Route element={<AntdOutlet />}>
            <Route path="/404" element={<NotFoundPage />} />
            <Route path="/exception/:status" element={<ExceptionPage />} />
            <Route path="/result/fail" element={<FailurePage />} />
          </Route>
          <Route path="*" element={<RequireToken />} />
        </Routes>
      </Suspense>
    </PageErrorBoundary>
  );
}
