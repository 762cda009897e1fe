import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { PageLoading } from '../../components/page-loading.tsx';
import { copyrightLine, useSiteInfo } from '../../lib/site.ts';

/** Login layout (spec section 2): logo, title, language selector, footer with copyright and filing number. */
export default function UserLayout() {
  const { t } = useTranslation();
  const site = useSiteInfo();
  const description = site.maker
    ? t('user.layout.description', { maker: site.maker, version: site.version })
    : t('user.layout.descriptionNoMaker', { version: site.version });

  useEffect(() => {
    document.title = `${site.productName} - ${description}`;
  }, [site.productName, description]);

  return (
    <div className="user-layout">
      <div className="user-layout-lang">
        <LanguageSwitch />
      </div>
      <div className="user-layout-content">
        <div className="user-layout-top">
          <div className="user-layout-header">
            <img src="/logo.svg" alt="" className="user-layout-logo" width={44} height={44} />
            <span className="user-layout-title">{site.productName}</span>
          </div>
          <p className="user-layout-desc" data-testid="site-description">
            {description}
          </p>
        </div>
        <div className="user-layout-main">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </div>
      </div>
      <footer className="user-layout-footer">
        <div>{copyrightLine(site)}</div>
        {site.filingNumber ? (
          <div className="user-layout-filing" data-testid="filing-number">
            {site.filingNumber}
          </div>
        ) : null}
      </footer>
    </div>
  );
}
