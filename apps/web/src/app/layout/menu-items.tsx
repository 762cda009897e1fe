import type { ReactNode } from 'react';
import type { MenuProps } from 'antd';
import {
  CloudOutlined,
  DashboardOutlined,
  SettingOutlined,
  ToolOutlined,
  UserOutlined,
  AppstoreOutlined,
} from '@ant-design/icons';
import type { RouteEntry } from '@liftlink/protocol';
import type { FlatRoute } from '../routing/route-table.ts';

const ICONS: Record<string, ReactNode> = {
  dashboard: <DashboardOutlined />,
  cloud: <CloudOutlined />,
  tool: <ToolOutlined />,
  setting: <SettingOutlined />,
  user: <UserOutlined />,
};

type MenuItem = Required<MenuProps>['items'][number];

/** The side (or top) menu from the user's routes; `hideInMenu` entries are left out. */
export function buildMenuItems(
  routes: readonly RouteEntry[],
  translate: (key: string) => string,
): MenuItem[] {
  const items: MenuItem[] = [];
  for (const route of routes) {
    if (route.meta?.hideInMenu) continue;
    const label = translate(route.meta?.title ?? route.name);
    const icon = route.meta?.icon ? (ICONS[route.meta.icon] ?? <AppstoreOutlined />) : undefined;
    const children = route.children ? buildMenuItems(route.children, translate) : [];
    if (children.length > 0) items.push({ key: route.path, icon, label, children });
    else
      items.push({
        key: route.path,
        icon,
        label: <span data-testid={`menu-${route.name}`}>{label}</span>,
      });
  }
  return items;
}

export interface MenuKeys {
  leaves: Set<string>;
  submenus: Set<string>;
}

export function collectKeys(
  items: readonly MenuItem[],
  into: MenuKeys = { leaves: new Set(), submenus: new Set() },
): MenuKeys {
  for (const item of items) {
    if (!item || !('key' in item) || item.key === undefined) continue;
    if ('children' in item && Array.isArray(item.children)) {
      into.submenus.add(String(item.key));
      collectKeys(item.children, into);
    } else into.leaves.add(String(item.key));
  }
  return into;
}

/** The entry to highlight for a route (itself, else its nearest menu ancestor) and the submenus to open. */
export function menuKeysFor(
  route: FlatRoute | undefined,
  keys: MenuKeys,
): { selected: string[]; open: string[] } {
  if (!route) return { selected: [], open: [] };
  const chain = [...route.parents, route.path];
  const selected = [...chain].reverse().find((path) => keys.leaves.has(path));
  return {
    selected: selected ? [selected] : [],
    open: chain.filter((path) => keys.submenus.has(path)),
  };
}
