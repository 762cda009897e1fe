import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liftTopic } from '@liftlink/protocol';
import { startFleet, type FleetHandle } from '../src/fleet.ts';
import { Observer, startBroker, waitFor } from './harness.ts';

const NO = 'SIM-0001';
const expiresIn = (ms: number) => new Date(Date.now() + ms).toISOString();
/** The control lease a movement command carries (docs/remote-control.md). */
const LEASE = { epoch: 1, holder: 'Operator' };

describe('simulated lift on a real MQTT broker', () => {
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let observer: Observer;
  let fleet: FleetHandle;

  beforeAll(async () => {
    broker = await startBroker();
    observer = await Observer.connect(broker.url);
    fleet = await startFleet({
      mqttUrl: broker.url,
      lifts: [
        { deviceNo: NO, kind: 'inclinedStraightRack', floors: 2 },
        { deviceNo: 'SIM-0002', kind: 'verticalHydraulic', floors: 3 },
      ],
      tickMs: 50,
      statusIdleMs: 300,
      reconnectMs: 100,
      log: () => {},
    });
    // Every test starts from a fleet that has announced itself, whatever runs first.
    await waitFor(() => observer.of('presence', NO).some((p) => p.online) && observer.of('presence', 'SIM-0002').some((p) => p.online), 10_000, 'fleet online');
  });

  afterAll(async () => {
    await fleet?.stop();
    await observer?.close();
    await broker?.close();
  });

  it('announces itself: presence online (retained), configuration, status and RZOP', async () => {
    await waitFor(() => observer.of('status', NO).length > 0, 10_000, 'status');
    expect(observer.of('presence', NO)[0]).toMatchObject({ online: true, firmware: 'SIM-1.0.0' });
    expect(observer.of('config/report', NO)[0]).toMatchObject({ version: 0, config: { parkingMemory2: expect.any(Number) } });
    await waitFor(() => observer.of('event', NO).some((e) => e.code === 'RZOP'), 5_000, 'RZOP');
    expect(observer.of('status', 'SIM-0002')[0]?.status.floor).toBe(1);
    expect(fleet.connectedCount()).toBe(2);

    // the retained presence reaches a subscriber that comes later
    const late = await Observer.connect(broker.url);
    try {
      await waitFor(() => late.of('presence', NO).length > 0, 5_000, 'retained presence');
      expect(late.of('presence', NO)[0]?.online).toBe(true);
    } finally {
      await late.close();
    }
  });

  it('sends status snapshots periodically, every uplink message with a strictly increasing seq', async () => {
    // Only what the lift sends from now on: a reconnect in another test may have delivered
    // the messages it held back after newer ones, which is allowed (the server orders by seq).
    const start = observer.messages.length;
    const before = observer.of('status', NO).length;
    await waitFor(() => observer.of('status', NO).length >= before + 4, 5_000, 'periodic status');
    const seqs = observer.messages.slice(start).filter((m) => m.deviceNo === NO && 'seq' in m.message).map((m) => (m.message as { seq: number }).seq);
    expect(seqs.length).toBeGreaterThan(3);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('answers a command with accepted then done, and a duplicate id with the stored result only', async () => {
    const cmd = { commandId: 'cmd-summon-1', name: 'summon', args: { floor: 1 }, expiresAt: expiresIn(15_000), lease: LEASE };
    await observer.send(liftTopic(NO, 'cmd'), cmd);
    await waitFor(() => observer.of('cmd/ack', NO).some((a) => a.commandId === 'cmd-summon-1' && a.state === 'done'), 5_000, 'done');
    await observer.send(liftTopic(NO, 'cmd'), cmd);
    await waitFor(() => observer.of('cmd/ack', NO).filter((a) => a.commandId === 'cmd-summon-1').length === 3, 5_000, 'repeated answer');
    expect(observer.of('cmd/ack', NO).filter((a) => a.commandId === 'cmd-summon-1').map((a) => a.state)).toEqual(['accepted', 'done', 'done']);
    expect(observer.of('event', NO).filter((e) => e.code === 'RZY1')).toHaveLength(1);
  });

  it('refuses an expired command and bad arguments with their reasons', async () => {
    await observer.send(liftTopic(NO, 'cmd'), { commandId: 'cmd-old', name: 'pause', args: {}, expiresAt: expiresIn(-1_000) });
    await observer.send(liftTopic(NO, 'cmd'), { commandId: 'cmd-bad', name: 'summon', args: { floor: 3 }, expiresAt: expiresIn(15_000), lease: LEASE });
    const old = await waitFor(() => observer.of('cmd/ack', NO).find((a) => a.commandId === 'cmd-old'), 5_000, 'expired answer');
    const bad = await waitFor(() => observer.of('cmd/ack', NO).find((a) => a.commandId === 'cmd-bad'), 5_000, 'badArgs answer');
    expect(old).toMatchObject({ state: 'rejected', reason: 'expired' });
    expect(bad).toMatchObject({ state: 'rejected', reason: 'badArgs' });
  });

  it('reads and writes its configuration with versions', async () => {
    await observer.send(liftTopic(NO, 'config/get'), { commandId: 'get-1' });
    const report = await waitFor(() => observer.of('config/report', NO).find((r) => r.commandId === 'get-1'), 5_000, 'config report');
    await observer.send(liftTopic(NO, 'config/set'), {
      commandId: 'set-1',
      version: report.version,
      config: { ...report.config, voiceLanguage: 'en' },
      expiresAt: expiresIn(15_000),
    });
    const applied = await waitFor(() => observer.of('config/report', NO).find((r) => r.commandId === 'set-1'), 5_000, 'applied config');
    expect(applied.version).toBe(report.version + 1);
    expect(applied.config.voiceLanguage).toBe('en');
    await observer.send(liftTopic(NO, 'config/set'), { commandId: 'set-2', version: applied.version, config: { ...applied.config, ratedLoad: 5 }, expiresAt: expiresIn(15_000) });
    const refused = await waitFor(() => observer.of('cmd/ack', NO).find((a) => a.commandId === 'set-2'), 5_000, 'refused config');
    expect(refused).toMatchObject({ state: 'rejected', reason: 'configInvalid', issues: [{ path: 'ratedLoad', message: 'validation.min' }] });
  });

  it('ignores messages for another lift or with a broken payload', async () => {
    await observer.send(liftTopic(NO, 'cmd'), { commandId: 'x', name: 'explode', args: {}, expiresAt: expiresIn(15_000) });
    await observer.client.publishAsync(liftTopic(NO, 'cmd'), '{not json', { qos: 1 });
    await observer.send(liftTopic(NO, 'config/get'), { commandId: 'after-junk' });
    await waitFor(() => observer.of('cmd/ack', NO).find((a) => a.commandId === 'after-junk'), 5_000, 'still answering');
    expect(observer.of('cmd/ack', NO).find((a) => a.commandId === 'x')).toBeUndefined();
  });

  it('on a dropped connection the broker publishes its last will, and what it said meanwhile arrives after reconnecting', async () => {
    const lift = fleet.lift(NO)!;
    const onlineBefore = observer.of('presence', NO).filter((p) => p.online).length;
    lift.dropConnection();
    lift.machine.injectFault('ED');
    try {
      lift.flush();
      const will = await waitFor(() => observer.of('presence', NO).find((p) => !p.online), 10_000, 'last will');
      expect(will.seq).toBe(will.session);
      await waitFor(() => observer.of('presence', NO).filter((p) => p.online).length > onlineBefore, 10_000, 'online again');
      const online = observer.of('presence', NO).filter((p) => p.online).at(-1)!;
      expect(online.session).toBeGreaterThan(will.session);
      await waitFor(() => observer.of('event', NO).some((e) => e.code === 'ED'), 10_000, 'event sent while offline');
    } finally {
      lift.machine.clearFaults();
    }
  });

  it('takes the lease of a cmd: refuses noLease, leaseHeld, and localControl after its platform button is pressed; pause stays open', async () => {
    // A lift of its own: local use closes remote control for 30 s, the shared fleet must not see it.
    const no = 'SIM-0004';
    const own = await startFleet({ mqttUrl: broker.url, lifts: [{ deviceNo: no, kind: 'inclinedStraightRack', floors: 2 }], tickMs: 50, statusIdleMs: 300, reconnectMs: 100, log: () => {} });
    try {
      await waitFor(() => observer.of('presence', no).some((p) => p.online), 5_000, 'online');
      const answer = async (commandId: string, name: string, args: Record<string, unknown>, lease?: { epoch: number; holder: string }) => {
        await observer.send(liftTopic(no, 'cmd'), { commandId, name, args, expiresAt: expiresIn(15_000), ...(lease ? { lease } : {}) });
        const ack = await waitFor(() => observer.of('cmd/ack', no).find((a) => a.commandId === commandId), 5_000, `answer to ${commandId}`);
        return [ack.state, ack.reason].filter(Boolean).join(':');
      };
      expect(await answer('l-none', 'summon', { floor: 1 })).toBe('rejected:noLease');
      expect(await answer('l-2', 'summon', { floor: 1 }, { epoch: 2, holder: 'Bea' })).toBe('accepted');
      expect(await answer('l-1', 'summon', { floor: 1 }, { epoch: 1, holder: 'Al' })).toBe('rejected:leaseHeld');
      own.lift(no)!.machine.useLocally({ kind: 'platformButton' });
      await waitFor(() => observer.of('event', no).some((e) => e.code === 'RZLB'), 5_000, 'RZLB');
      expect(await answer('l-2-after', 'summon', { floor: 1 }, { epoch: 2, holder: 'Bea' })).toBe('rejected:localControl');
      expect(await answer('l-3', 'summon', { floor: 1 }, { epoch: 3, holder: 'Cy' })).toBe('rejected:localControl');
      expect(await answer('p-none', 'pause', {})).toBe('accepted');
    } finally {
      await own.stop();
    }
  });

  it('says offline when stopped', async () => {
    // A lift of its own: the shared fleet stays as the other tests expect it, in any order.
    const own = await startFleet({ mqttUrl: broker.url, lifts: [{ deviceNo: 'SIM-0003', kind: 'verticalHydraulic', floors: 2 }], tickMs: 50, statusIdleMs: 300, reconnectMs: 100, log: () => {} });
    await waitFor(() => observer.of('presence', 'SIM-0003').some((p) => p.online), 5_000, 'online');
    await own.stop();
    const last = await waitFor(() => observer.of('presence', 'SIM-0003').find((p) => !p.online), 5_000, 'offline');
    expect(last.online).toBe(false);
  });
});

describe('simulated lifts with credentials', () => {
  it('connect with their secret and stay out with a wrong one', async () => {
    const broker = await startBroker({ 'LIFT-0001': 's3cret-one', 'LIFT-0002': 's3cret-two' });
    const fleet = await startFleet({
      mqttUrl: broker.url,
      lifts: [
        { deviceNo: 'LIFT-0001', secret: 's3cret-one', kind: 'inclined2dRack', floors: 2 },
        { deviceNo: 'LIFT-0002', secret: 'wrong', kind: 'inclined2dSprocket', floors: 2 },
      ],
      connectTimeoutMs: 1_500,
      reconnectMs: 200,
      log: () => {},
    });
    try {
      expect(fleet.lift('LIFT-0001')?.connected).toBe(true);
      expect(fleet.lift('LIFT-0002')?.connected).toBe(false);
    } finally {
      await fleet.stop();
      await broker.close();
    }
  });
});
