import type { ReactNode } from 'react';
import { Drawer } from 'antd';

/** The side menu as a drawer on a phone; its code downloads when it is first opened. */
export default function MenuDrawer({
  open,
  onClose,
  theme,
  children,
}: {
  open: boolean;
  onClose: () => void;
  theme: 'dark' | 'light';
  children: ReactNode;
}) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      size={256}
      closable={false}
      className={`menu-drawer menu-drawer-${theme}`}
      styles={{ body: { padding: 0 } }}
    >
      {children}
    </Drawer>
  );
}
