import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApp } from '../../lib/use-app.ts';
import { useLocation, useNavigate } from 'react-router';
import {
  closeAll,
  closeLeft,
  closeRight,
  closeTab,
  EMPTY_TABS,
  openTab,
  reloadTab,
  type TabLocation,
  type TabsChange,
  type TabsState,
} from './tabs-model.ts';

export interface TabsApi {
  state: TabsState;
  close(key: string): void;
  closeLeft(key: string): void;
  closeRight(key: string): void;
  closeAll(key: string): void;
  reload(key: string): void;
  activate(key: string): void;
}

function locationOf(location: TabLocation): TabLocation {
  return { pathname: location.pathname, search: location.search, hash: location.hash };
}

/**
 * The open tabs, driven by the URL: each visited location opens (or focuses) its tab.
 * `enabled` false (multi-tab switched off) keeps only the current page.
 */
export function useTabs(
  enabled: boolean,
  opens: (location: TabLocation & { state?: unknown }) => boolean,
): TabsApi {
  const { t } = useTranslation();
  const { message } = useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<TabsState>(EMPTY_TABS);
  const [seen, setSeen] = useState<{ key: string; enabled: boolean } | null>(null);

  // Derived from the location during render, so the first paint already shows the tab.
  const seenKey = `${location.key}|${location.pathname}${location.search}${location.hash}`;
  if (seen?.key !== seenKey || seen.enabled !== enabled) {
    setSeen({ key: seenKey, enabled });
    if (opens(location))
      setState((prev) => openTab(enabled ? prev : EMPTY_TABS, locationOf(location)));
  }

  const apply = useCallback(
    (change: TabsChange) => {
      if (change.notice) {
        void message.info({ key: 'tabs.notice', content: t(`tabs.${change.notice}`) });
        return;
      }
      setState(change.state);
      if (change.activate) void navigate(change.activate.location);
    },
    [message, navigate, t],
  );

  return {
    state,
    close: (key) => apply(closeTab(state, key)),
    closeLeft: (key) => apply(closeLeft(state, key)),
    closeRight: (key) => apply(closeRight(state, key)),
    closeAll: (key) => apply(closeAll(state, key)),
    reload: (key) => setState((prev) => reloadTab(prev, key)),
    activate: (key) => {
      const tab = state.tabs.find((item) => item.key === key);
      if (tab && key !== state.activeKey) void navigate(tab.location);
    },
  };
}
