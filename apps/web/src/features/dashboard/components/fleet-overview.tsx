import { Suspense } from 'react';
import { Access } from '../../../lib/access.tsx';
import { withTexts } from '../../../lib/i18n/language.ts';
import { lazyPage } from '../../../lib/lazy.ts';

const FleetOverviewPanels = lazyPage(
  withTexts(['lifts'], () => import('./fleet-overview-panels.tsx')),
);

/** The workplace's fleet overview: counts, lifts needing attention, recent events. */
export function FleetOverview() {
  return (
    <Access check="dashboard.query">
      <Suspense fallback={null}>
        <FleetOverviewPanels />
      </Suspense>
    </Access>
  );
}
