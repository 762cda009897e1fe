/**
 * The multi-tab bar of spec section 2 as pure state transitions: every visited route
 * opens a tab (keyed by its path); the last tab cannot close; close current, right,
 * left, all; "no tabs on the left/right" when there is nothing to close.
 */
export interface TabLocation {
  pathname: string;
  search: string;
  hash: string;
}

export interface Tab {
  key: string;
  location: TabLocation;
  /** Bumped by the reload button: the page remounts and fetches again. */
  reloadCount: number;
}

export interface TabsState {
  tabs: Tab[];
  activeKey: string | null;
}

export type TabNotice = 'lastTab' | 'noLeft' | 'noRight';

export interface TabsChange {
  state: TabsState;
  /** A message for the user when nothing could be done. */
  notice?: TabNotice;
  /** The tab to show when the active one went away. */
  activate?: Tab;
}

export const EMPTY_TABS: TabsState = { tabs: [], activeKey: null };

export function tabKey(location: Pick<TabLocation, 'pathname'>): string {
  return location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
}

/** Opens (or focuses) the tab of a visited location, keeping its latest query string. */
export function openTab(state: TabsState, location: TabLocation): TabsState {
  const key = tabKey(location);
  const existing = state.tabs.find((tab) => tab.key === key);
  if (existing) {
    const same =
      existing.location.search === location.search && existing.location.hash === location.hash;
    const tabs = same
      ? state.tabs
      : state.tabs.map((tab) => (tab.key === key ? { ...tab, location: { ...location } } : tab));
    return tabs === state.tabs && state.activeKey === key ? state : { tabs, activeKey: key };
  }
  return {
    tabs: [...state.tabs, { key, location: { ...location }, reloadCount: 0 }],
    activeKey: key,
  };
}

/** Keeps `keep`; when the active tab went away, the neighbour (right, else left) takes over. */
function keepOnly(state: TabsState, keep: (tab: Tab, index: number) => boolean): TabsChange {
  const tabs = state.tabs.filter(keep);
  if (tabs.some((tab) => tab.key === state.activeKey))
    return { state: { tabs, activeKey: state.activeKey } };
  const activeIndex = state.tabs.findIndex((tab) => tab.key === state.activeKey);
  const right = state.tabs.slice(activeIndex + 1).find((tab) => tabs.includes(tab));
  const left = [...state.tabs.slice(0, Math.max(activeIndex, 0))]
    .reverse()
    .find((tab) => tabs.includes(tab));
  const next = right ?? left ?? tabs[0];
  return { state: { tabs, activeKey: next?.key ?? null }, activate: next };
}

export function closeTab(state: TabsState, key: string): TabsChange {
  if (state.tabs.length <= 1) return { state, notice: 'lastTab' };
  if (!state.tabs.some((tab) => tab.key === key)) return { state };
  return keepOnly(state, (tab) => tab.key !== key);
}

export function closeLeft(state: TabsState, key: string): TabsChange {
  const index = state.tabs.findIndex((tab) => tab.key === key);
  if (index <= 0) return { state, notice: 'noLeft' };
  return keepOnly(state, (_tab, i) => i >= index);
}

export function closeRight(state: TabsState, key: string): TabsChange {
  const index = state.tabs.findIndex((tab) => tab.key === key);
  if (index < 0 || index >= state.tabs.length - 1) return { state, notice: 'noRight' };
  return keepOnly(state, (_tab, i) => i <= index);
}

/** "Close all" keeps the tab the menu was opened on: the last tab cannot close. */
export function closeAll(state: TabsState, key: string): TabsChange {
  if (state.tabs.length <= 1) return { state, notice: 'lastTab' };
  const change = keepOnly(state, (tab) => tab.key === key);
  const kept = change.state.tabs[0];
  return kept && change.state.activeKey !== kept.key
    ? { state: { ...change.state, activeKey: kept.key }, activate: kept }
    : change;
}

export function reloadTab(state: TabsState, key: string): TabsState {
  return {
    ...state,
    tabs: state.tabs.map((tab) =>
      tab.key === key ? { ...tab, reloadCount: tab.reloadCount + 1 } : tab,
    ),
  };
}
