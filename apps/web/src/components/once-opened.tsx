import { Suspense, useState, type ReactNode } from 'react';

/**
 * Renders its (lazily loaded) children from the first time `open` is true, and keeps
 * them after, so a dialog or drawer downloads on first use and still animates closed.
 */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened ? <Suspense fallback={null}>{children}</Suspense> : null;
}
