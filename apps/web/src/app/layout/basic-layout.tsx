import { Activity, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Button, Grid, Layout, Menu, Tooltip } from 'antd';
import {
  MenuFoldOutlined,
  MenuOutlined,
  MenuUnfoldOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import type { Language } from '@liftlink/protocol';
import { LanguageSelect } from '../../components/language-select.tsx';
import { http } from '../../lib/http.ts';
import { tx } from '../../lib/i18n/i18n.ts';
import { useLayoutSettings } from '../../lib/layout-settings.ts';
import { usePageSubjects } from '../../lib/page-subject.ts';
import { isFromSignIn, useSession } from '../../lib/session.ts';
import { copyrightLine, useSiteInfo } from '../../lib/site.ts';
import { createRouteTable } from '../routing/route-table.ts';
import { MultiTabBar } from '../tabs/multi-tab-bar.tsx';
import { TabContent } from '../tabs/tab-content.tsx';
import { useTabs } from '../tabs/use-tabs.ts';
import type { TabLocation } from '../tabs/tabs-model.ts';
import { AvatarMenu } from './avatar-menu.tsx';
import { buildMenuItems, collectKeys, menuKeysFor } from './menu-items.tsx';
import { OnceOpened } from '../../components/once-opened.tsx';
import { lazyPage } from '../../lib/lazy.ts';
import { Access } from '../../lib/access.tsx';

// The settings drawer (radios, switches, colours) downloads when it is first opened.
const SettingsDrawer = lazyPage(() => import('./settings-drawer.tsx'));
const MenuDrawer = lazyPage(() => import('./menu-drawer.tsx'));
// The alerts bell (in-app notifications) follows the layout's first paint.
const NotificationBell = lazyPage(() =>
  import('../../features/alerts/components/notification-bell.tsx').then((m) => ({
    default: m.NotificationBell,
  })),
);

function Logo({ collapsed, theme }: { collapsed: boolean; theme: 'dark' | 'light' }) {
  const site = useSiteInfo();
  return (
    <div className={`layout-logo layout-logo-${theme}`}>
      <img src="/logo.svg" alt="" width={28} height={28} />
      {collapsed ? null : <span className="layout-logo-title">{site.productName}</span>}
    </div>
  );
}

/** Hides the fixed header while scrolling down (the "auto-hide header" setting). */
function useHeaderHidden(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) return;
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      setHidden(y > last && y > 64);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return enabled && hidden;
}

/** Main layout of spec section 2: side menu, header (reload, settings, language, avatar), multi-tab bar, footer. */
export function BasicLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const site = useSiteInfo();
  const settings = useLayoutSettings();
  const screens = Grid.useBreakpoint();
  const isMobile = screens.md === false;
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const headerHidden = useHeaderHidden(settings.fixedHeader && settings.autoHideHeader);

  const awaiting = session.info.awaitingOrganization;
  const table = useMemo(
    () => createRouteTable(session.routes, awaiting),
    [session.routes, awaiting],
  );
  const resolution = table.resolve(location.pathname);
  // A page that only redirects opens no tab, nor does a target refused right after sign-in
  // (the user is sent to their first page; a hidden 403 tab would linger behind it).
  const opens = useCallback(
    (loc: TabLocation & { state?: unknown }) => {
      const kind = table.resolve(loc.pathname).kind;
      return kind !== 'redirect' && !(kind === 'forbidden' && isFromSignIn(loc.state));
    },
    [table],
  );
  const tabs = useTabs(settings.multiTab, opens);

  const menuItems = useMemo(() => buildMenuItems(session.routes, tx), [session.routes, t]); // eslint-disable-line react-hooks/exhaustive-deps
  const keys = useMemo(() => collectKeys(menuItems), [menuItems]);
  const current = resolution.kind === 'page' ? resolution.route : table.find(location.pathname);
  const { selected, open } = menuKeysFor(current, keys);
  // The submenus of the current page open when it changes; the user may open or close others.
  const [openKeys, setOpenKeys] = useState<string[]>(open);
  const openSignature = open.join('|');
  const [seenOpen, setSeenOpen] = useState(openSignature);
  if (seenOpen !== openSignature) {
    setSeenOpen(openSignature);
    setOpenKeys((prev) => Array.from(new Set([...prev, ...open])));
  }

  const subjects = usePageSubjects();
  const titleOf = (key: string) => {
    const found = table.resolve(key);
    if (found.kind === 'page') {
      const title = tx(found.route.titleKey);
      // A page about one thing (a lift) names it once it has loaded: alias, else device number.
      const subject = subjects.get(key);
      return subject ? `${title} · ${subject}` : title;
    }
    return found.kind === 'forbidden' ? t('exception.403.title') : t('exception.404.title');
  };

  useEffect(() => {
    const key = tabs.state.activeKey;
    document.title = key ? `${titleOf(key)} - ${site.productName}` : site.productName;
  });

  if (resolution.kind === 'redirect') return <Navigate to={resolution.to} replace />;
  // Right after sign-in a redirect target the user may not see gives way to their first page.
  if (resolution.kind === 'forbidden' && isFromSignIn(location.state))
    return <Navigate to={table.home} replace />;

  const onLanguageChanged = (language: Language) => {
    void http.post('/auth/access/account/profile/update', { language }).catch(() => undefined);
  };
  const navTheme = settings.navTheme;
  const topMenu = settings.layout === 'topmenu' && !isMobile;
  const menu = (mode: 'inline' | 'horizontal') => (
    <Menu
      theme={navTheme}
      mode={mode}
      items={menuItems}
      selectedKeys={selected}
      {...(mode === 'inline' ? { openKeys, onOpenChange: setOpenKeys } : {})}
      onClick={({ key }) => {
        setDrawerOpen(false);
        void navigate(key);
      }}
      data-testid="side-menu"
    />
  );
  const activeKey = tabs.state.activeKey;
  const visibleTabs = settings.multiTab
    ? tabs.state.tabs
    : tabs.state.tabs.filter((tab) => tab.key === activeKey);

  return (
    <Layout
      className={`basic-layout${isMobile ? ' is-mobile' : ''}`}
      hasSider={!topMenu && !isMobile}
    >
      {!topMenu && !isMobile ? (
        <Layout.Sider
          theme={navTheme}
          width={232}
          collapsedWidth={64}
          collapsed={collapsed}
          trigger={null}
          className={`layout-sider${settings.fixSiderbar ? ' layout-sider-fixed' : ''}`}
        >
          <Logo collapsed={collapsed} theme={navTheme} />
          {menu('inline')}
        </Layout.Sider>
      ) : null}
      {isMobile ? (
        <OnceOpened open={drawerOpen}>
          <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} theme={navTheme}>
            <Logo collapsed={false} theme={navTheme} />
            {menu('inline')}
          </MenuDrawer>
        </OnceOpened>
      ) : null}
      <Layout className="layout-main">
        <Layout.Header
          className={`layout-header${settings.fixedHeader ? ' layout-header-fixed' : ''}${headerHidden ? ' layout-header-hidden' : ''}${topMenu ? ` layout-header-top layout-header-${navTheme}` : ''}`}
        >
          {isMobile ? (
            <Button
              type="text"
              icon={<MenuOutlined />}
              onClick={() => setDrawerOpen(true)}
              aria-label={t('layout.openMenu')}
              data-testid="menu-drawer-button"
            />
          ) : topMenu ? (
            <>
              <Logo collapsed={false} theme={navTheme} />
              <div className="layout-top-menu">{menu('horizontal')}</div>
            </>
          ) : (
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              onClick={() => setCollapsed((c) => !c)}
              aria-label={t(collapsed ? 'layout.expandMenu' : 'layout.collapseMenu')}
            />
          )}
          <div className="layout-header-spacer" />
          <div className="layout-header-actions">
            <Tooltip title={t('layout.reload')}>
              <Button
                type="text"
                icon={<ReloadOutlined />}
                aria-label={t('layout.reload')}
                data-testid="reload-tab"
                onClick={() => activeKey && tabs.reload(activeKey)}
              />
            </Tooltip>
            <Tooltip title={t('settings.title')}>
              <Button
                type="text"
                icon={<SettingOutlined />}
                aria-label={t('settings.title')}
                onClick={() => setSettingsOpen(true)}
                data-testid="open-settings"
              />
            </Tooltip>
            <Access check="alert.query">
              <Suspense fallback={null}>
                <NotificationBell />
              </Suspense>
            </Access>
            <LanguageSelect
              onChanged={onLanguageChanged}
              className={isMobile ? 'language-select-compact' : undefined}
            />
            <AvatarMenu compact={isMobile} />
          </div>
        </Layout.Header>
        {settings.multiTab ? <MultiTabBar tabs={tabs} titleOf={titleOf} /> : null}
        <Layout.Content
          className={`layout-content layout-content-${settings.contentWidth.toLowerCase()}`}
        >
          {visibleTabs.map((tab) => (
            <Activity key={tab.key} mode={tab.key === activeKey ? 'visible' : 'hidden'}>
              <TabContent tab={tab} table={table} />
            </Activity>
          ))}
        </Layout.Content>
        <Layout.Footer className="layout-footer">
          <div>{copyrightLine(site)}</div>
        </Layout.Footer>
      </Layout>
      <OnceOpened open={settingsOpen}>
        <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      </OnceOpened>
    </Layout>
  );
}
