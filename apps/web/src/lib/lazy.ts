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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function lazyPage<P extends ComponentType<any>>(
  load: () => Promise<{ default: P }>,
): LazyExoticComponent<P> {
  return lazy(withChunkTimeout(load));
}
