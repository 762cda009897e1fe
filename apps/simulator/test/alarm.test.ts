import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet, type FleetHandle } from '../src/fleet.ts';
import { Observer, startBroker, waitFor } from './harness.ts';

/** The alarm device's reports on a real broker: on connecting, after each self-test, and as a fleet file asks it to misbehave. */
describe('simulated alarm devices on MQTT', () => {
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let observer: Observer;
  let fleet: FleetHandle;

  beforeAll(async () => {
    broker = await startBroker();
    observer = await Observer.connect(broker.url);
    fleet = await startFleet({
      mqttUrl: broker.url,
      lifts: [
        { deviceNo: 'SIM-0001', kind: 'inclinedStraightRack', floors: 2 },
        { deviceNo: 'SIM-0002', kind: 'verticalHydraulic', floors: 3, alarm: { failWith: ['speechLine'] } },
        { deviceNo: 'SIM-0003', kind: 'inclined2dRack', floors: 2, alarm: { testing: false, batteryPercent: 12 } },
      ],
      tickMs: 50,
      statusIdleMs: 10_000,
      alarmFirstTestMs: 300,
      alarmTestIntervalMs: 600,
      reconnectMs: 100,
      log: () => {},
    });
  });

  afterAll(async () => {
    await fleet?.stop();
    await observer?.close();
    await broker?.close();
  });

  it('reports on connecting, then after every self-test, each report valid and with a new seq', async () => {
    await waitFor(() => observer.of('alarm', 'SIM-0001').filter((r) => r.test).length >= 2, 10_000, 'two tests');
    const reports = observer.of('alarm', 'SIM-0001');
    expect(reports[0]).toMatchObject({ battery: { low: false } });
    expect(reports[0]!.test).toBeUndefined();
    const tests = reports.filter((r) => r.test).map((r) => r.test!);
    expect(tests.every((t) => t.result === 'passed')).toBe(true);
    expect(Date.parse(tests[1]!.at) - Date.parse(tests[0]!.at)).toBeGreaterThanOrEqual(600);
    const seqs = reports.map((r) => r.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(seqs.length);
  });

  it('fails the tests of a lift whose fleet entry says so, naming the part', async () => {
    const failed = await waitFor(() => observer.of('alarm', 'SIM-0002').find((r) => r.test), 10_000, 'a test');
    expect(failed.test).toMatchObject({ result: 'failed', failed: ['speechLine'] });
  });

  it('sends no test from a lift that stopped testing, and its low battery on connecting', async () => {
    await waitFor(() => observer.of('alarm', 'SIM-0001').filter((r) => r.test).length >= 3, 10_000, 'more tests elsewhere');
    const reports = observer.of('alarm', 'SIM-0003');
    expect(reports.length).toBeGreaterThan(0);
    expect(reports.every((r) => r.test === undefined)).toBe(true);
    expect(reports[0]!.battery).toMatchObject({ percent: 12, low: true });
  });

  it('reports at once what a test or a demo does to a running lift through its machine', async () => {
    const lift = fleet.lift('SIM-0001')!;
    const before = observer.of('alarm', 'SIM-0001').length;
    lift.machine.alarm.setBattery(5);
    const low = await waitFor(() => observer.of('alarm', 'SIM-0001').slice(before).find((r) => r.battery.low), 5_000, 'low battery');
    expect(low.battery.percent).toBe(5);
    lift.machine.alarm.stopTesting();
    lift.machine.alarm.failTests(['button']);
    lift.machine.alarm.runTest();
    const failed = await waitFor(() => observer.of('alarm', 'SIM-0001').slice(before).find((r) => r.test?.result === 'failed'), 5_000, 'failed test');
    expect(failed.test?.failed).toEqual(['button', 'battery']);
  });
});
