import type { ComponentType } from 'react';
import { lazyPage } from '../../lib/lazy.ts';

/**
 * The pages the server's routes name in `component`, each loaded on first visit.
 * Pages of the lift screens are placeholders until their issue lands.
 */
export const PAGES: Record<string, ComponentType> = {
  Workplace: lazyPage(() => import('../../features/dashboard/components/workplace-page.tsx')),
  Analysis: lazyPage(() => import('../../features/analysis/components/analysis-page.tsx')),
  LiftList: lazyPage(() => import('../../features/lift-list/components/lift-list-page.tsx')),
  LiftDetail: lazyPage(() => import('../../features/lift-detail/components/lift-detail-page.tsx')),
  OperationLog: lazyPage(
    () => import('../../features/operation-log/components/operation-log-page.tsx'),
  ),
  Alerts: lazyPage(() => import('../../features/alerts/components/alerts-page.tsx')),
  ManufactureDevice: lazyPage(
    () => import('../../features/manufacture/components/manufacture-device-page.tsx'),
  ),
  SystemUsers: lazyPage(() => import('../../features/system/components/users-page.tsx')),
  SystemRoles: lazyPage(() => import('../../features/system/components/roles-page.tsx')),
  SystemOrgs: lazyPage(() => import('../../features/system/components/orgs-page.tsx')),
  AccountCenter: lazyPage(
    () => import('../../features/account/components/account-center-page.tsx'),
  ),
  AccountSettings: lazyPage(
    () => import('../../features/account/components/account-settings-page.tsx'),
  ),
};
