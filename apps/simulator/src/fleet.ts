import { z } from 'zod';
import { ALARM_TEST_PARTS, DEVICE_KINDS, type ReconnectRule, configVersionSchema, deviceKindSchema, deviceNoSchema, floorCountSchema, wireConfigSchema, type LiftConfig } from '@liftlink/protocol';
import { firmwareKeySchema, otaSpecSchema, type OtaSpec } from './firmware-updater.ts';
import { LiftMachine } from './lift-machine.ts';
import { MqttLift, type SimLiftSpec } from './mqtt-lift.ts';
import { seededRandom } from './random.ts';
import { wearSpecSchema, type WearSpec } from './wear.ts';

/**
 * A lift's alarm device in the fleet file: its self-tests fail naming `failWith`, it never
 * tests (`testing: false`: a missed test), its battery starts at `batteryPercent` and is not
 * charged (`charging: false`: it drains).
 */
export const alarmSpecSchema = z.strictObject({
  failWith: z.array(z.enum(ALARM_TEST_PARTS)).min(1).max(ALARM_TEST_PARTS.length).optional(),
  testing: z.boolean().optional(),
  batteryPercent: z.number().int().min(0).max(100).optional(),
  charging: z.boolean().optional(),
});
export type AlarmSpec = z.infer<typeof alarmSpecSchema>;

/** The fleet file / stdin format: a JSON array of lifts. */
export const fleetSpecSchema = z
  .array(
    z.strictObject({
      deviceNo: deviceNoSchema,
      secret: z.string().min(1).max(200).optional(),
      kind: deviceKindSchema,
      floors: floorCountSchema,
      firmware: z.string().max(32).optional(),
      /** This lift raises a fault (EC) this many seconds after the start, which clears itself DEMO_FAULT_CLEARS_MS later: a demo shows a fault within minutes. */
      faultAfterSeconds: z.number().int().min(0).max(86_400).optional(),
      /** The configuration the lift runs and its version (default: the factory configuration, version 0), e.g. the one the server last stored. */
      config: wireConfigSchema.optional(),
      configVersion: configVersionSchema.optional(),
      /** How the lift's emergency-alarm device misbehaves (docs/protocol.md, "alarm"); by default it is healthy. */
      alarm: alarmSpecSchema.optional(),
      /** How the lift wears (wear.ts, docs/protocol.md section 9): battery ageing, a stiffening drive, a chattering flap sensor. */
      wear: wearSpecSchema.optional(),
      /** The raw Ed25519 public keys (base64) the lift trusts for firmware offers, as the factory bench wrote them (docs/protocol.md 11.3). */
      firmwareKeys: z.array(firmwareKeySchema).max(8).optional(),
      /** How its firmware updates misbehave, and how fast its waits run (firmware-updater.ts `OtaSpec`). Not `firmware`: that is the version. */
      ota: otaSpecSchema.optional(),
    }),
  )
  .max(100_000)
  .refine((lifts) => new Set(lifts.map((l) => l.deviceNo)).size === lifts.length, 'duplicate deviceNo');

/** A lift of the fleet: its connection and, optionally, when it raises its first fault. */
export type FleetLiftSpec = SimLiftSpec & { faultAfterSeconds?: number; config?: LiftConfig; configVersion?: number; alarm?: AlarmSpec; wear?: WearSpec; firmwareKeys?: string[]; ota?: OtaSpec };

/** How long the fault a lift raises at `faultAfterSeconds` lasts. */
export const DEMO_FAULT_CLEARS_MS = 5 * 60_000;

export interface FleetOptions {
  mqttUrl: string;
  /** With mqtts: trust only the PEM certificates in this file (re-read at every reconnect). */
  caFile?: string;
  /** With mqtts: the name the broker's certificate must be for, when it differs from the URL's host. */
  servername?: string;
  lifts: FleetLiftSpec[];
  /** Expected random faults per lift per hour (default 0). */
  faultRatePerHour?: number;
  /** Expected local calls per lift per hour, so an idle demo fleet moves now and then (default 0). */
  activityPerHour?: number;
  /** Status snapshot period while idle (default 10 s) and while moving (default 1 s). */
  statusIdleMs?: number;
  statusMovingMs?: number;
  /** Each lift's alarm-device self-test period (default a day) and its first test after the start (default a minute), ms. */
  alarmTestIntervalMs?: number;
  alarmFirstTestMs?: number;
  /** Wear scenarios by device number (the command line's `--wear`); a lift's own `wear` in the fleet file wins. */
  wear?: Record<string, WearSpec>;
  /** Firmware keys every lift trusts besides its own `firmwareKeys` (the command line's `--firmware-key`). */
  firmwareKeys?: string[];
  /** The cloud's address a firmware manifest's path `url` is resolved against (`--firmware-base`). */
  firmwareBaseUrl?: string;
  /** Failure injection and wait scale of every lift's firmware updates; a lift's own `ota` wins. */
  ota?: OtaSpec;
  /** How often the fleet clock advances the lifts, ms (default 200). */
  tickMs?: number;
  /** Seed for the random behaviour (default: time based). */
  seed?: number;
  /** How long `startFleet` waits for every lift's first connection before it resolves anyway, ms (default 30 s). */
  connectTimeoutMs?: number;
  /** For tests: the reconnect rule scaled so its first-try window is this many ms (see `MqttLiftOptions.reconnectMs`). */
  reconnectMs?: number;
  /** The whole reconnect rule, instead of `reconnectMs` (default: `RECONNECT_RULE`). */
  reconnectRule?: ReconnectRule;
  log?: (line: string) => void;
}

export interface FleetHandle {
  readonly lifts: readonly MqttLift[];
  /** A lift by device number, e.g. to inject a fault: `fleet.lift('SIM-0001')?.machine.injectFault('EC')`. */
  lift(deviceNo: string): MqttLift | undefined;
  connectedCount(): number;
  /** Every lift says offline and disconnects. */
  stop(): Promise<void>;
}

/** Longest catch-up of the fleet clock; after a longer stall (a suspended laptop) the lifts skip ahead. */
const MAX_CATCH_UP_MS = 10_000;

/** Starts the lifts, resolves when all have connected once (or after `connectTimeoutMs`). */
export async function startFleet(options: FleetOptions): Promise<FleetHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bootMs = Date.now();
  const random = seededRandom(options.seed ?? bootMs);
  const faultsDue = new Map<LiftMachine, number>();
  const lifts = options.lifts.map((spec, i) => {
    const machine = new LiftMachine({
      deviceNo: spec.deviceNo,
      kind: spec.kind,
      floors: spec.floors,
      ...(spec.firmware ? { firmware: spec.firmware } : {}),
      ...(spec.config && spec.configVersion ? { config: spec.config, configVersion: spec.configVersion } : {}),
      now: bootMs,
      random,
      faultRatePerHour: options.faultRatePerHour ?? 0,
      activityPerHour: options.activityPerHour ?? 0,
      alarm: {
        ...(options.alarmTestIntervalMs ? { testIntervalMs: options.alarmTestIntervalMs } : {}),
        ...(options.alarmFirstTestMs !== undefined ? { firstTestAfterMs: options.alarmFirstTestMs } : {}),
        ...(spec.alarm?.batteryPercent !== undefined ? { batteryPercent: spec.alarm.batteryPercent } : {}),
      },
      ...wearOf(spec, options),
    });
    if (spec.alarm) misbehave(machine, spec.alarm);
    if (spec.faultAfterSeconds !== undefined) faultsDue.set(machine, bootMs + spec.faultAfterSeconds * 1000);
    return new MqttLift({
      mqttUrl: options.mqttUrl,
      ...(options.caFile ? { caFile: options.caFile } : {}),
      ...(options.servername ? { servername: options.servername } : {}),
      spec,
      machine,
      bootMs,
      statusIdleMs: options.statusIdleMs ?? 10_000,
      statusMovingMs: options.statusMovingMs ?? 1_000,
      log,
      ...(options.reconnectMs ? { reconnectMs: options.reconnectMs } : {}),
      ...(options.reconnectRule ? { reconnectRule: options.reconnectRule } : {}),
      // each lift draws its own reconnect waits; with a seed, the same ones every run
      random: options.seed === undefined ? Math.random : seededRandom(((options.seed ^ 0x9e3779b9) + i) >>> 0),
      ota: {
        trustedKeys: [...new Set([...(spec.firmwareKeys ?? []), ...(options.firmwareKeys ?? [])])],
        ...(options.firmwareBaseUrl ? { downloadBase: options.firmwareBaseUrl } : {}),
        spec: { ...options.ota, ...spec.ota },
      },
    });
  });
  const byNo = new Map(lifts.map((l) => [l.deviceNo, l]));

  const timer = setInterval(() => {
    const now = Date.now();
    for (const lift of lifts) {
      const m = lift.machine;
      if (now - m.now > MAX_CATCH_UP_MS) m.now = now - MAX_CATCH_UP_MS;
      m.advance(now - m.now);
      const due = faultsDue.get(m);
      if (due !== undefined && m.now >= due) {
        faultsDue.delete(m);
        m.injectFault('EC', m.now + DEMO_FAULT_CLEARS_MS);
      }
      lift.flush();
    }
  }, options.tickMs ?? 200);

  let timeout: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timeout = setTimeout(resolve, options.connectTimeoutMs ?? 30_000);
  });
  await Promise.race([Promise.all(lifts.map((l) => l.ready())), waited]);
  clearTimeout(timeout);
  const connected = lifts.filter((l) => l.connected).length;
  if (connected < lifts.length) log(`fleet: ${connected} of ${lifts.length} lifts connected so far`);

  return {
    lifts,
    lift: (deviceNo) => byNo.get(deviceNo),
    connectedCount: () => lifts.filter((l) => l.connected).length,
    async stop() {
      clearInterval(timer);
      await Promise.all(lifts.map((l) => l.stop()));
    },
  };
}

function wearOf(spec: FleetLiftSpec, options: FleetOptions): { wear?: WearSpec } {
  const wear = spec.wear ?? options.wear?.[spec.deviceNo];
  return wear ? { wear } : {};
}

/** Sets up an alarm device as the fleet file asks (through the same methods tests and demos call). */
function misbehave(machine: LiftMachine, alarm: AlarmSpec): void {
  if (alarm.failWith) machine.alarm.failTests(alarm.failWith);
  if (alarm.testing === false) machine.alarm.stopTesting();
  if (alarm.charging === false) machine.alarm.setCharging(false);
}

const FLOOR_PATTERN = [2, 3, 2, 4, 2, 1, 2];

/** `count` lifts SIM-0001.., spread over the five kinds and over 1..4 floors, without secrets (open broker). */
export function generateFleet(count: number, prefix = 'SIM'): SimLiftSpec[] {
  const width = Math.max(4, String(count).length);
  return Array.from({ length: count }, (_, i) => ({
    deviceNo: `${prefix}-${String(i + 1).padStart(width, '0')}`,
    kind: DEVICE_KINDS[i % DEVICE_KINDS.length]!,
    floors: FLOOR_PATTERN[i % FLOOR_PATTERN.length]!,
  }));
}
