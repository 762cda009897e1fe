/**
 * Runs `task` for every item, at most `limit` at a time, in the items' order; resolves when
 * all have ended. `task` handles its own errors: one that throws rejects the whole run.
 */
export async function forEachAtMost<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
