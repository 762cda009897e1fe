import { ALARM_BATTERY_LOW_PERCENT, type AlarmBattery, type AlarmMessage, type AlarmTest, type AlarmTestPart } from '@liftlink/protocol';

/**
 * The lift's emergency-alarm device (EN 81-28; docs/protocol.md, "alarm"), as a pure state
 * machine on the lift's clock: it tests itself every `testIntervalMs` (the first test
 * `firstTestAfterMs` after power-on) and runs on a battery that the lift's supply keeps
 * charged and that drains when charging stops. A report is due after every test and when
 * the battery turns low or good again; the lift sends it on its `alarm` topic.
 *
 * Ways to make it misbehave (demos, tests): `failTests(parts)`, `stopTesting()`,
 * `setBattery(percent)`, `setCharging(false)`; `runTest()` tests at once.
 */
export interface AlarmDeviceOptions {
  /** Wall-clock ms at power-on. */
  now: number;
  /** Between two self-tests (default a day; EN 81-28 asks for at most 3 days). */
  testIntervalMs?: number;
  /** The first self-test after power-on (default 60 s). */
  firstTestAfterMs?: number;
  /** Battery charge at power-on, % (default 95). */
  batteryPercent?: number;
}

export const DEFAULT_ALARM_TEST_INTERVAL_MS = 24 * 3_600_000;
export const DEFAULT_ALARM_FIRST_TEST_MS = 60_000;
/** Charge gained per hour on the lift's supply, and lost per hour without it (the device's standby draw). */
export const ALARM_CHARGE_PER_HOUR = 5;
export const ALARM_DRAIN_PER_HOUR = 2;
/** A 12 V pack: empty at 11.0 V, full at 13.0 V. */
const EMPTY_VOLTS = 11;
const FULL_VOLTS = 13;

export type AlarmReport = Omit<AlarmMessage, 'seq' | 'ts'>;

export class AlarmDevice {
  private now: number;
  private readonly intervalMs: number;
  private nextTestAt: number | null;
  private lastTest: AlarmTest | null = null;
  private percent: number;
  private charging = true;
  private failing: AlarmTestPart[] = [];
  private reportDue = false;
  private wasLow: boolean;

  constructor(options: AlarmDeviceOptions) {
    this.now = options.now;
    this.intervalMs = options.testIntervalMs ?? DEFAULT_ALARM_TEST_INTERVAL_MS;
    this.nextTestAt = options.now + (options.firstTestAfterMs ?? DEFAULT_ALARM_FIRST_TEST_MS);
    this.percent = options.batteryPercent ?? 95;
    this.wasLow = this.low;
  }

  get low(): boolean {
    return this.percent <= ALARM_BATTERY_LOW_PERCENT;
  }

  get testing(): boolean {
    return this.nextTestAt !== null;
  }

  /** When the next self-test runs (ms), or null while testing is stopped. */
  get nextTest(): number | null {
    return this.nextTestAt;
  }

  battery(): AlarmBattery {
    const percent = Math.round(this.percent);
    return { percent, voltage: Math.round((EMPTY_VOLTS + ((FULL_VOLTS - EMPTY_VOLTS) * this.percent) / 100) * 100) / 100, low: this.low };
  }

  /** The device's state as a report: its last test (if any) and its battery now. Sent on every connection. */
  report(): AlarmReport {
    return { ...(this.lastTest ? { test: this.lastTest } : {}), battery: this.battery() };
  }

  /** The report due since the last call (a test ran, the battery turned low or good), or null. */
  takeReport(): AlarmReport | null {
    if (!this.reportDue) return null;
    this.reportDue = false;
    return this.report();
  }

  /** Moves the device's clock to `now`: the battery charges or drains, a test that is due runs. */
  advanceTo(now: number): void {
    const hours = Math.max(0, now - this.now) / 3_600_000;
    this.now = now;
    this.percent = Math.min(100, Math.max(0, this.percent + hours * (this.charging ? ALARM_CHARGE_PER_HOUR : -ALARM_DRAIN_PER_HOUR)));
    this.noticeBattery();
    if (this.nextTestAt !== null && now >= this.nextTestAt) this.runTest();
  }

  /** Tests now: the button, the speech line, speaker and microphone, and the battery (failing when low). */
  runTest(): AlarmTest {
    const failed = [...this.failing];
    if (this.low && !failed.includes('battery')) failed.push('battery');
    this.lastTest = { at: new Date(this.now).toISOString(), result: failed.length ? 'failed' : 'passed', ...(failed.length ? { failed } : {}) };
    if (this.nextTestAt !== null) this.nextTestAt = this.now + this.intervalMs;
    this.reportDue = true;
    return this.lastTest;
  }

  /** From the next test on, these parts fail (an empty list: the device is healthy again). */
  failTests(parts: readonly AlarmTestPart[]): void {
    this.failing = [...new Set(parts)];
  }

  /** The device stops testing itself (a missed test); `resumeTesting` tests again at once. */
  stopTesting(): void {
    this.nextTestAt = null;
  }

  resumeTesting(): void {
    this.nextTestAt = this.now;
  }

  /** Sets the charge, % (e.g. 10: low at once; reported with the next advance). */
  setBattery(percent: number): void {
    this.percent = Math.min(100, Math.max(0, percent));
    this.noticeBattery();
  }

  /** The lift's supply charges the battery (true, normal) or not (a broken charger: it drains). */
  setCharging(on: boolean): void {
    this.charging = on;
  }

  private noticeBattery(): void {
    if (this.low !== this.wasLow) this.reportDue = true;
    this.wasLow = this.low;
  }
}
