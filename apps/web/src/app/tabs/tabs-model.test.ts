import { describe, expect, it } from 'vitest';
import {
  closeAll,
  closeLeft,
  closeRight,
  closeTab,
  EMPTY_TABS,
  openTab,
  reloadTab,
  type TabsState,
} from './tabs-model.ts';

const loc = (pathname: string, search = '') => ({ pathname, search, hash: '' });

function withTabs(...paths: string[]): TabsState {
  return paths.reduce((state, p) => openTab(state, loc(p)), EMPTY_TABS);
}

describe('multi-tab rules', () => {
  it('opens a tab per visited route and focuses an existing one', () => {
    let state = withTabs('/a', '/b');
    expect(state.tabs.map((t) => t.key)).toEqual(['/a', '/b']);
    state = openTab(state, loc('/a', '?q=1'));
    expect(state.tabs.map((t) => t.key)).toEqual(['/a', '/b']);
    expect(state.activeKey).toBe('/a');
    expect(state.tabs[0]!.location.search).toBe('?q=1');
  });

  it('refuses to close the last tab', () => {
    const state = withTabs('/a');
    expect(closeTab(state, '/a')).toEqual({ state, notice: 'lastTab' });
    expect(closeAll(state, '/a').notice).toBe('lastTab');
  });

  it('closing the active tab shows its right neighbour, else the left one', () => {
    const state = openTab(withTabs('/a', '/b', '/c'), loc('/b'));
    const middle = closeTab(state, '/b');
    expect(middle.state.tabs.map((t) => t.key)).toEqual(['/a', '/c']);
    expect(middle.activate?.key).toBe('/c');
    const last = closeTab(withTabs('/a', '/b', '/c'), '/c');
    expect(last.activate?.key).toBe('/b');
    const inactive = closeTab(withTabs('/a', '/b', '/c'), '/a');
    expect(inactive.activate).toBeUndefined();
    expect(inactive.state.activeKey).toBe('/c');
  });

  it('says when there are no tabs on the left or right', () => {
    const state = withTabs('/a', '/b', '/c');
    expect(closeLeft(state, '/a').notice).toBe('noLeft');
    expect(closeRight(state, '/c').notice).toBe('noRight');
  });

  it('closes the tabs to the left, to the right, and all but the chosen one', () => {
    const state = withTabs('/a', '/b', '/c', '/d');
    expect(closeLeft(state, '/c').state.tabs.map((t) => t.key)).toEqual(['/c', '/d']);
    const right = closeRight(state, '/b');
    expect(right.state.tabs.map((t) => t.key)).toEqual(['/a', '/b']);
    expect(right.activate?.key).toBe('/b');
    const all = closeAll(state, '/b');
    expect(all.state.tabs.map((t) => t.key)).toEqual(['/b']);
    expect(all.activate?.key).toBe('/b');
  });

  it('reload remounts only the chosen tab', () => {
    const state = reloadTab(withTabs('/a', '/b'), '/a');
    expect(state.tabs.map((t) => t.reloadCount)).toEqual([1, 0]);
  });
});
