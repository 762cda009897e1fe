import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_NAMES,
  REFUSAL_REASON_CODES,
  REFUSAL_REASONS,
  commandSchema,
  isMovementCommand,
  isValidSummonFloor,
  liftCommandSchema,
  refusalText,
  type Command,
} from './commands.ts';
import { LANGUAGES } from '../constants.ts';

describe('command vocabulary', () => {
  it('has exactly the named commands', () => {
    expect(COMMAND_NAMES).toEqual(['summon', 'pause', 'restart', 'deform', 'aging', 'test', 'lock', 'disable']);
  });

  it('accepts valid commands and refuses bad arguments or unknown fields', () => {
    const ok: Command[] = [
      { name: 'summon', args: { floor: 2 } },
      { name: 'pause', args: {} },
      { name: 'deform', args: { shape: 'leftFlap' } },
      { name: 'aging', args: { target: 'stop' } },
      { name: 'test', args: { item: 'channelConfig' } },
      { name: 'lock', args: { on: true } },
    ];
    for (const c of ok) expect(commandSchema.safeParse(c).success).toBe(true);
    const bad = [
      { name: 'summon', args: { floor: 0 } },
      { name: 'summon', args: { floor: 1.5 } },
      { name: 'summon', args: {} },
      { name: 'pause', args: { now: true } },
      { name: 'deform', args: { shape: 'spin' } },
      { name: 'lock', args: { on: 'yes' } },
      { name: 'reboot', args: {} },
      { name: 'pause', args: {}, extra: 1 },
    ];
    for (const c of bad) expect(commandSchema.safeParse(c).success).toBe(false);
  });

  it('bounds summon by the lift floor count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -2, max: 8 }), (floors, floor) => {
        const valid = floor >= 1 && floor <= floors;
        expect(liftCommandSchema(floors).safeParse({ name: 'summon', args: { floor } }).success).toBe(valid);
        expect(isValidSummonFloor(floor, floors)).toBe(valid);
      }),
    );
    const r = liftCommandSchema(2).safeParse({ name: 'summon', args: { floor: 3 } });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['args.floor', 'validation.max']]);
  });

  it('marks movement commands', () => {
    expect(isMovementCommand({ name: 'summon', args: { floor: 1 } })).toBe(true);
    expect(isMovementCommand({ name: 'restart', args: {} })).toBe(true);
    expect(isMovementCommand({ name: 'deform', args: { shape: 'fold' } })).toBe(true);
    expect(isMovementCommand({ name: 'aging', args: { target: 'pedals' } })).toBe(true);
    expect(isMovementCommand({ name: 'aging', args: { target: 'stop' } })).toBe(false);
    expect(isMovementCommand({ name: 'test', args: { item: 'positionLearning' } })).toBe(true);
    expect(isMovementCommand({ name: 'test', args: { item: 'keyLights' } })).toBe(false);
    expect(isMovementCommand({ name: 'pause', args: {} })).toBe(false);
    expect(isMovementCommand({ name: 'lock', args: { on: true } })).toBe(false);
  });

  it('has refusal texts in three languages', () => {
    for (const reason of REFUSAL_REASON_CODES) {
      for (const lang of LANGUAGES) expect(REFUSAL_REASONS[reason][lang].trim()).not.toBe('');
    }
    expect(refusalText('overloaded', 'en-US')).toBe('The platform is overloaded');
    expect(refusalText('overloaded', 'xx')).toBe(REFUSAL_REASONS.overloaded['zh-CN']);
    expect(refusalText('whatever', 'en-US')).toBe('whatever');
    expect(REFUSAL_REASON_CODES).toEqual(expect.arrayContaining(['overloaded', 'emergencyStop', 'lockout', 'disabled', 'flapNotInPlace', 'busy', 'expired', 'badArgs']));
  });
});
