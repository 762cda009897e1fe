import { z } from 'zod';
import { FLOORS_MAX, MIN_CONFIGURED_VALUE, POSITION_TOLERANCE } from '../constants.ts';
import type { FieldIssue } from '../api/envelope.ts';
import { FLOORS, type DeviceKind, type Floor } from './kinds.ts';

/**
 * The running configuration of a lift (spec section 3) as ONE list of field descriptors.
 * Server validation, the simulator and the web forms all derive from it.
 *
 * Units: positions in encoder counts (ENCODER_COUNTS_PER_MM = 10 per mm, measured from
 * the extreme-bottom switch), speeds in mm/s, times in ms, load in kg, ratios in %.
 *
 * The spec's "minimum of 20000 for a configured value" applies to the absolute positions
 * (parking-point memory values, low and high values): the first 20000 counts (2000 mm)
 * above the extreme-bottom switch are kept for overrun and the homing run, so no
 * configured stop or soft limit may lie there. Parking points (memory and relative value)
 * may only be edited by at most POSITION_TOLERANCE (500 counts = 50 mm) per change, so a
 * typo cannot send the platform far past a landing; a bigger move needs position learning.
 *
 * Labels: `config.field.<key>` (per-floor fields share one label with a {floor}
 * parameter: `config.field.<baseKey>`), groups `config.group.<group>`, enum options
 * `config.option.<baseKey>.<option>`.
 */
export const CONFIG_GROUPS = ['floors', 'speeds', 'guardrails', 'flaps', 'pedals', 'aging', 'charging', 'load', 'voice', 'modes'] as const;
export type ConfigGroup = (typeof CONFIG_GROUPS)[number];
export type ConfigPart = 'J' | 'P' | 'run';
export type ConfigWriteRole = 'operator' | 'manufacturer';
export type ConfigFieldType = 'int' | 'number' | 'boolean' | 'enum';
export type ConfigUnit = 'counts' | 'mm/s' | 'ms' | 'kg' | '%' | 'cycles';
export type ConfigValue = number | boolean | string;
export type LiftConfig = Record<string, ConfigValue>;

export interface ConfigField {
  key: string;
  /** The key without the floor number, for labels and options (`parkingMemory` for `parkingMemory2`). */
  baseKey: string;
  type: ConfigFieldType;
  unit?: ConfigUnit;
  min?: number;
  max?: number;
  /** Suggested input step of a `number` field. */
  step?: number;
  default: ConfigValue;
  options?: readonly string[];
  labelKey: string;
  group: ConfigGroup;
  part: ConfigPart;
  writeRole: ConfigWriteRole;
  /** Set on the per-floor fields: the field exists only when the lift has this many floors. */
  floor?: Floor;
  /** The minimum is the spec's minimum configured value (message `validation.minConfigured`). */
  minConfigured?: boolean;
  /** An edit may move the value at most POSITION_TOLERANCE from the current value. */
  positionTolerance?: boolean;
}

type FieldSpec = Omit<ConfigField, 'key' | 'baseKey' | 'labelKey' | 'group' | 'part' | 'writeRole' | 'floor'>;
type Where = Pick<ConfigField, 'group' | 'part' | 'writeRole'>;

const int = (min: number, max: number, unit: ConfigUnit | undefined, dflt: number, extra: Partial<FieldSpec> = {}): FieldSpec => ({
  type: 'int',
  ...(unit ? { unit } : {}),
  min,
  max,
  default: dflt,
  ...extra,
});
const bool = (dflt: boolean): FieldSpec => ({ type: 'boolean', default: dflt });
const oneOf = (options: readonly string[], dflt: string): FieldSpec => ({ type: 'enum', options, default: dflt });
const position = (dflt: number, tolerance: boolean): FieldSpec =>
  int(MIN_CONFIGURED_VALUE, 2_000_000, 'counts', dflt, { minConfigured: true, positionTolerance: tolerance });

const field = (key: string, spec: FieldSpec, where: Where): ConfigField => ({ key, baseKey: key, labelKey: `config.field.${key}`, ...spec, ...where });
const perFloor = (baseKey: string, spec: (floor: Floor) => FieldSpec, where: Where): ConfigField[] =>
  FLOORS.map((floor) => ({ ...field(baseKey, spec(floor), where), key: `${baseKey}${floor}`, floor }));

/** Layout of the reference kind (inclined straight rack); `defaultConfig` adapts it per kind. */
const BOTTOM_PARKING = 21_000;
const REFERENCE_FLOOR_SPACING = 40_000;
const PART_SYSTEMS = ['absent', 'manual', 'motorized'] as const;
export const UNFOLD_PATTERNS = ['none', 'unfold', 'waitLeft', 'waitRight', 'doubleUp'] as const;
export type UnfoldPattern = (typeof UNFOLD_PATTERNS)[number];

const J = { part: 'J', writeRole: 'manufacturer' } as const;
const P = { part: 'P', writeRole: 'manufacturer' } as const;
const RUN = { part: 'run', writeRole: 'operator' } as const;

export const CONFIG_FIELDS: readonly ConfigField[] = [
  // floors: parking point per floor = memory value (learned absolute position) + relative value (trim)
  ...perFloor('parkingMemory', (f) => position(BOTTOM_PARKING + (f - 1) * REFERENCE_FLOOR_SPACING, true), { group: 'floors', ...J }),
  ...perFloor('parkingRelative', () => int(-5_000, 5_000, 'counts', 0, { positionTolerance: true }), { group: 'floors', part: 'J', writeRole: 'operator' }),
  ...perFloor('unfoldPattern', () => oneOf(UNFOLD_PATTERNS, 'none'), { group: 'floors', ...RUN }),
  field('lowValue', position(20_000, false), { group: 'floors', ...J }),
  field('highValue', position(BOTTOM_PARKING + 3 * REFERENCE_FLOOR_SPACING + 2_000, false), { group: 'floors', ...J }),
  field('smartParking', bool(true), { group: 'floors', ...RUN }),
  // speeds and the travel profile
  field('accelSegments', int(1, 10, undefined, 3), { group: 'speeds', ...J }),
  field('startAccelMs', int(200, 10_000, 'ms', 1_500), { group: 'speeds', ...J }),
  field('stopDecelMs', int(200, 10_000, 'ms', 1_200), { group: 'speeds', ...J }),
  field('quickSegmentStart', int(0, 200_000, 'counts', 1_000), { group: 'speeds', ...J }),
  field('quickSegmentEnd', int(0, 200_000, 'counts', 2_000), { group: 'speeds', ...J }),
  field('rapidSpeed', int(10, 150, 'mm/s', 120), { group: 'speeds', ...J }),
  field('slowSpeed', int(5, 60, 'mm/s', 30), { group: 'speeds', ...J }),
  field('speedLimit', int(10, 200, 'mm/s', 150), { group: 'speeds', ...J }),
  field('smartSpeed', bool(true), { group: 'speeds', ...RUN }),
  // guardrails
  field('leftGuardrailSystem', oneOf(PART_SYSTEMS, 'motorized'), { group: 'guardrails', ...P }),
  field('rightGuardrailSystem', oneOf(PART_SYSTEMS, 'motorized'), { group: 'guardrails', ...P }),
  field('guardrailSpeed', int(5, 50, 'mm/s', 20), { group: 'guardrails', ...P }),
  field('guardrailAntiCollision', bool(true), { group: 'guardrails', ...P }),
  // flaps
  field('leftFlapSystem', oneOf(PART_SYSTEMS, 'motorized'), { group: 'flaps', ...P }),
  field('rightFlapSystem', oneOf(PART_SYSTEMS, 'motorized'), { group: 'flaps', ...P }),
  field('flapResistanceMeasure', bool(true), { group: 'flaps', ...P }),
  // pedals
  field('mainPedalSystem', oneOf(PART_SYSTEMS, 'motorized'), { group: 'pedals', ...P }),
  field('pedalSpeed', int(5, 50, 'mm/s', 20), { group: 'pedals', ...P }),
  // aging
  field('agingTimes', int(1, 100_000, 'cycles', 1_000), { group: 'aging', part: 'run', writeRole: 'manufacturer' }),
  // charging
  field('smartCharging', bool(true), { group: 'charging', ...RUN }),
  field('chargeDetection', bool(true), { group: 'charging', ...P }),
  field('chargeRatio', int(50, 200, '%', 100), { group: 'charging', ...P }),
  // load
  field('overloadDetection', bool(true), { group: 'load', ...P }),
  field('ratedLoad', int(50, 1_000, 'kg', 250), { group: 'load', ...P }),
  field('tareValue', { type: 'number', unit: 'kg', min: -200, max: 200, step: 0.1, default: 0 }, { group: 'load', ...P }),
  // voice and display
  field('voiceLanguage', oneOf(['zh', 'en'], 'zh'), { group: 'voice', ...RUN }),
  field('bootVideo', bool(true), { group: 'voice', ...RUN }),
  // modes and enables
  field('platformMode', oneOf(['sprocket', 'rack'], 'rack'), { group: 'modes', ...J }),
  field('movementDirection', oneOf(['normal', 'reversed'], 'normal'), { group: 'modes', ...J }),
  field('keystrokeMode', oneOf(['click', 'longPress'], 'longPress'), { group: 'modes', ...J }),
  field('remoteControlEnable', bool(true), { group: 'modes', ...RUN }),
  field('callButtonEnable', bool(true), { group: 'modes', ...RUN }),
  field('appControlEnable', bool(true), { group: 'modes', ...RUN }),
  field('cardEnable', bool(false), { group: 'modes', ...RUN }),
  field('autoFold', bool(false), { group: 'modes', ...RUN }),
  field('smartFoldHoming', bool(false), { group: 'modes', ...RUN }),
];

const BY_KEY = new Map(CONFIG_FIELDS.map((f) => [f.key, f]));

export function configField(key: string): ConfigField | undefined {
  return BY_KEY.get(key);
}

/** The fields a lift with `floors` floors has (per-floor fields only up to its top floor). */
export function configFieldsFor(floors: number): ConfigField[] {
  return CONFIG_FIELDS.filter((f) => f.floor === undefined || f.floor <= floors);
}

/** The floor count a configuration was made for (its highest parking point). */
export function floorsOf(config: LiftConfig): number {
  return FLOORS.filter((f) => `parkingMemory${f}` in config).length;
}

const typeError = (iss: { input?: unknown }) => (iss.input === undefined || iss.input === null || iss.input === '' ? 'validation.required' : 'validation.invalid');

/** The zod schema of one field's value (its type, bounds and messages). */
export function configFieldSchema(f: ConfigField): z.ZodType<ConfigValue> {
  switch (f.type) {
    case 'boolean':
      return z.boolean({ error: typeError });
    case 'enum':
      return z.enum(f.options as [string, ...string[]], { error: typeError });
    case 'int':
    case 'number': {
      let s = z.number({ error: typeError });
      if (f.type === 'int') s = s.int({ error: 'validation.integer' });
      if (f.min !== undefined) s = s.min(f.min, { error: f.minConfigured ? 'validation.minConfigured' : 'validation.min' });
      if (f.max !== undefined) s = s.max(f.max, { error: 'validation.max' });
      return s;
    }
  }
}

type Ctx = z.RefinementCtx<Record<string, ConfigValue>>;
const issue = (ctx: Ctx, key: string, message: string, params: Record<string, number>) =>
  ctx.addIssue({ code: 'custom', path: [key], message, params });

/**
 * Rules between fields, as data: `key` is at most (`max`) or at least (`min`) the value of
 * `of`, plus `plus`. Speeds in order, the high value above the low one, parking points
 * ascending and between the low and high values. The schema checks them; the web client
 * re-checks a field when a field its rules read changes.
 */
export interface ConfigRelation {
  key: string;
  bound: 'min' | 'max';
  of: string;
  plus: number;
}

export function configRelations(floors: number): ConfigRelation[] {
  const relations: ConfigRelation[] = [
    { key: 'rapidSpeed', bound: 'max', of: 'speedLimit', plus: 0 },
    { key: 'slowSpeed', bound: 'max', of: 'rapidSpeed', plus: 0 },
    { key: 'highValue', bound: 'min', of: 'lowValue', plus: 0 },
  ];
  for (let f = 1; f <= floors; f++) {
    const key = `parkingMemory${f}`;
    relations.push(
      f === 1 ? { key, bound: 'min', of: 'lowValue', plus: 0 } : { key, bound: 'min', of: `parkingMemory${f - 1}`, plus: 1 },
      { key, bound: 'max', of: 'highValue', plus: 0 },
    );
  }
  return relations;
}

/** The fields the rules of `key` read (the same for any number of floors). */
export function configFieldReads(key: string): string[] {
  return [...new Set(configRelations(FLOORS_MAX).filter((r) => r.key === key).map((r) => r.of))];
}

/** The relations as a zod refinement; a field gets at most one issue (the first rule it breaks). */
function crossFieldRules(floors: number) {
  const relations = configRelations(floors);
  return (c: Record<string, ConfigValue>, ctx: Ctx) => {
    const flagged = new Set<string>();
    for (const r of relations) {
      if (flagged.has(r.key)) continue;
      const value = c[r.key] as number;
      const limit = (c[r.of] as number) + r.plus;
      if (r.bound === 'max' ? value > limit : value < limit) {
        issue(ctx, r.key, `validation.${r.bound}`, { [r.bound]: limit });
        flagged.add(r.key);
      }
    }
  };
}

const schemaCache = new Map<number, z.ZodType<LiftConfig>>();

/** The strict zod schema of a whole configuration of a lift with `floors` floors (1..4). */
export function buildConfigSchema(floors: number): z.ZodType<LiftConfig> {
  const floorCount = Number.isFinite(floors) ? Math.min(Math.max(Math.trunc(floors), 1), FLOORS_MAX) : 1;
  let schema = schemaCache.get(floorCount);
  if (!schema) {
    const shape = Object.fromEntries(configFieldsFor(floorCount).map((f) => [f.key, configFieldSchema(f)]));
    schema = z.strictObject(shape).superRefine(crossFieldRules(floorCount));
    schemaCache.set(floorCount, schema);
  }
  return schema;
}

/** Per-kind layout: distance between landings, drive, speed, load and which platform parts exist. */
export const KIND_PROFILES: Record<DeviceKind, { floorSpacing: number; platformMode: 'rack' | 'sprocket'; rapidSpeed: number; ratedLoad: number; platformParts: boolean }> = {
  inclinedStraightRack: { floorSpacing: 40_000, platformMode: 'rack', rapidSpeed: 120, ratedLoad: 250, platformParts: true },
  inclined2dRack: { floorSpacing: 60_000, platformMode: 'rack', rapidSpeed: 100, ratedLoad: 250, platformParts: true },
  inclined2dSprocket: { floorSpacing: 60_000, platformMode: 'sprocket', rapidSpeed: 100, ratedLoad: 250, platformParts: true },
  inclined3dSprocket: { floorSpacing: 80_000, platformMode: 'sprocket', rapidSpeed: 90, ratedLoad: 225, platformParts: true },
  // a vertical platform has gates, not guardrails, flaps or a folding pedal; platformMode does not apply
  verticalHydraulic: { floorSpacing: 30_000, platformMode: 'rack', rapidSpeed: 100, ratedLoad: 400, platformParts: false },
};

/** The factory configuration of a lift of this kind and floor count. */
export function defaultConfig(kind: DeviceKind, floors: number): LiftConfig {
  const profile = KIND_PROFILES[kind];
  const config: LiftConfig = Object.fromEntries(configFieldsFor(floors).map((f) => [f.key, f.default]));
  for (let f = 1; f <= floors; f++) config[`parkingMemory${f}`] = BOTTOM_PARKING + (f - 1) * profile.floorSpacing;
  config.highValue = BOTTOM_PARKING + (floors - 1) * profile.floorSpacing + 2_000;
  config.platformMode = profile.platformMode;
  config.rapidSpeed = profile.rapidSpeed;
  config.ratedLoad = profile.ratedLoad;
  if (!profile.platformParts) {
    for (const key of ['leftGuardrailSystem', 'rightGuardrailSystem', 'leftFlapSystem', 'rightFlapSystem', 'mainPedalSystem']) config[key] = 'absent';
  }
  return config;
}

/** A validation issue of a configuration: `message` is an i18n key, `params` fill it ({min}, {max}, {tolerance}). */
export interface ConfigIssue extends FieldIssue {
  params?: Record<string, number>;
}

/** Turns a zod error of `buildConfigSchema` into i18n-keyed issues with their parameters, one per field (the first). */
export function toConfigIssues(error: z.ZodError): ConfigIssue[] {
  const all = error.issues.flatMap((iss): ConfigIssue[] => {
    const path = iss.path.join('.');
    switch (iss.code) {
      case 'unrecognized_keys':
        return iss.keys.map((key) => ({ path: key, message: 'validation.unknownField' }));
      case 'too_small':
        return [{ path, message: iss.message, params: { min: Number(iss.minimum) } }];
      case 'too_big':
        return [{ path, message: iss.message, params: { max: Number(iss.maximum) } }];
      case 'custom':
        return [{ path, message: iss.message, ...(iss.params ? { params: iss.params as Record<string, number> } : {}) }];
      default:
        return [{ path, message: iss.message }];
    }
  });
  return all.filter((iss, i) => all.findIndex((other) => other.path === iss.path) === i);
}

/**
 * Validates a new configuration against the schema of the lift's floor count (taken from
 * `current`, or `floors` when the lift has no configuration yet) and applies the
 * parking-point rule: a value may move at most POSITION_TOLERANCE from its current value.
 * Returns no issues when the change is valid.
 */
export function validateConfigChange(current: LiftConfig | null, next: unknown, floors?: number): ConfigIssue[] {
  const given = typeof next === 'object' && next !== null ? floorsOf(next as LiftConfig) : 0;
  const floorCount = floors ?? (current ? floorsOf(current) : given);
  const result = buildConfigSchema(floorCount).safeParse(next);
  const issues = result.success ? [] : toConfigIssues(result.error);
  if (!current || typeof next !== 'object' || next === null) return issues;
  const failed = new Set(issues.map((i) => i.path));
  for (const f of CONFIG_FIELDS) {
    if (!f.positionTolerance || failed.has(f.key)) continue;
    const before = current[f.key];
    const after = (next as Record<string, unknown>)[f.key];
    if (typeof before === 'number' && typeof after === 'number' && Math.abs(after - before) > POSITION_TOLERANCE) {
      issues.push({ path: f.key, message: 'validation.positionRange', params: { tolerance: POSITION_TOLERANCE } });
    }
  }
  return issues;
}

/** The keys whose value differs between two configurations (added, removed or changed). */
export function changedConfigKeys(before: LiftConfig | null, after: LiftConfig): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after)]);
  return [...keys].filter((k) => before?.[k] !== after[k]);
}

/** The changed keys that `role` may not write (a manufacturer may write every field). */
export function forbiddenConfigKeys(before: LiftConfig | null, after: LiftConfig, role: ConfigWriteRole): string[] {
  if (role === 'manufacturer') return [];
  return changedConfigKeys(before, after).filter((k) => configField(k)?.writeRole !== 'operator');
}
