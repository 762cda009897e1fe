import { useState, type ReactElement, type ReactNode } from 'react';
import { App, ConfigProvider } from 'antd';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { BUILT_IN_ROLES, filterRoutes, APP_ROUTES, type UserInfo } from '@liftlink/protocol';
import { FeedbackContext } from '../lib/feedback.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { SessionContext, type Session } from '../lib/session.ts';
import { changeLanguage, withTexts } from '../lib/i18n/language.ts';
import { AntdStylesOffDocument } from './antd-styles.tsx';

/** English texts for assertions (the resources and bundles load like in the app). */
export async function useEnglish(): Promise<void> {
  await changeLanguage('en-US');
  await withTexts(['lifts', 'manufacture'], async () => undefined)();
}

export function userInfo(
  role: keyof typeof BUILT_IN_ROLES,
  extra: Partial<UserInfo> = {},
): UserInfo {
  const permissions = BUILT_IN_ROLES[role].permissions.map((p) => ({
    permissionId: p.permissionId,
    actionList: [...p.actions],
    actionEntitySet: p.actions.map((action) => ({ action })),
    scope: p.scope,
  }));
  const ids = new Set<string>(permissions.map((p) => p.permissionId));
  return {
    id: '11111111-1111-4111-8111-111111111111',
    username: role,
    name: `Test ${role}`,
    avatar: '',
    email: null,
    mobile: null,
    language: 'en-US',
    roleType: BUILT_IN_ROLES[role].roleType,
    organization: null,
    role: { id: '22222222-2222-4222-8222-222222222222', name: role, permissions },
    routes: filterRoutes(APP_ROUTES, ids),
    settings: {},
    awaitingOrganization: false,
    ...extra,
  };
}

function Providers({ children, session }: { children: ReactNode; session?: Session }) {
  return (
    <AntdStylesOffDocument>
      <ConfigProvider>
        <App>
          <FeedbackBridge>
            <QueryClientProvider client={createQueryClient()}>
              <SessionContext.Provider value={session ?? null}>{children}</SessionContext.Provider>
            </QueryClientProvider>
          </FeedbackBridge>
        </App>
      </ConfigProvider>
    </AntdStylesOffDocument>
  );
}

/**
 * A query client of its own, the session when given, and antd's App (messages, modals)
 * around a component under test: `render(<Panel />, { wrapper: InApp })`.
 */
export function InApp({
  children,
  session = null,
}: {
  children: ReactNode;
  session?: Session | null;
}) {
  const [client] = useState(createQueryClient);
  return (
    <AntdStylesOffDocument>
      <QueryClientProvider client={client}>
        <SessionContext.Provider value={session}>
          <App>{children}</App>
        </SessionContext.Provider>
      </QueryClientProvider>
    </AntdStylesOffDocument>
  );
}

function FeedbackBridge({ children }: { children: ReactNode }) {
  const api = App.useApp();
  return (
    <FeedbackContext.Provider value={{ message: api.message, notification: api.notification }}>
      {children}
    </FeedbackContext.Provider>
  );
}

/** Renders `element` at `path` inside the app's providers (and a session when given). */
export function renderAt(
  element: ReactElement,
  { path = '/', session }: { path?: string; session?: Session } = {},
) {
  const router = createMemoryRouter(
    [
      { path: '*', element },
      { path: '/dashboard/workplace', element: <div>workplace page</div> },
    ],
    { initialEntries: [path] },
  );
  return render(
    <Providers session={session}>
      <RouterProvider router={router} />
    </Providers>,
  );
}
