import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from '@liftlink/protocol';

/** A page's code did not arrive: a failed download, or none within 120 s (spec section 8). */
export class ChunkLoadError extends Error {
  constructor(cause?: unknown) {
    super('chunk load failed', { cause });
    this.name = 'ChunkLoadError';
  }
}

export function withChunkTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadError(new Error('timeout'))), timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(new ChunkLoadError(error));
        },
      );
    });
}

/** A lazy component whose code can be fetched before it renders (see app/routing/preload.ts). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export type LazyPage<P extends ComponentType<any>> = LazyExoticComponent<P> & {
  /** Starts loading the code now; the component then renders without waiting for it. */
  preload: () => void;
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyPage<P extends ComponentType<any>>(
  load: () => Promise<{ default: P }>,
): LazyPage<P> {
  const timed = withChunkTimeout(load);
  let pending: Promise<{ default: P }> | undefined;
  const once = () => {
    // A failed load is not kept: the page (or the next preload) tries again.
    pending ??= timed().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
  return Object.assign(lazy(once), { preload: () => void once().catch(() => undefined) });
}
