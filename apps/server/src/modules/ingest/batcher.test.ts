import { describe, expect, it } from 'vitest';
import { Batcher } from './batcher.ts';

const dataError = () => Object.assign(new Error('date/time field value out of range'), { code: '22008' });
const connectionLost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
const isDataError = (err: unknown) => /^2[23]/.test(String((err as { code?: string }).code));

describe('ingest batcher', () => {
  it('stores every message around one the database refuses, and reports only that one', async () => {
    const stored: number[] = [];
    const dropped: number[] = [];
    const batcher = new Batcher<number>({
      maxBatch: 100,
      maxWaitMs: 5,
      store: async (items) => {
        if (items.includes(13)) throw dataError();
        stored.push(...items);
      },
      isDataError,
      onDrop: (item) => dropped.push(item),
    });
    const messages = Array.from({ length: 40 }, (_, i) => i);
    await Promise.all(messages.map((m) => batcher.add(m)));
    expect(dropped).toEqual([13]);
    expect(stored.sort((a, b) => a - b)).toEqual(messages.filter((m) => m !== 13));
    await batcher.close();
  });

  it('keeps a batch whole and retries it while the database is away, losing nothing', async () => {
    let failures = 2;
    const batches: number[][] = [];
    const batcher = new Batcher<number>({
      maxBatch: 100,
      maxWaitMs: 5,
      store: async (items) => {
        if (failures-- > 0) throw connectionLost();
        batches.push(items);
      },
      isDataError,
      onDrop: () => {
        throw new Error('nothing may be dropped for a lost connection');
      },
    });
    await Promise.all([1, 2, 3].map((m) => batcher.add(m)));
    expect(batches).toEqual([[1, 2, 3]]);
    await batcher.close();
  });
});
