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

  it('stores a run-log entry in the next batch, ahead of a backlog of statuses, with its lift\'s earlier messages and every lift in order', async () => {
    type Message = { lift: string; kind: 'status' | 'event'; n: number };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const batches: Message[][] = [];
    const batcher = new Batcher<Message>({
      maxBatch: 1000,
      maxWaitMs: 1,
      store: async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate; // the database is busy: a backlog forms
      },
      priority: { urgent: (m) => m.kind === 'event', senderOf: (m) => m.lift },
    });
    const first = batcher.add({ lift: 'L-first', kind: 'status', n: -1 });
    await new Promise((r) => setTimeout(r, 10));
    // 3,000 statuses of 1,500 lifts queue behind it, then lift L-7 reports a fault.
    const backlog: Message[] = Array.from({ length: 3000 }, (_, n) => ({ lift: `L-${n % 1500}`, kind: 'status', n }));
    const fault: Message = { lift: 'L-7', kind: 'event', n: 3000 };
    const added = [...backlog, fault].map((m) => batcher.add(m));
    release();
    await Promise.all([first, ...added]);

    // In arrival order the fault would have waited for three batches of statuses.
    expect(batches[1]).toContainEqual(fault);
    expect(batches[1]!.filter((m) => m.lift === 'L-7').map((m) => m.n)).toEqual([7, 1507, 3000]);
    expect(batches.slice(1).map((b) => b.length)).toEqual([1000, 1000, 1000, 1]);
    // Every message stored once, and each lift's in the order it sent them.
    const stored = batches.flat().slice(1);
    expect(stored).toHaveLength(3001);
    const byLift = new Map<string, number[]>();
    for (const m of stored) byLift.set(m.lift, [...(byLift.get(m.lift) ?? []), m.n]);
    for (const ns of byLift.values()) expect(ns).toEqual([...ns].sort((a, b) => a - b));
    expect(byLift.size).toBe(1500);
    await batcher.close();
  });
});
