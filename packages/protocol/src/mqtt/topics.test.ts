import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIFT_TOPIC_KINDS, liftMayPublish, liftMaySubscribe, liftTopic, parseLiftTopic, uplinkSubscription } from './topics.ts';

describe('lift topics', () => {
  it('round-trips every kind', () => {
    for (const kind of LIFT_TOPIC_KINDS) expect(parseLiftTopic(liftTopic('SIM-0001', kind))).toEqual({ deviceNo: 'SIM-0001', kind });
    expect(liftTopic('LL-42', 'cmd/ack')).toBe('lifts/LL-42/cmd/ack');
  });

  it('rejects wildcards, foreign prefixes and malformed topics', () => {
    for (const topic of [
      'lifts/+/status',
      'lifts/#',
      'lifts/SIM-0001/#',
      'lifts/SIM-0001/+',
      'lifts/SIM-0001/config/+',
      'other/SIM-0001/status',
      '/lifts/SIM-0001/status',
      'lifts/SIM-0001/status/',
      'lifts/sim-0001/status',
      'lifts/SIM 1/status',
      'lifts/ABC/status',
      'lifts/SIM-0001/unknown',
      'lifts/SIM-0001',
      '$share/g/lifts/SIM-0001/status',
      '',
    ]) {
      expect(parseLiftTopic(topic), topic).toBeNull();
    }
  });

  it('never accepts a topic whose device part is not a valid device number', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (deviceNo) => {
        const parsed = parseLiftTopic(`lifts/${deviceNo}/status`);
        if (parsed) expect(parsed.deviceNo).toMatch(/^[A-Z0-9-]{4,32}$/);
      }),
    );
  });

  it('refuses to build a topic for an invalid device number', () => {
    expect(() => liftTopic('+', 'status')).toThrow();
    expect(() => liftTopic('A/B/C', 'status')).toThrow();
  });

  it('builds the cloud subscriptions, shared or not', () => {
    expect(uplinkSubscription('status')).toBe('lifts/+/status');
    expect(uplinkSubscription('cmd/ack', 'ingest')).toBe('$share/ingest/lifts/+/cmd/ack');
  });

  it('lets a lift publish only its own uplink and subscribe only its own downlink topics', () => {
    expect(liftMayPublish('LIFT-A', 'lifts/LIFT-A/status')).toBe(true);
    expect(liftMayPublish('LIFT-A', 'lifts/LIFT-B/status')).toBe(false);
    expect(liftMayPublish('LIFT-A', 'lifts/LIFT-A/cmd')).toBe(false);
    expect(liftMaySubscribe('LIFT-A', 'lifts/LIFT-A/cmd')).toBe(true);
    expect(liftMaySubscribe('LIFT-A', 'lifts/LIFT-A/config/set')).toBe(true);
    expect(liftMaySubscribe('LIFT-A', 'lifts/LIFT-A/status')).toBe(false);
    expect(liftMaySubscribe('LIFT-A', 'lifts/LIFT-B/cmd')).toBe(false);
    expect(liftMaySubscribe('LIFT-A', 'lifts/+/cmd')).toBe(false);
    expect(liftMaySubscribe('LIFT-A', 'lifts/LIFT-A/#')).toBe(false);
    expect(liftMaySubscribe('LIFT-A', '#')).toBe(false);
  });
});
