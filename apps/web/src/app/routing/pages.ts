import type { ComponentType } from 'react';
import { withTexts } from '../../lib/i18n/language.ts';
import { lazyPage, type LazyPage } from '../../lib/lazy.ts';

/**
 * The pages the server's routes name in `component`, each loaded on first visit.
 * Every page but the workplace shows lift texts (lists, pickers, kinds), so those load
 * with it; the factory bench also loads its own.
 */
export const PAGES: Record<string, LazyPage<ComponentType>> = {
  Workplace: lazyPage(() => import('../../features/dashboard/components/workplace-page.tsx')),
  Analysis: lazyPage(
    withTexts(['lifts'], () => import('../../features/analysis/components/analysis-page.tsx')),
  ),
  LiftList: lazyPage(
    withTexts(['lifts'], () => import('../../features/lift-list/components/lift-list-page.tsx')),
  ),
  LiftDetail: lazyPage(
    withTexts(
      ['lifts'],
      () => import('../../features/lift-detail/components/lift-detail-page.tsx'),
    ),
  ),
  OperationLog: lazyPage(
    withTexts(
      ['lifts'],
      () => import('../../features/operation-log/components/operation-log-page.tsx'),
    ),
  ),
  Alerts: lazyPage(
    withTexts(['lifts'], () => import('../../features/alerts/components/alerts-page.tsx')),
  ),
  ManufactureDevice: lazyPage(
    withTexts(
      ['lifts', 'manufacture'],
      () => import('../../features/manufacture/components/manufacture-device-page.tsx'),
    ),
  ),
  SystemUsers: lazyPage(
    withTexts(['lifts'], () => import('../../features/system/components/users-page.tsx')),
  ),
  SystemRoles: lazyPage(
    withTexts(['lifts'], () => import('../../features/system/components/roles-page.tsx')),
  ),
  SystemOrgs: lazyPage(
    withTexts(['lifts'], () => import('../../features/system/components/orgs-page.tsx')),
  ),
  SystemBackup: lazyPage(() => import('../../features/system/components/backup-page.tsx')),
  AccountCenter: lazyPage(
    withTexts(['lifts'], () => import('../../features/account/components/account-center-page.tsx')),
  ),
  AccountJoin: lazyPage(() => import('../../features/account/components/join-page.tsx')),
  AccountSettings: lazyPage(
    withTexts(
      ['lifts'],
      () => import('../../features/account/components/account-settings-page.tsx'),
    ),
  ),
};
