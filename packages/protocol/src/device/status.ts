import { z } from 'zod';
import { floorSchema } from './kinds.ts';

/**
 * What a lift reports about itself (spec section 3 and 4). Labels live in the web client:
 * `device.mode.<mode>`, `device.movement.<m>`, `device.deformation.<d>`, `device.status.<field>`.
 */

/** System mode; `emergency` wins over every other mode while an emergency stop or emergency mode is active. */
export const SYSTEM_MODES = ['standby', 'normal', 'debug', 'lockout', 'disabled', 'emergency'] as const;
export type SystemMode = (typeof SYSTEM_MODES)[number];
export const systemModeSchema = z.enum(SYSTEM_MODES);

/** Movement: `run` is travel that is not a trip to a floor (position learning, jogging). */
export const MOVEMENTS = ['stop', 'rise', 'fall', 'run'] as const;
export type Movement = (typeof MOVEMENTS)[number];
export const movementSchema = z.enum(MOVEMENTS);

/**
 * Platform form. `unfolding` is the run form (pedal down); `waitingLeft` / `waitingRight`
 * have that side's flap lowered for boarding; `doubleUp` has both guardrails raised
 * (the travel form with a passenger); `fullyOpen` has everything lowered.
 */
export const DEFORMATIONS = ['folded', 'unfolding', 'waitingLeft', 'waitingRight', 'doubleUp', 'fullyOpen'] as const;
export type Deformation = (typeof DEFORMATIONS)[number];
export const deformationSchema = z.enum(DEFORMATIONS);

/** Fault codes (run-log codes of class `fault`), listed here for the status' active faults. */
export const FAULT_CODES = ['EA', 'EB', 'EC', 'ED', 'EE', 'EF'] as const;
export type FaultCode = (typeof FAULT_CODES)[number];
export const faultCodeSchema = z.enum(FAULT_CODES);

/** What the aging loop exercises; `stop` is only a command argument, never a state. */
export const AGING_TARGETS = ['overall', 'pedals', 'leftGuardrail', 'rightGuardrail'] as const;
export type AgingTarget = (typeof AGING_TARGETS)[number];
export const agingTargetSchema = z.enum(AGING_TARGETS);

const volts = z.number().min(0).max(100);

/** Platform real-time status. Units: volts, kilograms, encoder counts. */
export const platformStatusSchema = z.strictObject({
  /** Battery voltage, V. */
  voltage: volts,
  /** Platform form (spec: "platform form"). */
  deformation: deformationSchema,
  /** Charging contact voltage as measured (`real`) and after the configured charge ratio (`check`), V. */
  chargeValue: z.strictObject({ real: volts, check: volts }),
  charging: z.boolean(),
  /** Run state (spec: "run state"). */
  movement: movementSchema,
  helpSignal: z.boolean(),
  /** Load on the platform after the tare value, kg. */
  loadValue: z.number().min(-1000).max(5000),
  overloaded: z.boolean(),
  /** Platform position, encoder counts from the extreme-bottom switch. */
  position: z.number().int().min(-1_000_000).max(100_000_000),
});
export type PlatformStatus = z.infer<typeof platformStatusSchema>;

/** Platform inputs and outputs; `true` means the signal is active. */
export const platformIoSchema = z.strictObject({
  leftFlapUpperLimit: z.boolean(),
  leftFlapLowerLimit: z.boolean(),
  rightFlapUpperLimit: z.boolean(),
  rightFlapLowerLimit: z.boolean(),
  pedalAntiCollision: z.boolean(),
  flapNotInPlace: z.boolean(),
  floor1InPlace: z.boolean(),
  floor2InPlace: z.boolean(),
  pedalLock: z.boolean(),
  /** Multi-function inputs 1..4. */
  multiFunction: z.array(z.boolean()).length(4),
});
export type PlatformIo = z.infer<typeof platformIoSchema>;

export const CHAIN_STATES = ['normal', 'slack', 'broken'] as const;
export type ChainState = (typeof CHAIN_STATES)[number];

/** Housing (traction room) inputs; `true` means pressed / active. */
export const housingIoSchema = z.strictObject({
  emergencyStop: z.boolean(),
  alarmButton: z.boolean(),
  emergencyMode: z.boolean(),
  lockoutMode: z.boolean(),
  extremeTop: z.boolean(),
  extremeBottom: z.boolean(),
  driveRunning: z.boolean(),
  driveFailed: z.boolean(),
  /** Remote control buttons B1..B5. */
  remoteButtons: z.strictObject({ b1: z.boolean(), b2: z.boolean(), b3: z.boolean(), b4: z.boolean(), b5: z.boolean() }),
  jogUp: z.boolean(),
  jogDown: z.boolean(),
  /** The configuration keypad on the controller. */
  configButtons: z.strictObject({ menu: z.boolean(), up: z.boolean(), down: z.boolean(), confirm: z.boolean() }),
});
export type HousingIo = z.infer<typeof housingIoSchema>;

export const housingStatusSchema = z.strictObject({
  chain: z.enum(CHAIN_STATES),
  /** Communication node (bus to the platform) is answering. */
  commNodeOnline: z.boolean(),
  /** Charging nodes at the bottom and top of the travel have contact with the platform. */
  chargingNodes: z.strictObject({ top: z.boolean(), bottom: z.boolean() }),
  /** Slave nodes: a landing station is summoning; the actuator motor is running. */
  slaveNodes: z.strictObject({ summoning: z.boolean(), actuatorMotor: z.boolean() }),
  io: housingIoSchema,
});
export type HousingStatus = z.infer<typeof housingStatusSchema>;

/** Everything a lift reports in one status snapshot. */
export const liftStatusSchema = z.strictObject({
  mode: systemModeSchema,
  /** The floor the platform stands at, null between floors. */
  floor: floorSchema.nullable(),
  /** The floor the current trip goes to, null when no trip is active. */
  targetFloor: floorSchema.nullable(),
  /** The trip was paused and can be resumed with `restart`. */
  paused: z.boolean(),
  /** The running aging loop and the cycles done, null when none runs. */
  aging: z.strictObject({ target: agingTargetSchema, cycles: z.number().int().min(0).max(1_000_000) }).nullable(),
  /** Faults still latched (cleared by `restart`, EF by a new configuration). */
  faults: z.array(faultCodeSchema).max(FAULT_CODES.length),
  platform: platformStatusSchema,
  platformIo: platformIoSchema,
  housing: housingStatusSchema,
});
export type LiftStatus = z.infer<typeof liftStatusSchema>;

/** A lift standing folded at `floor`, every input off: the start of a simulated lift and a fixture for tests. */
export function initialLiftStatus(floor: number | null = 1): LiftStatus {
  const off = false;
  return {
    mode: 'standby',
    floor: floor as LiftStatus['floor'],
    targetFloor: null,
    paused: off,
    aging: null,
    faults: [],
    platform: {
      voltage: 25.4,
      deformation: 'folded',
      chargeValue: { real: 0, check: 0 },
      charging: off,
      movement: 'stop',
      helpSignal: off,
      loadValue: 0,
      overloaded: off,
      position: 0,
    },
    platformIo: {
      leftFlapUpperLimit: true,
      leftFlapLowerLimit: off,
      rightFlapUpperLimit: true,
      rightFlapLowerLimit: off,
      pedalAntiCollision: off,
      flapNotInPlace: off,
      floor1InPlace: floor === 1,
      floor2InPlace: floor === 2,
      pedalLock: true,
      multiFunction: [off, off, off, off],
    },
    housing: {
      chain: 'normal',
      commNodeOnline: true,
      chargingNodes: { top: off, bottom: off },
      slaveNodes: { summoning: off, actuatorMotor: off },
      io: {
        emergencyStop: off,
        alarmButton: off,
        emergencyMode: off,
        lockoutMode: off,
        extremeTop: off,
        extremeBottom: off,
        driveRunning: off,
        driveFailed: off,
        remoteButtons: { b1: off, b2: off, b3: off, b4: off, b5: off },
        jogUp: off,
        jogDown: off,
        configButtons: { menu: off, up: off, down: off, confirm: off },
      },
    },
  };
}
