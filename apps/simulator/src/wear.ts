import { z } from 'zod';

/**
 * Wear and ageing scenarios (issue 17, condition-based maintenance): a lift that wears out in
 * a known way, so the server's condition score can be tested against a known cause. Each
 * scenario is data — how worn the lift is at a given age — and the lift machine asks it for
 * the figures it changes. Age grows with the lift's own clock, `ageDaysPerHour` times faster
 * than real time (an acceleration, so a test or a demo reaches a worn state in seconds or
 * minutes), from `ageDays` at power-on.
 */
export const WEAR_SCENARIOS = ['batteryAgeing', 'stiffDrive', 'chatteringFlap'] as const;
export type WearScenario = (typeof WEAR_SCENARIOS)[number];

/** Age, in days, at which each scenario is fully worn (its effects stop growing). */
export const WORN_AT_DAYS: Record<WearScenario, number> = {
  batteryAgeing: 730,
  stiffDrive: 365,
  chatteringFlap: 180,
};

/** The largest effect of each scenario, reached at WORN_AT_DAYS. */
export const WEAR_LIMITS = {
  /** batteryAgeing: the check value falls this share below what the charge ratio gives. */
  checkValueLoss: 0.1,
  /** batteryAgeing: charging is this many times slower (1 + n). */
  chargeSlowdown: 2,
  /** batteryAgeing: extra voltage sag while moving, V. */
  extraSagVolts: 1.2,
  /** stiffDrive: the drive is this share slower (travel takes 1 / (1 - n) as long). */
  speedLoss: 0.4,
  /** chatteringFlap: flap sensor blips per hour. */
  chattersPerHour: 60,
} as const;

/** How long one flap-sensor blip lasts, ms: long enough for a status snapshot to see it. */
export const CHATTER_MS = 1_000;

export const wearSpecSchema = z.strictObject({
  scenario: z.enum(WEAR_SCENARIOS),
  /** The lift's age at power-on, days (default 0: new). */
  ageDays: z.number().min(0).max(10_000).optional(),
  /** Simulated days of wear per real hour of running (default 1/24: real time). */
  ageDaysPerHour: z.number().min(0).max(1_000_000).optional(),
});
export type WearSpec = z.infer<typeof wearSpecSchema>;

/** The wear of one lift: its scenario and the age it has reached on the lift's clock. */
export class Wear {
  readonly scenario: WearScenario;
  private readonly ageDaysAtStart: number;
  private readonly ageDaysPerHour: number;
  private readonly startMs: number;

  constructor(spec: WearSpec, startMs: number) {
    this.scenario = spec.scenario;
    this.ageDaysAtStart = spec.ageDays ?? 0;
    this.ageDaysPerHour = spec.ageDaysPerHour ?? 1 / 24;
    this.startMs = startMs;
  }

  ageDays(now: number): number {
    return this.ageDaysAtStart + ((now - this.startMs) / 3_600_000) * this.ageDaysPerHour;
  }

  /** 0 (new) .. 1 (fully worn) for `scenario`; 0 for the other scenarios. */
  severity(scenario: WearScenario, now: number): number {
    if (scenario !== this.scenario) return 0;
    return Math.min(1, Math.max(0, this.ageDays(now) / WORN_AT_DAYS[scenario]));
  }
}
