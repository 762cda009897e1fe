import { useLayoutEffect, useRef } from 'react';

/**
 * Resets a dialog's form each time it opens (each time `openKey` becomes a new value that
 * is not null, false or undefined). A layout effect on purpose: it runs before the dialog is
 * painted, so it can never come after the user's first click. As a passive effect it could
 * on a slow device, and a reset drops the validation in flight with its messages: "Save"
 * on empty fields would then show nothing.
 */
export function useResetOnOpen(openKey: unknown, reset: () => void): void {
  const latest = useRef(reset);
  useLayoutEffect(() => {
    latest.current = reset;
  });
  useLayoutEffect(() => {
    if (openKey !== null && openKey !== undefined && openKey !== false) latest.current();
  }, [openKey]);
}
