import { describe, expect, it } from 'vitest';
import { forEachAtMost } from './at-most.ts';

describe('forEachAtMost', () => {
  it('runs every item once, never more than the limit at a time, starting them in order', async () => {
    const started: number[] = [];
    let inFlight = 0;
    let most = 0;
    await forEachAtMost([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5 * (n % 3)));
      inFlight -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await forEachAtMost([], 8, async () => void calls++);
    expect(calls).toBe(0);
  });
});
