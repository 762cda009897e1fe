import { describe, expect, it } from 'vitest';
import { RECONNECT_RULE, type ReconnectRule } from '@liftlink/protocol';
import { generateFleet, startFleet } from '../src/fleet.ts';
import { scaledReconnectRule } from '../src/mqtt-lift.ts';
import { startBroker, waitFor } from './harness.ts';

describe('reconnecting (docs/protocol.md, "Reconnecting")', () => {
  it('after a broker restart the lifts come back spread over the first-try window, not at one instant', async () => {
    const lifts = generateFleet(40, 'RC');
    // the rule's shape, with a 5 s window instead of 10 s to keep the test short
    const windowMs = 5_000;
    const broker = await startBroker();
    const fleet = await startFleet({ mqttUrl: broker.url, lifts, reconnectMs: windowMs, seed: 11, log: () => {} });
    try {
      expect(fleet.connectedCount()).toBe(lifts.length);
      const back = new Map<string, number>();
      const lostAt = await broker.restart((fresh) => fresh.on('client', (client) => back.has(client.id) || back.set(client.id, Date.now())));
      await waitFor(() => back.size === lifts.length, 60_000, 'every lift back');
      const offsets = [...back.values()].map((t) => t - lostAt).sort((a, b) => a - b);

      // one tenth of the window at most takes a third of the fleet (4 expected; a fixed
      // period would put all 40 in one), and the first and last tries are half a window apart or more
      const slices = new Map<number, number>();
      for (const o of offsets) slices.set(Math.floor(o / (windowMs / 10)), (slices.get(Math.floor(o / (windowMs / 10))) ?? 0) + 1);
      expect(Math.max(...slices.values())).toBeLessThanOrEqual(lifts.length / 3);
      expect(offsets.at(-1)! - offsets[0]!).toBeGreaterThanOrEqual(windowMs / 2);
      // and each lift is online again with a new session
      await waitFor(() => fleet.connectedCount() === lifts.length, 10_000, 'fleet connected');
    } finally {
      await fleet.stop();
      await broker.close();
    }
  });

  it("a lift waits for a slow broker's answer as long as the rule's connect timeout, and only then tries again", async () => {
    // The broker answers each login after 1.5 s, as a cluster under a storm does.
    const answerMs = 1_500;
    const broker = await startBroker();
    const tries = new Map<string, number>();
    const check = broker.broker.authenticate;
    broker.broker.authenticate = (client, username, password, done) => {
      tries.set(client.id, (tries.get(client.id) ?? 0) + 1);
      setTimeout(() => check.call(broker.broker, client, username, password, done), answerMs);
    };
    const quick = { baseMs: 100, capMs: 400, firstTryWindowMs: 100, stableMs: 60_000 };
    // startFleet returns once the lift is in, or after `waitMs`.
    const start = (deviceNo: string, connectTimeoutMs: number, waitMs: number) =>
      startFleet({ mqttUrl: broker.url, lifts: [{ deviceNo, kind: 'verticalHydraulic', floors: 2 }], connectTimeoutMs: waitMs, reconnectRule: { ...quick, connectTimeoutMs }, log: () => {} });
    const patient = await start('CT-0001', 4_000, 10_000);
    const hasty = await start('CT-0002', 1_000, 6_000);
    try {
      // Waiting long enough: in at the first login.
      expect(patient.connectedCount()).toBe(1);
      expect(tries.get('CT-0001')).toBe(1);
      // Giving up before the answer: the same login again and again, never in.
      expect(hasty.connectedCount()).toBe(0);
      expect(tries.get('CT-0002')).toBeGreaterThanOrEqual(3);
    } finally {
      await patient.stop();
      await hasty.stop();
      await broker.close();
    }
  });

  it('a lift refused for its credentials waits at least half the cap before every new try', async () => {
    const rule: ReconnectRule = { baseMs: 100, capMs: 1_000, firstTryWindowMs: 200, stableMs: 1_000, connectTimeoutMs: 10_000 };
    const broker = await startBroker({ 'RF-0001': 'right-secret' });
    const tries: number[] = [];
    const check = broker.broker.authenticate;
    broker.broker.authenticate = (client, username, password, done) => {
      if (username === 'RF-0001') tries.push(Date.now());
      check.call(broker.broker, client, username, password, done);
    };
    const fleet = await startFleet({
      mqttUrl: broker.url,
      lifts: [{ deviceNo: 'RF-0001', secret: 'wrong-secret', kind: 'verticalHydraulic', floors: 2 }],
      connectTimeoutMs: 300,
      reconnectRule: rule,
      log: () => {},
    });
    try {
      await waitFor(() => tries.length >= 4, 20_000, 'four tries');
      expect(fleet.connectedCount()).toBe(0);
      const gaps = tries.slice(1).map((t, i) => t - tries[i]!);
      // an unrefused lift would retry within [0, 200 ms) first; timers fire no earlier than set (1 ms of rounding)
      for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(rule.capMs / 2 - 1);
    } finally {
      await fleet.stop();
      await broker.close();
    }
  });

  it('the test scale keeps the shape of the rule', () => {
    const r = scaledReconnectRule(100);
    expect(r.firstTryWindowMs).toBe(100);
    expect(r.capMs / r.firstTryWindowMs).toBe(RECONNECT_RULE.capMs / RECONNECT_RULE.firstTryWindowMs);
    expect(r.baseMs / r.firstTryWindowMs).toBe(RECONNECT_RULE.baseMs / RECONNECT_RULE.firstTryWindowMs);
    expect(r.stableMs / r.firstTryWindowMs).toBe(RECONNECT_RULE.stableMs / RECONNECT_RULE.firstTryWindowMs);
  });
});
