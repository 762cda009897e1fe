import { describe, expect, it } from 'vitest';
import { AckCoalescer } from './ack-coalescer.ts';

/** A coalescer whose flushes run when the test says so; `acks` is what went to the broker. */
function coalescer() {
  const acks: [number, boolean][] = [];
  const flushes: (() => void)[] = [];
  const c = new AckCoalescer(
    (tag, allUpTo) => acks.push([tag, allUpTo]),
    (flush) => flushes.push(flush),
  );
  const tick = () => flushes.splice(0).forEach((f) => f());
  return { c, acks, tick };
}

describe('ingest acknowledgements', () => {
  it('acknowledges a stored batch with one frame', () => {
    const { c, acks, tick } = coalescer();
    for (let tag = 1; tag <= 500; tag++) c.delivered(tag);
    for (let tag = 1; tag <= 500; tag++) c.finish(tag);
    tick();
    expect(acks).toEqual([[500, true]]);
    expect(c.unacknowledged).toBe(0);
  });

  it('never acknowledges a message that is not stored, nor anything with it', () => {
    const { c, acks, tick } = coalescer();
    for (let tag = 1; tag <= 6; tag++) c.delivered(tag);
    // 3 is not stored (its batch is still committing, or was given up at shutdown).
    for (const tag of [1, 2, 4, 5, 6]) c.finish(tag);
    tick();
    expect(acks).toEqual([
      [2, true],
      [4, false],
      [5, false],
      [6, false],
    ]);
    expect(c.unacknowledged).toBe(1);
    // Once 3 is stored it is acknowledged alone: 4 to 6 went already.
    c.finish(3);
    tick();
    expect(acks.at(-1)).toEqual([3, false]);
    expect(c.unacknowledged).toBe(0);
  });

  it('acknowledges a single message without `multiple`, and later batches from where the last ended', () => {
    const { c, acks, tick } = coalescer();
    c.delivered(1);
    c.finish(1);
    tick();
    for (let tag = 2; tag <= 4; tag++) c.delivered(tag);
    c.finish(3);
    c.finish(2);
    tick();
    c.finish(4);
    tick();
    expect(acks).toEqual([
      [1, false],
      [3, true],
      [4, false],
    ]);
  });
});
