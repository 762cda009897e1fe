import type { ComponentType } from 'react';
import type { LiftInfo } from '@liftlink/protocol';

/**
 * A tab another feature adds to the lift page (a feature never imports another: the pages
 * are composed in app/routing/pages.ts). `key` is the tab's `data-node-key`.
 */
export interface LiftPageTab {
  key: string;
  Label: ComponentType;
  Panel: ComponentType<{ info: LiftInfo }>;
  /** Whether this user sees the tab on this lift; shown to all without it. */
  shown?: (info: LiftInfo) => boolean;
}
