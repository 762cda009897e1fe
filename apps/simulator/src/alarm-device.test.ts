import { describe, expect, it } from 'vitest';
import { ALARM_BATTERY_LOW_PERCENT, alarmMessageSchema } from '@liftlink/protocol';
import { ALARM_DRAIN_PER_HOUR, AlarmDevice, DEFAULT_ALARM_FIRST_TEST_MS, DEFAULT_ALARM_TEST_INTERVAL_MS } from './alarm-device.ts';
import { parseCli } from './cli.ts';
import { fleetSpecSchema } from './fleet.ts';
import { LiftMachine } from './lift-machine.ts';

const T0 = Date.parse('2026-03-01T08:00:00.000Z');
const HOUR = 3_600_000;
/** A report as the lift sends it must pass the protocol's schema. */
const valid = (report: object) => alarmMessageSchema.parse({ seq: 1, ts: new Date(T0).toISOString(), ...report });

describe('the simulated alarm device', () => {
  it('tests itself a minute after power-on, then daily, each test a report; nothing in between', () => {
    const device = new AlarmDevice({ now: T0 });
    expect(device.report()).toEqual({ battery: { percent: 95, voltage: 12.9, low: false } });
    device.advanceTo(T0 + DEFAULT_ALARM_FIRST_TEST_MS - 1);
    expect(device.takeReport()).toBeNull();
    device.advanceTo(T0 + DEFAULT_ALARM_FIRST_TEST_MS);
    const first = valid(device.takeReport()!);
    expect(first.test).toEqual({ at: new Date(T0 + DEFAULT_ALARM_FIRST_TEST_MS).toISOString(), result: 'passed' });
    device.advanceTo(T0 + DEFAULT_ALARM_FIRST_TEST_MS + DEFAULT_ALARM_TEST_INTERVAL_MS - 1);
    expect(device.takeReport()).toBeNull();
    device.advanceTo(T0 + DEFAULT_ALARM_FIRST_TEST_MS + DEFAULT_ALARM_TEST_INTERVAL_MS);
    const second = valid(device.takeReport()!);
    expect(second.test?.at).toBe(new Date(T0 + DEFAULT_ALARM_FIRST_TEST_MS + DEFAULT_ALARM_TEST_INTERVAL_MS).toISOString());
    // The report on connecting repeats the last test.
    expect(device.report().test).toEqual(second.test);
  });

  it('fails its tests naming the parts it is told to, and passes again when healed', () => {
    const device = new AlarmDevice({ now: T0, firstTestAfterMs: 0, testIntervalMs: HOUR });
    device.failTests(['speechLine', 'button']);
    device.advanceTo(T0);
    expect(valid(device.takeReport()!).test).toMatchObject({ result: 'failed', failed: ['speechLine', 'button'] });
    device.failTests([]);
    device.advanceTo(T0 + HOUR);
    expect(valid(device.takeReport()!).test).toMatchObject({ result: 'passed' });
  });

  it('misses its tests when stopped, and tests at once when resumed', () => {
    const device = new AlarmDevice({ now: T0, firstTestAfterMs: 0, testIntervalMs: HOUR });
    device.stopTesting();
    device.advanceTo(T0 + 4 * 24 * HOUR);
    expect(device.takeReport()).toBeNull();
    expect(device.report().test).toBeUndefined();
    device.resumeTesting();
    device.advanceTo(T0 + 4 * 24 * HOUR);
    expect(valid(device.takeReport()!).test?.at).toBe(new Date(T0 + 4 * 24 * HOUR).toISOString());
  });

  it('drains without charging until low (reported when it turns low), then its test fails on the battery; charges back', () => {
    const device = new AlarmDevice({ now: T0, firstTestAfterMs: 1000 * HOUR, batteryPercent: 30 });
    device.setCharging(false);
    const hoursToLow = (30 - ALARM_BATTERY_LOW_PERCENT) / ALARM_DRAIN_PER_HOUR;
    device.advanceTo(T0 + (hoursToLow - 0.5) * HOUR);
    expect(device.takeReport()).toBeNull();
    device.advanceTo(T0 + hoursToLow * HOUR);
    expect(valid(device.takeReport()!).battery).toMatchObject({ percent: ALARM_BATTERY_LOW_PERCENT, low: true });
    expect(device.runTest()).toEqual({ at: expect.any(String), result: 'failed', failed: ['battery'] });
    device.setCharging(true);
    device.takeReport();
    device.advanceTo(T0 + (hoursToLow + 2) * HOUR);
    expect(valid(device.takeReport()!).battery.low).toBe(false);
  });

  it('goes low at once when told, and runs on the lift clock of its machine', () => {
    const machine = new LiftMachine({ deviceNo: 'SIM-0001', kind: 'inclined2dRack', floors: 2, now: T0, alarm: { firstTestAfterMs: 500 } });
    machine.alarm.setBattery(5);
    expect(machine.alarm.takeReport()?.battery).toEqual({ percent: 5, voltage: 11.1, low: true });
    machine.advance(500);
    expect(machine.alarm.takeReport()?.test).toEqual({ at: new Date(T0 + 500).toISOString(), result: 'failed', failed: ['battery'] });
  });

  it('takes its test period from the command line and its misbehaviour from the fleet file', () => {
    expect(parseCli(['--count', '1', '--alarm-test-interval', '3600'], {})?.fleet.alarmTestIntervalMs).toBe(HOUR);
    expect(parseCli(['--count', '1'], {})?.fleet.alarmTestIntervalMs).toBeUndefined();
    expect(() => parseCli(['--count', '1', '--alarm-test-interval', '0'], {})).toThrow(/--alarm-test-interval must be a number from 1 to 259200/);
    const lift = { deviceNo: 'SIM-0001', kind: 'inclined2dRack', floors: 2 };
    expect(fleetSpecSchema.safeParse([{ ...lift, alarm: { failWith: ['speechLine'], testing: false, batteryPercent: 12, charging: false } }]).success).toBe(true);
    expect(fleetSpecSchema.safeParse([{ ...lift, alarm: { failWith: [] } }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ ...lift, alarm: { failWith: ['siren'] } }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ ...lift, alarm: { batteryPercent: 120 } }]).success).toBe(false);
    expect(fleetSpecSchema.safeParse([{ ...lift, alarm: { broken: true } }]).success).toBe(false);
  });
});
