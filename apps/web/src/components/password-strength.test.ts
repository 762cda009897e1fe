import { describe, expect, it } from 'vitest';
import { levelFor, strengthOf } from './password-strength.tsx';

describe('password strength (strong, medium, low, too short)', () => {
  it('maps scores to levels and short passwords to "too short"', () => {
    expect(levelFor('abc', 4)).toBe('tooShort');
    expect(levelFor('abcdefgh', 0)).toBe('low');
    expect(levelFor('abcdefgh', 1)).toBe('low');
    expect(levelFor('abcdefgh', 2)).toBe('medium');
    expect(levelFor('abcdefgh', 3)).toBe('strong');
  });

  it('rates real passwords with zxcvbn', async () => {
    expect(await strengthOf('pass')).toBe('tooShort');
    expect(await strengthOf('password1')).toBe('low');
    expect(await strengthOf('Blue-Harbour-Lantern-42')).toBe('strong');
  });
});
