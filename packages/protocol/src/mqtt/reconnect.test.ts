import { describe, expect, it } from 'vitest';
import { seededRandom } from '../random.ts';
import { RECONNECT_RULE, ReconnectBackoff, reconnectBoundMs, reconnectDelayMs, refusedReconnectDelayMs } from './reconnect.ts';

const { baseMs, capMs, firstTryWindowMs, stableMs } = RECONNECT_RULE;

/** 1,000 lifts lose a stable connection at the same instant: how many make their first try in each second. */
function firstTriesPerSecond(random: () => number): number[] {
  const seconds = new Array<number>(Math.ceil(firstTryWindowMs / 1000)).fill(0);
  for (let i = 0; i < 1000; i += 1) {
    const lift = new ReconnectBackoff(random);
    lift.connected(0);
    const at = lift.nextDelayMs(stableMs);
    expect(at).toBeGreaterThanOrEqual(0);
    expect(at).toBeLessThan(firstTryWindowMs);
    seconds[Math.floor(at / 1000)]! += 1;
  }
  return seconds;
}

describe('reconnect rule', () => {
  it('waits within [0, min(cap, base·2^n)) at attempt n ≥ 1, never longer than the cap, and the first try within the window', () => {
    const random = seededRandom(1);
    for (let n = 0; n <= 40; n += 1) {
      const bound = n === 0 ? firstTryWindowMs : Math.min(capMs, baseMs * 2 ** n);
      expect(reconnectBoundMs(n)).toBe(bound);
      for (let i = 0; i < 200; i += 1) {
        const d = reconnectDelayMs(n, random);
        expect(d).toBeGreaterThanOrEqual(0);
        expect(d).toBeLessThan(bound);
      }
    }
    // the extremes of the random source
    expect(reconnectDelayMs(3, () => 0)).toBe(0);
    expect(reconnectDelayMs(3, () => 0.999_999)).toBe(Math.min(capMs, baseMs * 8) - 1);
    expect(reconnectBoundMs(10_000)).toBe(capMs);
    // no later try is spread thinner than the first
    for (let n = 1; n <= 10; n += 1) expect(reconnectBoundMs(n)).toBeGreaterThanOrEqual(firstTryWindowMs);
    expect(() => reconnectDelayMs(-1)).toThrow(RangeError);
    expect(() => reconnectDelayMs(1.5)).toThrow(RangeError);
    expect(() => reconnectDelayMs(0, () => 1)).toThrow(RangeError);
  });

  it("spreads 1,000 lifts' first tries over the window (a fixed period puts them all in one second)", () => {
    const seconds = firstTriesPerSecond(seededRandom(42));
    // uniform: 100 a second expected; no second gets more than 15 % of the fleet, and none is empty
    expect(Math.max(...seconds)).toBeLessThanOrEqual(150);
    expect(Math.min(...seconds)).toBeGreaterThanOrEqual(50);
    // the same check fails for lifts that all wait the same time (a fixed period)
    expect(Math.max(...firstTriesPerSecond(() => 0.2))).toBe(1000);
  });

  it('backs off with every failed try up to the cap, and after a refusal waits between half the cap and the cap', () => {
    const top = new ReconnectBackoff(() => 0.999_999);
    const waits = Array.from({ length: 8 }, (_, i) => top.nextDelayMs(i * 1000));
    expect(waits).toEqual([firstTryWindowMs - 1, ...[1, 2, 3, 4, 5, 6, 7].map((n) => Math.min(capMs, baseMs * 2 ** n) - 1)]);
    expect(waits.at(-1)).toBe(capMs - 1);

    const random = seededRandom(7);
    const refused = new ReconnectBackoff(random);
    for (let i = 0; i < 500; i += 1) {
      const d = refused.nextDelayMs(i, true);
      expect(d).toBeGreaterThanOrEqual(capMs / 2);
      expect(d).toBeLessThan(capMs);
    }
    expect(refusedReconnectDelayMs(() => 0)).toBe(capMs / 2);
    // a refused lift that then cannot reach the broker at all stays at the cap's bound
    expect(refused.nextAttempt).toBeGreaterThanOrEqual(1);
    expect(reconnectBoundMs(refused.nextAttempt)).toBe(capMs);
    // one refusal right after losing a stable connection also goes to the cap
    const once = new ReconnectBackoff(() => 0);
    once.connected(0);
    expect(once.nextDelayMs(stableMs, true)).toBe(capMs / 2);
    expect(reconnectBoundMs(once.nextAttempt)).toBe(capMs);
  });

  it('starts again at the first-try window after a connection that stayed up long enough, not after a short one', () => {
    const lift = new ReconnectBackoff(() => 0.999_999);
    let now = 0;
    for (let i = 0; i < 6; i += 1) now += lift.nextDelayMs(now);
    expect(lift.nextAttempt).toBe(6);
    // connected, dropped before it was stable: the backoff keeps growing
    lift.connected(now);
    now += stableMs - 1;
    expect(lift.nextDelayMs(now)).toBe(reconnectBoundMs(6) - 1);
    expect(lift.nextAttempt).toBe(7);
    // connected for the stable time: the next loss is a first try again
    lift.connected(now);
    now += stableMs;
    expect(lift.nextDelayMs(now)).toBe(firstTryWindowMs - 1);
    expect(lift.nextAttempt).toBe(1);
  });
});
