import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type LiftConfig } from '@liftlink/protocol';
import { useEnglish } from '../test/render.tsx';
import {
  configDiff,
  configFile,
  configIssues,
  configIssueText,
  configSections,
  fieldLabel,
  formToConfig,
  parseConfigFile,
  valueText,
} from './config-model.ts';

const LIFT = { kind: 'inclinedStraightRack', floors: 2 } as const;
const current: LiftConfig = defaultConfig(LIFT.kind, LIFT.floors);

/** The first message the form would show for `key` after changing `patch`. */
function messageFor(patch: Record<string, unknown>, key: string): string | undefined {
  const values = { ...current, ...patch } as Record<string, never>;
  const issue = configIssues(current, formToConfig(values, LIFT.floors), LIFT.floors).find(
    (i) => i.path === key,
  );
  return issue ? configIssueText(issue) : undefined;
}

// The lift screens' texts are a bundle of their own: load them as the pages do, for every
// block of this file (a block must not rely on another having run first).
beforeAll(async () => {
  await useEnglish();
});

describe('configuration form', () => {

  it('has only the fields of the lift’s floors, grouped by part and group', () => {
    const sections = configSections(2);
    expect(sections.map((s) => s.part)).toEqual(['run', 'P', 'J']);
    const keys = sections.flatMap((s) => s.groups.flatMap((g) => g.fields.map((f) => f.key)));
    expect(keys).toContain('parkingMemory2');
    expect(keys).not.toContain('parkingMemory3');
    const housingFloors = sections
      .find((s) => s.part === 'J')!
      .groups.find((g) => g.group === 'floors')!;
    expect(housingFloors.fields.map((f) => f.key)).toEqual([
      'parkingMemory1',
      'parkingMemory2',
      'parkingRelative1',
      'parkingRelative2',
      'lowValue',
      'highValue',
    ]);
  });

  it('says an emptied field cannot be empty', () => {
    expect(messageFor({ ratedLoad: null }, 'ratedLoad')).toBe('Input cannot be empty');
  });

  it('names the limit a value must stay at or below', () => {
    expect(messageFor({ rapidSpeed: 151 }, 'rapidSpeed')).toBe('Must be at or below 150');
    // Between fields: the rapid speed may not pass the speed limit.
    expect(messageFor({ rapidSpeed: 140, speedLimit: 130 }, 'rapidSpeed')).toBe(
      'Must be at or below 130',
    );
  });

  it('keeps a parking point within 500 of its current value', () => {
    const now = current.parkingRelative1 as number;
    expect(messageFor({ parkingRelative1: now + 500 }, 'parkingRelative1')).toBeUndefined();
    expect(messageFor({ parkingRelative1: now + 501 }, 'parkingRelative1')).toBe(
      'May change by at most ±500 from the current value',
    );
  });

  it('asks for at least 20000 for a configured position', () => {
    expect(messageFor({ lowValue: 19_999 }, 'lowValue')).toBe(
      'A configured value must be at least 20000',
    );
  });

  it('asks for whole numbers where the schema wants them', () => {
    expect(messageFor({ ratedLoad: 100.5 }, 'ratedLoad')).toBe('Enter a whole number');
  });

  it('shows the difference a send would make, in the form’s order and words', () => {
    const next = { ...current, voiceLanguage: 'en', ratedLoad: 300, smartParking: false };
    const diff = configDiff(current, next);
    expect(diff.map((c) => c.key)).toEqual(['smartParking', 'ratedLoad', 'voiceLanguage']);
    expect(
      diff.map(
        (c) =>
          `${fieldLabel(c.key)}: ${valueText(c.key, c.before)} -> ${valueText(c.key, c.after)}`,
      ),
    ).toEqual([
      'Smart parking: Yes -> No',
      'Rated load: 250 kg -> 300 kg',
      'Voice system language: Chinese -> English',
    ]);
    expect(configDiff(current, { ...current })).toEqual([]);
    expect(fieldLabel('parkingMemory2')).toBe('Floor 2 parking point, memory value');
  });
});

describe('configuration file import', () => {
  const file = (config: LiftConfig, lift: { kind: string; floors: number } = LIFT) =>
    JSON.stringify(
      configFile({ deviceNo: 'DEMO-0001', configVersion: 3, ...lift } as never, config),
    );

  it('accepts an exported file with a valid change', () => {
    const next = { ...current, voiceLanguage: 'en' };
    expect(parseConfigFile(file(next), LIFT, current, 'operator')).toEqual({
      ok: true,
      config: next,
    });
  });

  it('refuses what is not JSON or not a configuration', () => {
    expect(parseConfigFile('{oops', LIFT, current, 'manufacturer')).toMatchObject({
      ok: false,
      error: 'config.file.notJson',
    });
    expect(parseConfigFile('[1,2]', LIFT, current, 'manufacturer')).toMatchObject({
      ok: false,
      error: 'config.file.invalid',
    });
  });

  it('refuses a file of a lift of another kind or floor count', () => {
    expect(
      parseConfigFile(
        file(defaultConfig(LIFT.kind, 3), { ...LIFT, floors: 3 }),
        LIFT,
        current,
        'manufacturer',
      ),
    ).toMatchObject({
      ok: false,
      error: 'config.file.mismatch',
    });
  });

  it('lists every wrong value with the form’s message', () => {
    const bad = { ...current, rapidSpeed: 999, lowValue: 100, surprise: 1 };
    const result = parseConfigFile(file(bad), LIFT, current, 'manufacturer');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const texts = Object.fromEntries(result.issues.map((i) => [i.path, configIssueText(i)]));
    expect(texts).toMatchObject({
      rapidSpeed: 'Must be at or below 150',
      lowValue: 'A configured value must be at least 20000',
      surprise: 'This lift has no such field',
    });
  });

  it('refuses manufacturer fields from an operator', () => {
    const result = parseConfigFile(file({ ...current, ratedLoad: 300 }), LIFT, current, 'operator');
    expect(result).toMatchObject({
      ok: false,
      issues: [{ path: 'ratedLoad', message: 'validation.manufacturerOnly' }],
    });
  });
});
