import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { loginMobileSchema, loginPasswordSchema, PASSWORD_MAX } from '@liftlink/protocol';
import { LOGIN_RULES, type LoginField } from './login-rules.ts';

const schemas: Record<LoginField, z.ZodType> = {
  username: loginPasswordSchema.shape.username,
  password: loginPasswordSchema.shape.password,
  mobile: loginMobileSchema.shape.mobile,
  // Required in the mobile tab (and in the second step, where the page asks for it).
  captcha: loginMobileSchema.shape.captcha,
};

/** What the schema says about a typed value: null, or the key of its first issue. */
function schemaSays(field: LoginField, value: string): string | null {
  const result = schemas[field].safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'validation.invalid');
}

/** Typed values: empty and blank, digits with or without +, codes, near misses, long ones. */
const typed = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t',
    '  a ',
    '123456',
    ' 123456 ',
    '12345',
    '1234567',
    '+8613912345678',
  ),
  fc.string(),
  fc.stringMatching(/^\s*\+?[0-9]{0,17}\s*$/),
  fc.stringMatching(/^[0-9a-z ]{0,8}$/),
  fc.string({ minLength: 250, maxLength: 260 }),
  fc.string({ minLength: PASSWORD_MAX - 2, maxLength: PASSWORD_MAX + 2 }),
);

describe('sign-in rules', () => {
  it.each(Object.keys(schemas) as LoginField[])(
    '%s gives the same first problem as the protocol schema',
    (field) => {
      fc.assert(
        fc.property(typed, (value) => {
          expect(LOGIN_RULES[field](value), JSON.stringify(value)).toBe(schemaSays(field, value));
        }),
        { numRuns: 1500 },
      );
    },
  );

  it('reads as the spec texts say', () => {
    expect(LOGIN_RULES.username('  ')).toBe('validation.required');
    expect(LOGIN_RULES.mobile('12ab')).toBe('validation.mobile');
    expect(LOGIN_RULES.captcha('12345')).toBe('validation.captcha');
    expect(LOGIN_RULES.captcha('123456')).toBeNull();
  });
});
