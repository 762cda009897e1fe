import { describe, expect, it } from 'vitest';
import { initialLiftStatus } from '../device/status.ts';
import { LIVE_SUBSCRIBE_MAX, fleetStatusOf } from './live-messages.ts';
import { parseLiveClientMessage } from './live.ts';

const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const text = (message: unknown) => JSON.stringify(message);

describe('live client messages', () => {
  it('accepts each message a browser sends', () => {
    expect(parseLiveClientMessage(text({ type: 'auth', token: 'abc' }))).toEqual({ message: { type: 'auth', token: 'abc' } });
    expect(parseLiveClientMessage(text({ type: 'subscribe', liftIds: [LIFT], since: { [LIFT]: 42 } }))).toEqual({
      message: { type: 'subscribe', liftIds: [LIFT], since: { [LIFT]: 42 } },
    });
    expect(parseLiveClientMessage(text({ type: 'unsubscribe', liftIds: [LIFT] }))).toEqual({ message: { type: 'unsubscribe', liftIds: [LIFT] } });
    expect(parseLiveClientMessage(text({ type: 'subscribeFleet' }))).toEqual({ message: { type: 'subscribeFleet' } });
    expect(parseLiveClientMessage(text({ type: 'ping' }))).toEqual({ message: { type: 'ping' } });
  });

  it('answers text that is not JSON as malformed', () => {
    expect(parseLiveClientMessage('{"type":')).toEqual({ error: 'request.malformed' });
  });

  it('refuses unknown types, unknown fields, bad lift ids and too many lifts', () => {
    const refused = [
      { type: 'shout' },
      { type: 'ping', extra: 1 },
      { type: 'subscribe', liftIds: [] },
      { type: 'subscribe', liftIds: ['not-a-uuid'] },
      { type: 'subscribe', liftIds: [LIFT], since: { [LIFT]: -1 } },
      { type: 'subscribe', liftIds: Array.from({ length: LIVE_SUBSCRIBE_MAX + 1 }, () => LIFT) },
      { type: 'auth', token: '' },
      { type: 'auth', token: 'x'.repeat(201) },
      [],
      null,
    ];
    for (const message of refused) expect(parseLiveClientMessage(text(message))).toEqual({ error: 'validation.failed' });
  });
});

describe('fleet status digest', () => {
  it('carries the mode, the floor and the first active fault', () => {
    const status = { ...initialLiftStatus(2), mode: 'emergency' as const, faults: ['EC' as const, 'EA' as const] };
    expect(fleetStatusOf({ type: 'status', liftId: LIFT, seq: 7, ts: '2026-01-01T00:00:00.000Z', status })).toEqual({
      type: 'fleetStatus',
      liftId: LIFT,
      mode: 'emergency',
      floor: 2,
      activeFault: 'EC',
    });
    expect(fleetStatusOf({ type: 'status', liftId: LIFT, seq: 8, ts: '2026-01-01T00:00:01.000Z', status: initialLiftStatus(null) })).toMatchObject({
      floor: null,
      activeFault: null,
    });
  });
});
