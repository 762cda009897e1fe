import { describe, expect, it } from 'vitest';
import { jsonArrayParts } from './json-parts.ts';

describe('JSON arrays within a size', () => {
  it('splits items in order into arrays no longer than the bound, a longer item alone', () => {
    const items = [...Array.from({ length: 30 }, (_, i) => ({ n: i })), { long: 'x'.repeat(200) }, { n: 30 }];
    const parts = [...jsonArrayParts(items, 100)];
    for (const part of parts.slice(0, -2)) expect(Buffer.byteLength(part.json)).toBeLessThanOrEqual(100);
    expect(parts.flatMap((p) => JSON.parse(p.json) as unknown[])).toEqual(items);
    expect(parts.map((p) => p.count)).toEqual(parts.map((p) => (JSON.parse(p.json) as unknown[]).length));
    expect(parts.at(-2)!.count).toBe(1);
    expect([...jsonArrayParts([], 100)]).toEqual([]);
  });

  it('serialises only what the parts asked for need', () => {
    let serialised = 0;
    const items = Array.from({ length: 1_000 }, (_, i) => ({ toJSON: () => (serialised++, { n: i }) }));
    const first = jsonArrayParts(items, 100).next().value!;
    expect(first.count).toBeGreaterThan(1);
    // The part's items and the one that did not fit.
    expect(serialised).toBe(first.count + 1);
  });
});
