import { useEffect, useMemo } from 'react';
import { useFeedback } from '../lib/feedback.ts';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { filterRoutes, FORCED_LOGOUT_MS } from '@liftlink/protocol';
import { permissionsOf } from '../lib/access.tsx';
import { ApiError, http } from '../lib/http.ts';
import { isLanguage, storedLanguage, tx } from '../lib/i18n/i18n.ts';
import { changeLanguage } from '../lib/i18n/language.ts';
import { adoptProfileSettings } from '../lib/layout-settings.ts';
import { greetingText } from '../lib/greeting.ts';
import {
  loginPath,
  logout,
  SessionContext,
  takeWelcome,
  userInfoQuery,
  type Session,
} from '../lib/session.ts';
import { PageLoading } from '../components/page-loading.tsx';
import { AntdScope } from './antd/antd-scope.tsx';
import { ShellApp } from './antd/shell-app.tsx';
import { BasicLayout } from './layout/basic-layout.tsx';

/**
 * The logged-in area (spec section 4): fetch the user info on first navigation, build
 * the routes from it, start the 8-hour forced logout; on failure, notice and logout.
 */
export default function AuthenticatedApp() {
  const { t } = useTranslation();
  const { notification } = useFeedback();
  const navigate = useNavigate();
  const location = useLocation();
  const query = useQuery(userInfoQuery);
  const info = query.data;
  const target = location.pathname + location.search + location.hash;

  useEffect(() => {
    if (!query.isError) return;
    takeWelcome();
    // A 401 is the HTTP client's: it logs out and reloads the page after 1.5 s.
    if (query.error instanceof ApiError && query.error.status === 401) return;
    notification.error({
      key: 'session.infoFailed',
      title: t('session.errorTitle'),
      description: t('session.infoFailed'),
    });
    void logout().then(() => navigate(loginPath(target), { replace: true }));
    // Only the failure itself triggers this, not later navigation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);

  useEffect(() => {
    if (!info) return;
    if (takeWelcome())
      notification.success({
        key: 'welcome',
        title: tx('login.welcome'),
        description: tx('login.welcomeBack', { greeting: greetingText() }),
      });
    adoptProfileSettings(info.settings);
    const chosen = storedLanguage();
    if (!chosen && isLanguage(info.language)) void changeLanguage(info.language);
    else if (chosen && chosen !== info.language) {
      // The choice made in this browser (e.g. on the login page) is the newest: keep the profile in step.
      void http
        .post('/auth/access/account/profile/update', { language: chosen })
        .catch(() => undefined);
    }
    // The welcome follows the first load of the user info only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info]);

  const userId = info?.id;
  useEffect(() => {
    if (!userId) return;
    const timer = window.setTimeout(() => {
      void logout().then(() => {
        notification.warning({
          key: 'session.expired',
          title: tx('session.expiredTitle'),
          description: tx('session.expired'),
        });
        void navigate('/user/login', { replace: true });
      });
    }, FORCED_LOGOUT_MS);
    return () => window.clearTimeout(timer);
  }, [userId, navigate, notification]);

  const session = useMemo<Session | null>(() => {
    if (!info) return null;
    const permissions = permissionsOf(info);
    const ids = new Set(permissions.filter((p) => p.actions.length > 0).map((p) => p.permissionId));
    return {
      info,
      permissions,
      routes: filterRoutes(Array.isArray(info.routes) ? info.routes : [], ids),
    };
  }, [info]);

  if (!session) return <PageLoading />;
  return (
    <SessionContext.Provider value={session}>
      <AntdScope>
        {/* antd's App context: the shell's pages get message, notification and modal hooks. */}
        <ShellApp>
          <BasicLayout />
        </ShellApp>
      </AntdScope>
    </SessionContext.Provider>
  );
}
