import { createElement, type ComponentType } from 'react';
import { withTexts } from '../../lib/i18n/language.ts';
import { lazyPage, type LazyPage } from '../../lib/lazy.ts';

/**
 * The pages the server's routes name in `component`, each loaded on first visit.
 * Every page but the workplace shows lift texts (lists, pickers, kinds), so those load
 * with it; the factory bench also loads its own.
 */
export const PAGES: Record<string, LazyPage<ComponentType>> = {
  // The workplace shows other features' panels (each loads its own code and texts later).
  Workplace: lazyPage(async () => {
    const [page, maintenance] = await Promise.all([
      import('../../features/dashboard/components/workplace-page.tsx'),
      import('../../features/maintenance/components/due-card-slot.tsx'),
    ]);
    const panels = [maintenance.MaintenanceWorkplacePanel];
    return { default: () => createElement(page.default, { panels }) };
  }),
  Analysis: lazyPage(
    withTexts(
      ['lifts', 'availability'],
      () => import('../../features/analysis/components/analysis-page.tsx'),
    ),
  ),
  Reports: lazyPage(withTexts(['reports'], () => import('../../features/reports/components/reports-page.tsx'))),
  Condition: lazyPage(
    withTexts(['lifts', 'condition'], () => import('../../features/condition/components/condition-page.tsx')),
  ),
  LiftList: lazyPage(
    withTexts(['lifts'], () => import('../../features/lift-list/components/lift-list-page.tsx')),
  ),
  // The lift page with the tabs of other features.
  LiftDetail: lazyPage(
    withTexts(['lifts', 'maintenance', 'condition'], async () => {
      const [page, maintenance] = await Promise.all([
        import('../../features/lift-detail/components/lift-detail-page.tsx'),
        import('../../features/maintenance/components/maintenance-lift-tab.tsx'),
      ]);
      const extraTabs = [maintenance.MAINTENANCE_LIFT_TAB];
      return { default: () => createElement(page.default, { extraTabs }) };
    }),
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
  Incidents: lazyPage(
    withTexts(
      ['lifts', 'incidents'],
      () => import('../../features/incidents/components/incidents-page.tsx'),
    ),
  ),
  IncidentDetail: lazyPage(
    withTexts(
      ['lifts', 'incidents'],
      () => import('../../features/incidents/components/incident-detail-page.tsx'),
    ),
  ),
  Maintenance: lazyPage(
    withTexts(
      ['lifts', 'maintenance'],
      () => import('../../features/maintenance/components/maintenance-page.tsx'),
    ),
  ),
  MaintenanceVisit: lazyPage(
    withTexts(
      ['lifts', 'incidents', 'maintenance'],
      () => import('../../features/maintenance/components/visit-page.tsx'),
    ),
  ),
  FirmwareUpdates: lazyPage(
    withTexts(
      ['lifts'],
      () => import('../../features/firmware-updates/components/firmware-updates-page.tsx'),
    ),
  ),
  GroupConfig: lazyPage(
    withTexts(
      ['lifts', 'groupConfig'],
      () => import('../../features/group-config/components/group-config-page.tsx'),
    ),
  ),
  ManufactureDevice: lazyPage(
    withTexts(
      ['lifts', 'manufacture'],
      () => import('../../features/manufacture/components/manufacture-device-page.tsx'),
    ),
  ),
  Firmware: lazyPage(
    withTexts(['firmware'], () => import('../../features/firmware/components/firmware-page.tsx')),
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
