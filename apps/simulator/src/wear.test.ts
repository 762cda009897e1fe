import { describe, expect, it } from 'vitest';
import { parseCli } from './cli.ts';
import { fleetSpecSchema } from './fleet.ts';
import { LiftMachine, type LiftMachineOptions } from './lift-machine.ts';
import { seededRandom } from './random.ts';
import { CHATTER_MS, WEAR_LIMITS, WORN_AT_DAYS, Wear } from './wear.ts';

const T0 = Date.parse('2025-01-01T00:00:00Z');
const lift = (options: Partial<LiftMachineOptions> = {}) => {
  const m = new LiftMachine({ deviceNo: 'SIM-0001', kind: 'inclinedStraightRack', floors: 3, now: T0, random: seededRandom(7), ...options });
  m.drain();
  return m;
};

/** Ms from a local call to floor `to` until the lift has arrived there. */
function travelMs(m: LiftMachine, to: number): number {
  const start = m.now;
  expect(m.callLocal(to)).toBe(true);
  for (let t = 0; t < 600_000 && m.status().floor !== to; t += 100) m.advance(100);
  expect(m.status().floor).toBe(to);
  return m.now - start;
}

/** The lowest voltage of a trip to `to`. */
function lowestVoltage(m: LiftMachine, to: number): number {
  m.callLocal(to);
  let low = Infinity;
  for (let t = 0; t < 600_000 && m.status().floor !== to; t += 100) {
    m.advance(100);
    if (m.status().platform.movement !== 'stop') low = Math.min(low, m.status().platform.voltage);
  }
  return low;
}

/** Ms the lift stands charging at floor 1 until it is full (smart charging stops it). */
function chargingMs(m: LiftMachine): number {
  let ms = 0;
  while (m.status().platform.charging && ms < 48 * 3_600_000) {
    m.advance(1_000);
    ms += 1_000;
  }
  return ms;
}

describe('wear scenarios', () => {
  it('ages with the lift clock, faster with the acceleration, and stops at fully worn', () => {
    const wear = new Wear({ scenario: 'stiffDrive', ageDays: 10, ageDaysPerHour: 24 }, T0);
    expect(wear.ageDays(T0 + 3_600_000)).toBe(34);
    expect(wear.severity('stiffDrive', T0)).toBeCloseTo(10 / WORN_AT_DAYS.stiffDrive);
    expect(wear.severity('batteryAgeing', T0 + 3_600_000)).toBe(0);
    expect(wear.severity('stiffDrive', T0 + 1_000 * 3_600_000)).toBe(1);
  });

  it('stiffDrive: the same floors take longer as the drive ages, 1 / (1 - speed loss) when worn', () => {
    const healthy = lift();
    const worn = lift({ wear: { scenario: 'stiffDrive', ageDays: WORN_AT_DAYS.stiffDrive } });
    const half = lift({ wear: { scenario: 'stiffDrive', ageDays: WORN_AT_DAYS.stiffDrive / 2 } });
    const base = travelMs(healthy, 3);
    const slow = travelMs(worn, 3);
    const mid = travelMs(half, 3);
    expect(slow / base).toBeGreaterThan(1 / (1 - WEAR_LIMITS.speedLoss) - 0.1);
    expect(slow / base).toBeLessThan(1 / (1 - WEAR_LIMITS.speedLoss) + 0.1);
    expect(mid).toBeGreaterThan(base * 1.1);
    expect(mid).toBeLessThan(slow);
  });

  it('batteryAgeing: the check value falls against the charge value, trips sag deeper, charging takes longer', () => {
    const healthy = lift();
    const worn = lift({ wear: { scenario: 'batteryAgeing', ageDays: WORN_AT_DAYS.batteryAgeing } });
    const h = healthy.status().platform.chargeValue;
    const w = worn.status().platform.chargeValue;
    expect(h.check / h.real).toBeCloseTo(1, 3);
    expect(w.real).toBe(h.real);
    expect(w.check / w.real).toBeCloseTo(1 - WEAR_LIMITS.checkValueLoss, 2);
    // same state of charge at the start: the worn battery sags the extra volts more while moving
    expect(lowestVoltage(healthy, 2) - lowestVoltage(worn, 2)).toBeCloseTo(WEAR_LIMITS.extraSagVolts, 1);
    travelMs(healthy, 1);
    travelMs(worn, 1);
    const healthyCharge = chargingMs(healthy);
    const wornCharge = chargingMs(worn);
    expect(healthyCharge).toBeGreaterThan(60_000);
    expect(wornCharge / healthyCharge).toBeGreaterThan(1 + WEAR_LIMITS.chargeSlowdown - 0.2);
  });

  it('chatteringFlap: the flap sensor blips for about a second, more often the older the lift; a new lift never', () => {
    const count = (m: LiftMachine, hours: number) => {
      let blips = 0;
      let longest = 0;
      let on = 0;
      let was = false;
      for (let t = 0; t < hours * 3_600_000; t += 100) {
        m.advance(100);
        const now = m.status().platformIo.flapNotInPlace;
        if (now && !was) blips++;
        on = now ? on + 100 : 0;
        longest = Math.max(longest, on);
        was = now;
      }
      return { blips, longest };
    };
    expect(count(lift({ wear: { scenario: 'chatteringFlap', ageDays: 0, ageDaysPerHour: 0 } }), 1).blips).toBe(0);
    const worn = count(lift({ wear: { scenario: 'chatteringFlap', ageDays: WORN_AT_DAYS.chatteringFlap } }), 2);
    expect(worn.blips).toBeGreaterThan(WEAR_LIMITS.chattersPerHour * 2 * 0.6);
    expect(worn.blips).toBeLessThan(WEAR_LIMITS.chattersPerHour * 2 * 1.4);
    expect(worn.longest).toBe(CHATTER_MS);
    const young = count(lift({ wear: { scenario: 'chatteringFlap', ageDays: WORN_AT_DAYS.chatteringFlap / 4 } }), 2);
    expect(young.blips).toBeLessThan(worn.blips / 2);
  });

  it('is chosen per lift on the command line (with age and acceleration) and in the fleet file', () => {
    const cli = parseCli(['--count', '3', '--wear', 'SIM-0001=batteryAgeing,SIM-0003=chatteringFlap', '--wear-age', '30', '--wear-speed', '8760'], {});
    expect(cli?.fleet.wear).toEqual({
      'SIM-0001': { scenario: 'batteryAgeing', ageDays: 30, ageDaysPerHour: 8760 },
      'SIM-0003': { scenario: 'chatteringFlap', ageDays: 30, ageDaysPerHour: 8760 },
    });
    expect(parseCli(['--count', '1', '--wear', 'SIM-0001=stiffDrive'], {})?.fleet.wear).toEqual({ 'SIM-0001': { scenario: 'stiffDrive', ageDays: 0, ageDaysPerHour: 1 / 24 } });
    expect(() => parseCli(['--count', '1', '--wear', 'SIM-0001=rusty'], {})).toThrow(/--wear takes DEVICENO=SCENARIO/);
    expect(() => parseCli(['--count', '1', '--wear-age', '3'], {})).toThrow(/need --wear/);
    const file = [{ deviceNo: 'DEMO-0001', kind: 'verticalHydraulic', floors: 2, wear: { scenario: 'stiffDrive', ageDays: 100, ageDaysPerHour: 24 } }];
    expect(fleetSpecSchema.parse(file)[0]?.wear).toEqual({ scenario: 'stiffDrive', ageDays: 100, ageDaysPerHour: 24 });
    expect(fleetSpecSchema.safeParse([{ ...file[0], wear: { scenario: 'rusty' } }]).success).toBe(false);
  });
});
