import { Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { PageErrorBoundary } from '../../components/page-error-boundary.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { lazyPage } from '../../lib/lazy.ts';
import { PAGES } from '../routing/pages.ts';
import type { RouteTable } from '../routing/route-table.ts';
import type { Tab } from './tabs-model.ts';

// antd's Result with its large pictures: only for a page that is missing or forbidden.
const ExceptionResult = lazyPage(() =>
  import('../../components/exception-result.tsx').then((module) => ({
    default: module.ExceptionResult,
  })),
);

/**
 * One tab's page. It renders under its own location (`<Routes location>`), so a hidden
 * tab keeps its params and query string while another tab is shown.
 */
export function TabContent({ tab, table }: { tab: Tab; table: RouteTable }) {
  const resolution = table.resolve(tab.location.pathname);
  let content;
  if (resolution.kind === 'page') {
    const Page = resolution.route.component ? PAGES[resolution.route.component] : undefined;
    content = Page ? (
      <Routes location={tab.location}>
        <Route path={resolution.route.path} element={<Page />} />
        <Route path="*" element={<Page />} />
      </Routes>
    ) : (
      <ExceptionResult status="404" home={table.home} />
    );
  } else if (resolution.kind === 'forbidden')
    content = <ExceptionResult status="403" home={table.home} />;
  else content = <ExceptionResult status="404" home={table.home} />;

  return (
    <div className="tab-page" data-tab-page={tab.key}>
      <PageErrorBoundary key={tab.reloadCount}>
        <Suspense fallback={<PageLoading />}>{content}</Suspense>
      </PageErrorBoundary>
    </div>
  );
}
