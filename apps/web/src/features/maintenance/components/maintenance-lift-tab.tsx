import { useTranslation } from 'react-i18next';
import { liftAllows } from '../../../lib/access.tsx';
import type { LiftPageTab } from '../../../lib/lift-tabs.ts';
import { MaintenanceTab } from './maintenance-tab.tsx';

function Label() {
  const { t } = useTranslation();
  return <>{t('maintenance.tab')}</>;
}

/** The lift page's Maintenance tab, for those who may see the lift's incidents. */
export const MAINTENANCE_LIFT_TAB: LiftPageTab = {
  key: 'maintenance',
  Label,
  Panel: MaintenanceTab,
  shown: (info) => liftAllows(info.lift, 'incident.get'),
};
