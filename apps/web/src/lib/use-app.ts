import { useContext } from 'react';
import AppContext, { type useAppProps } from 'antd/es/app/context';

/**
 * `App.useApp()` without importing antd's `App` component, which brings the modal code:
 * for the shell's own parts (tab bar, avatar menu), whose first download leaves it out.
 */
export function useApp(): useAppProps {
  return useContext(AppContext);
}
