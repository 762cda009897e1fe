import { beforeAll, describe, expect, it } from 'vitest';
import { passwordChangeFormSchema, userCreateSchema } from '@liftlink/protocol';
import { i18n } from './i18n/i18n.ts';
import { zodRule } from './zod-rule.ts';
import { useEnglish } from '../test/render.tsx';

async function check(rule: ReturnType<typeof zodRule>, value: unknown): Promise<string | null> {
  const validator = (rule as { validator: (r: unknown, v: unknown) => Promise<void> }).validator;
  try {
    await validator({}, value);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

beforeAll(useEnglish);

describe('zodRule: shared schemas as antd rules, messages translated', () => {
  const password = zodRule(passwordChangeFormSchema.shape.password);
  it('gives the spec texts of section 5', async () => {
    expect(await check(password, undefined)).toBe('Input cannot be empty');
    expect(await check(password, '')).toBe('Input cannot be empty');
    expect(await check(password, 'short')).toBe('Password is shorter than 8, please re-enter');
    expect(await check(password, 'long-enough')).toBeNull();
    expect(await check(zodRule(passwordChangeFormSchema.shape.confirm), undefined)).toBe(
      'Input cannot be empty',
    );
  });

  it('lets an emptied optional field pass and still checks a typed one', async () => {
    const email = zodRule(userCreateSchema.shape.email);
    expect(await check(email, '')).toBeNull();
    expect(await check(email, undefined)).toBeNull();
    expect(await check(email, 'nope')).toBe('The email address is in the wrong format!');
  });

  it('follows the language', async () => {
    await i18n.changeLanguage('ru-RU');
    expect(await check(password, 'short')).toBe('Пароль короче 8 символов, введите снова');
    await i18n.changeLanguage('en-US');
  });
});
