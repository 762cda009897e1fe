import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveClient, type LiveSocket } from './live-client.ts';
import type { LiftLiveMessage, LiveClientMessage } from '@liftlink/protocol';

class FakeSocket implements LiveSocket {
  readyState = 0;
  sent: LiveClientMessage[] = [];
  onopen: LiveSocket['onopen'] = null;
  onmessage: LiveSocket['onmessage'] = null;
  onclose: LiveSocket['onclose'] = null;
  onerror: LiveSocket['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data) as LiveClientMessage);
  }
  close(code = 1000) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  push(message: object) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
}

const LIFT = '6f1c2a3b-0000-4000-8000-000000000001';
const OTHER = '6f1c2a3b-0000-4000-8000-000000000002';

function setup() {
  const sockets: FakeSocket[] = [];
  const client = new LiveClient({
    url: () => 'ws://test/ws/live',
    token: () => 'tok',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    backoffMs: [1_000, 5_000],
    idleCloseMs: 2_000,
  });
  const last = () => sockets[sockets.length - 1]!;
  return { client, sockets, last };
}

describe('LiveClient', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('authenticates with the token, then subscribes once the server is ready', () => {
    const { client, last } = setup();
    client.subscribeLift(LIFT, () => undefined);
    const socket = last();
    socket.open();
    expect(socket.sent).toEqual([{ type: 'auth', token: 'tok' }]);
    socket.push({ type: 'ready' });
    // The cookie and the auth message may both answer "ready": subscribe only once.
    socket.push({ type: 'ready' });
    expect(socket.sent.slice(1)).toEqual([{ type: 'subscribe', liftIds: [LIFT] }]);
    expect(client.getState()).toBe('open');
  });

  it('hands control lease and approval changes to the listeners of that lift only (who controls it, live)', () => {
    const { client, last } = setup();
    const received: LiftLiveMessage[] = [];
    client.subscribeLift(LIFT, (m) => received.push(m));
    last().open();
    last().push({ type: 'ready' });
    const lease = {
      liftId: LIFT,
      epoch: 3,
      holderId: 'u1',
      holderName: 'Olga',
      acquiredAt: 't',
      expiresAt: 't',
    };
    last().push({
      type: 'lease',
      liftId: LIFT,
      lease,
      localUntil: null,
      ended: null,
      endedHolderId: null,
    });
    last().push({
      type: 'lease',
      liftId: 'another-lift',
      lease,
      localUntil: null,
      ended: null,
      endedHolderId: null,
    });
    expect(received.map((m) => m.type === 'lease' && m.lease?.holderName)).toEqual(['Olga']);
  });

  it("hands an incident change to that lift's listeners and to the fleet's (the incidents list)", () => {
    const { client, last } = setup();
    const lift: LiftLiveMessage[] = [];
    const fleet: unknown[] = [];
    client.subscribeLift(LIFT, (m) => lift.push(m));
    client.subscribeFleet((m) => fleet.push(m));
    last().open();
    last().push({ type: 'ready' });
    const incident = { id: 7, liftId: LIFT, state: 'acknowledged' };
    last().push({ type: 'incident', liftId: LIFT, incident });
    last().push({
      type: 'incident',
      liftId: OTHER,
      incident: { ...incident, id: 8, liftId: OTHER },
    });
    expect(lift.map((m) => m.type === 'incident' && m.incident.id)).toEqual([7]);
    expect(fleet).toHaveLength(2);
  });

  it('reconnects after a lost connection and resubscribes with since = the newest entry seen', () => {
    const { client, sockets, last } = setup();
    const received: LiftLiveMessage[] = [];
    client.subscribeLift(LIFT, (m) => received.push(m));
    client.subscribeFleet(() => undefined);
    last().open();
    last().push({ type: 'ready' });
    last().push({
      type: 'event',
      liftId: LIFT,
      id: 41,
      seq: 1,
      ts: 't',
      code: 'RZY2',
      floor: 1,
      fault: false,
    });
    last().push({
      type: 'event',
      liftId: LIFT,
      id: 42,
      seq: 2,
      ts: 't',
      code: 'RZGU',
      floor: null,
      fault: false,
    });
    expect(received.map((m) => m.type === 'event' && m.id)).toEqual([41, 42]);

    last().drop();
    expect(client.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    last().open();
    last().push({ type: 'ready' });
    expect(last().sent).toEqual([
      { type: 'auth', token: 'tok' },
      { type: 'subscribe', liftIds: [LIFT], since: { [LIFT]: 42 } },
      { type: 'subscribeFleet' },
    ]);
    // Replayed entries reach the listener like live ones.
    last().push({
      type: 'event',
      liftId: LIFT,
      id: 43,
      seq: 3,
      ts: 't',
      code: 'RZD2',
      floor: 2,
      fault: false,
    });
    expect(received).toHaveLength(3);
  });

  it('reconnects without an error when the server restarts (close code 1012)', () => {
    const { client, sockets, last } = setup();
    client.subscribeLift(LIFT, () => undefined);
    last().open();
    last().push({ type: 'ready' });
    expect(client.getState()).toBe('open');
    last().drop(1012);
    expect(client.getState()).toBe('reconnecting');
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
    last().open();
    last().push({ type: 'ready' });
    expect(client.getState()).toBe('open');
    expect(last().sent).toEqual([
      { type: 'auth', token: 'tok' },
      { type: 'subscribe', liftIds: [LIFT] },
    ]);
  });

  it('backs off further when reconnecting keeps failing, and starts over after success', () => {
    const { client, sockets, last } = setup();
    client.subscribeLift(LIFT, () => undefined);
    last().drop();
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(2);
    last().drop();
    vi.advanceTimersByTime(4_999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    last().open();
    last().push({ type: 'ready' });
    last().drop();
    vi.advanceTimersByTime(1_000);
    expect(sockets).toHaveLength(4);
  });

  it('asks for a catch-up after an HTTP page of the run log', () => {
    const { client, last } = setup();
    client.subscribeLift(LIFT, () => undefined);
    last().open();
    last().push({ type: 'ready' });
    client.catchUp(LIFT, 17);
    expect(last().sent.at(-1)).toEqual({
      type: 'subscribe',
      liftIds: [LIFT],
      since: { [LIFT]: 17 },
    });
  });

  it('stops after the server refuses the session and does not reconnect', () => {
    const { client, sockets, last } = setup();
    client.subscribeLift(LIFT, () => undefined);
    last().open();
    last().push({ type: 'error', code: 'auth.unauthorized' });
    last().close(4401);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.getState()).toBe('unauthorized');
  });

  it('keeps the newest status, gives a late listener the current state, and unsubscribes the last one', async () => {
    const { client, last } = setup();
    const first: LiftLiveMessage[] = [];
    const stopFirst = client.subscribeLift(LIFT, (m) => first.push(m));
    last().open();
    last().push({ type: 'ready' });
    const status = (seq: number, floor: number) => ({
      type: 'status',
      liftId: LIFT,
      seq,
      ts: 't',
      status: { mode: 'normal', floor, faults: [] },
    });
    last().push({ type: 'presence', liftId: LIFT, online: true, ts: 't' });
    last().push(status(5, 2));
    last().push(status(4, 1));
    expect(first.filter((m) => m.type === 'status')).toHaveLength(1);

    const second: LiftLiveMessage[] = [];
    const stopSecond = client.subscribeLift(LIFT, (m) => second.push(m));
    await Promise.resolve();
    expect(second.map((m) => m.type)).toEqual(['presence', 'status']);
    expect(second[1]!.type === 'status' && second[1].status.floor).toBe(2);

    stopFirst();
    expect(last().sent.filter((m) => m.type === 'unsubscribe')).toHaveLength(0);
    stopSecond();
    expect(last().sent.at(-1)).toEqual({ type: 'unsubscribe', liftIds: [LIFT] });
  });

  it('gives fleet listeners a digest of full statuses and closes the socket when nobody listens', () => {
    const { client, last } = setup();
    const fleet: unknown[] = [];
    const stopFleet = client.subscribeFleet((m) => fleet.push(m));
    const stopLift = client.subscribeLift(OTHER, () => undefined);
    last().open();
    last().push({ type: 'ready' });
    last().push({
      type: 'status',
      liftId: OTHER,
      seq: 1,
      ts: 't',
      status: { mode: 'lockout', floor: null, faults: ['EC'] },
    });
    last().push({ type: 'fleetStatus', liftId: LIFT, mode: 'normal', floor: 1, activeFault: null });
    expect(fleet).toEqual([
      { type: 'fleetStatus', liftId: OTHER, mode: 'lockout', floor: null, activeFault: 'EC' },
      { type: 'fleetStatus', liftId: LIFT, mode: 'normal', floor: 1, activeFault: null },
    ]);
    stopFleet();
    stopLift();
    const socket = last();
    vi.advanceTimersByTime(2_000);
    expect(socket.readyState).toBe(3);
    expect(client.getState()).toBe('idle');
  });

  it('tells a fleet page each time the server confirms its subscription, so it reads again what changed before', () => {
    const { client, last } = setup();
    const confirmed: string[] = [];
    const stopBell = client.subscribeFleet(
      () => undefined,
      () => confirmed.push('bell'),
    );
    client.subscribeFleet(
      () => undefined,
      () => confirmed.push('list'),
    );
    last().open();
    last().push({ type: 'ready' });
    // Sent, not yet taken by the server: an alert stored now would come without a message.
    expect(confirmed).toEqual([]);
    last().push({ type: 'fleetSubscribed', count: 2 });
    expect(confirmed).toEqual(['bell', 'list']);

    // After a lost connection the subscription is new again: whatever changed meanwhile is read again.
    last().drop();
    vi.advanceTimersByTime(1_000);
    last().open();
    last().push({ type: 'ready' });
    stopBell();
    last().push({ type: 'fleetSubscribed', count: 2 });
    expect(confirmed).toEqual(['bell', 'list', 'list']);
  });
});
