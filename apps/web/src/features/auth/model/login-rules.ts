import { PASSWORD_MAX } from '@liftlink/protocol';

export type LoginField = 'username' | 'password' | 'mobile' | 'captcha';

const MOBILE = /^\+?[0-9]{7,15}$/;
const CAPTCHA = /^[0-9]{6}$/;

/**
 * The sign-in fields' rules of the protocol's `loginPasswordSchema` and `loginMobileSchema`
 * as plain checks, so the sign-in page needs no zod: each gives the i18n key of the first
 * problem (what the schema reports first), or null. login-rules.test.ts holds them to the
 * schemas on many generated values; the server validates with the schemas themselves.
 */
export const LOGIN_RULES: Record<LoginField, (value: string) => string | null> = {
  username: (value) => {
    const text = value.trim();
    if (text.length < 1) return 'validation.required';
    return text.length > 254 ? 'validation.tooLong' : null;
  },
  password: (value) => {
    if (value.length < 1) return 'validation.required';
    return value.length > PASSWORD_MAX ? 'validation.passwordLong' : null;
  },
  mobile: (value) => {
    const text = value.trim();
    if (text.length < 1) return 'validation.required';
    return MOBILE.test(text) ? null : 'validation.mobile';
  },
  captcha: (value) => {
    const text = value.trim();
    if (text.length < 1) return 'validation.required';
    return CAPTCHA.test(text) ? null : 'validation.captcha';
  },
};
