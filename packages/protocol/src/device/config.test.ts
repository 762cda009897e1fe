import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MIN_CONFIGURED_VALUE, POSITION_TOLERANCE } from '../constants.ts';
import {
  CONFIG_FIELDS,
  CONFIG_GROUPS,
  buildConfigSchema,
  configFieldsFor,
  defaultConfig,
  floorsOf,
  forbiddenConfigKeys,
  validateConfigChange,
  type LiftConfig,
} from './config.ts';
import { DEVICE_KINDS } from './kinds.ts';

const base = defaultConfig('inclinedStraightRack', 2);
const paths = (config: LiftConfig | null, next: unknown, floors?: number) => validateConfigChange(config, next, floors).map((i) => i.path);

describe('configuration descriptors', () => {
  it('are well formed: unique keys, known groups, defaults within range, options for enums', () => {
    expect(new Set(CONFIG_FIELDS.map((f) => f.key)).size).toBe(CONFIG_FIELDS.length);
    for (const f of CONFIG_FIELDS) {
      expect(CONFIG_GROUPS).toContain(f.group);
      expect(f.labelKey).toBe(`config.field.${f.baseKey}`);
      if (f.type === 'enum') expect(f.options).toContain(f.default);
      if (f.type === 'int' || f.type === 'number') {
        expect(typeof f.default).toBe('number');
        expect(f.default as number).toBeGreaterThanOrEqual(f.min ?? -Infinity);
        expect(f.default as number).toBeLessThanOrEqual(f.max ?? Infinity);
      }
    }
    for (const group of CONFIG_GROUPS) expect(CONFIG_FIELDS.some((f) => f.group === group)).toBe(true);
  });

  it('cover the running-configuration fields of the spec, per floor where the spec says so', () => {
    const keys = CONFIG_FIELDS.map((f) => f.key);
    for (const f of [1, 2, 3, 4]) expect(keys).toEqual(expect.arrayContaining([`parkingMemory${f}`, `parkingRelative${f}`, `unfoldPattern${f}`]));
    expect(keys).toEqual(
      expect.arrayContaining([
        'accelSegments', 'quickSegmentStart', 'quickSegmentEnd', 'lowValue', 'highValue', 'smartCharging', 'smartSpeed',
        'remoteControlEnable', 'callButtonEnable', 'autoFold', 'smartParking', 'startAccelMs', 'stopDecelMs', 'appControlEnable',
        'agingTimes', 'platformMode', 'movementDirection', 'voiceLanguage', 'bootVideo', 'keystrokeMode', 'guardrailAntiCollision',
        'smartFoldHoming', 'flapResistanceMeasure', 'cardEnable', 'chargeDetection', 'chargeRatio', 'overloadDetection', 'ratedLoad',
        'mainPedalSystem', 'leftGuardrailSystem', 'rightGuardrailSystem', 'leftFlapSystem', 'rightFlapSystem', 'tareValue',
        'guardrailSpeed', 'pedalSpeed', 'rapidSpeed', 'slowSpeed', 'speedLimit',
      ]),
    );
    expect(configFieldsFor(2).some((f) => f.key === 'parkingMemory3')).toBe(false);
  });

  it('give defaults that pass the schema for every kind and floor count', () => {
    for (const kind of DEVICE_KINDS) {
      for (const floors of [1, 2, 3, 4]) {
        const config = defaultConfig(kind, floors);
        expect(buildConfigSchema(floors).safeParse(config).success).toBe(true);
        expect(floorsOf(config)).toBe(floors);
        expect(validateConfigChange(null, config, floors)).toEqual([]);
      }
    }
    expect(defaultConfig('verticalHydraulic', 2).leftFlapSystem).toBe('absent');
    expect(defaultConfig('inclined3dSprocket', 2).platformMode).toBe('sprocket');
  });
});

describe('configuration validation', () => {
  it('refuses unknown fields, fields of floors the lift does not have, and missing fields', () => {
    expect(validateConfigChange(base, { ...base, bogus: 1 })).toEqual([{ path: 'bogus', message: 'validation.unknownField' }]);
    expect(paths(base, { ...base, parkingMemory3: 200_000 })).toEqual(['parkingMemory3']);
    const { rapidSpeed: _omit, ...missing } = base;
    expect(validateConfigChange(base, missing)).toEqual([{ path: 'rapidSpeed', message: 'validation.required' }]);
  });

  it('reports min and max with their limits', () => {
    expect(validateConfigChange(null, { ...base, rapidSpeed: 151 }, 2)).toEqual([{ path: 'rapidSpeed', message: 'validation.max', params: { max: 150 } }]);
    expect(validateConfigChange(null, { ...base, slowSpeed: 1 }, 2)).toEqual([{ path: 'slowSpeed', message: 'validation.min', params: { min: 5 } }]);
    expect(validateConfigChange(null, { ...base, voiceLanguage: 'fr', bootVideo: 'yes', agingTimes: 2.5 }, 2).map((i) => i.message)).toEqual([
      'validation.integer',
      'validation.invalid',
      'validation.invalid',
    ]);
  });

  it('applies the minimum configured value to absolute positions', () => {
    const next = { ...base, lowValue: MIN_CONFIGURED_VALUE - 1 };
    expect(validateConfigChange(null, next, 2)).toEqual([{ path: 'lowValue', message: 'validation.minConfigured', params: { min: 20_000 } }]);
    expect(validateConfigChange(null, { ...base, lowValue: MIN_CONFIGURED_VALUE }, 2)).toEqual([]);
  });

  it('keeps parking points ascending and inside the low and high values', () => {
    const next = { ...base, parkingMemory2: base.parkingMemory1 };
    expect(validateConfigChange(null, next, 2)).toEqual([{ path: 'parkingMemory2', message: 'validation.min', params: { min: (base.parkingMemory1 as number) + 1 } }]);
    expect(paths(null, { ...base, highValue: (base.parkingMemory2 as number) - 1 }, 2)).toEqual(['parkingMemory2']);
    expect(paths(null, { ...base, rapidSpeed: 140, speedLimit: 130 }, 2)).toEqual(['rapidSpeed']);
  });

  it('lets a parking point move at most the position tolerance from its current value', () => {
    fc.assert(
      fc.property(fc.constantFrom('parkingMemory1', 'parkingMemory2', 'parkingRelative1', 'parkingRelative2'), fc.integer({ min: -1500, max: 1500 }), (key, delta) => {
        const next = { ...base, [key]: (base[key] as number) + delta };
        // parkingMemory1 may not go below lowValue (20000); keep that case out of the tolerance property
        if (key === 'parkingMemory1' && (next[key] as number) < (base.lowValue as number)) return;
        const issues = validateConfigChange(base, next);
        if (Math.abs(delta) <= POSITION_TOLERANCE) expect(issues).toEqual([]);
        else expect(issues).toEqual([{ path: key, message: 'validation.positionRange', params: { tolerance: 500 } }]);
      }),
    );
  });

  it('does not apply the tolerance to a lift without configuration, nor to other fields', () => {
    const moved = { ...base, parkingMemory2: (base.parkingMemory2 as number) - 5_000 };
    expect(validateConfigChange(null, moved, 2)).toEqual([]);
    expect(validateConfigChange(base, { ...base, quickSegmentEnd: 20_000 })).toEqual([]);
  });

  it('names the changed fields an operator may not write', () => {
    const next = { ...base, rapidSpeed: 100, voiceLanguage: 'en', parkingRelative1: 100 };
    expect(forbiddenConfigKeys(base, next, 'operator')).toEqual(['rapidSpeed']);
    expect(forbiddenConfigKeys(base, next, 'manufacturer')).toEqual([]);
  });
});
