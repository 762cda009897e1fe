import { Suspense } from 'react';
import { Access } from '../../../lib/access.tsx';
import { withTexts } from '../../../lib/i18n/language.ts';
import { lazyPage } from '../../../lib/lazy.ts';

const DueCard = lazyPage(withTexts(['lifts', 'maintenance'], () => import('./due-card.tsx')));

/**
 * What the workplace page shows of maintenance (composed in app/routing/pages.ts): the card
 * and its texts load after the page, for those who see incidents.
 */
export function MaintenanceWorkplacePanel() {
  return (
    <Access check="incident.query">
      <Suspense fallback={null}>
        <DueCard />
      </Suspense>
    </Access>
  );
}
