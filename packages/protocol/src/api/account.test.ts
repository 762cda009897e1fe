import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LAYOUT_SETTINGS,
  LAYOUT_SETTING_CHECKS,
  layoutSettingsSchema,
  type LayoutSettings,
} from './account.ts';

const keys = Object.keys(layoutSettingsSchema.shape) as (keyof LayoutSettings)[];

/** Values a stored or profile setting might hold: the valid ones, near misses and junk. */
const candidate = fc.oneof(
  fc.constantFrom(
    'dark',
    'light',
    'Dark',
    'sidemenu',
    'topmenu',
    'mix',
    'Fluid',
    'Fixed',
    'fluid',
    '#F5222D',
    '#1890ff',
    '#12345',
    '#1234567',
    'F5222D',
    '#GGGGGG',
    '',
    'true',
    0,
    1,
    null,
  ),
  fc.boolean(),
  fc.string(),
  fc.stringMatching(/^#[0-9a-fA-F]{5,7}$/),
  fc.integer(),
  fc.constant(undefined),
);

describe('layout settings', () => {
  it('the plain defaults are what the schema fills in', () => {
    expect(layoutSettingsSchema.parse({})).toEqual(DEFAULT_LAYOUT_SETTINGS);
    expect(Object.keys(DEFAULT_LAYOUT_SETTINGS).sort()).toEqual([...keys].sort());
  });

  it('the plain checks have a check for every setting', () => {
    expect(Object.keys(LAYOUT_SETTING_CHECKS).sort()).toEqual([...keys].sort());
  });

  it('the plain check of each setting accepts exactly what the schema accepts', () => {
    fc.assert(
      fc.property(fc.constantFrom(...keys), candidate, (key, value) => {
        // The schema would fill in a default for a missing value; the checks see a given one.
        fc.pre(value !== undefined);
        const schemaSays = layoutSettingsSchema.shape[key].safeParse(value).success;
        expect(LAYOUT_SETTING_CHECKS[key](value), `${key} = ${JSON.stringify(value)}`).toBe(
          schemaSays,
        );
      }),
      { numRuns: 2000 },
    );
  });
});
