/** Business constants of the spec (section 9). One place; server and web read them here. */
export const TOKEN_LIFETIME_MS = 36_000_000;
export const FORCED_LOGOUT_MS = 28_800_000;
export const REQUEST_TIMEOUT_MS = 50_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const FORCED_LOGOUT_RELOAD_MS = 1_500;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const REGISTER_PASSWORD_HINT_MIN = 6;
export const ACTIVATION_VALID_MS = 24 * 3_600_000;
export const RESET_VALID_MS = 3_600_000;
export const SMS_CODE_VALID_MS = 5 * 60_000;
export const SMS_RESEND_MS = 60_000;
export const FLOORS_MIN = 1;
export const FLOORS_MAX = 4;
export const POLLING_CHANNELS = 10;
export const POSITION_TOLERANCE = 500;
export const MIN_CONFIGURED_VALUE = 20_000;
export const LANGUAGES = ['zh-CN', 'en-US', 'ru-RU'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
export const TOKEN_COOKIE = 'Access-Token';
export const TOKEN_HEADER = 'access-token';

/** Greeting by hour (spec section 9): before 9, 9-11, 12-13, 14-19, 20 and later. */
export type Greeting = 'earlyMorning' | 'morning' | 'noon' | 'afternoon' | 'evening';
export function greetingFor(hour: number): Greeting {
  if (hour < 9) return 'earlyMorning';
  if (hour <= 11) return 'morning';
  if (hour <= 13) return 'noon';
  if (hour <= 19) return 'afternoon';
  return 'evening';
}
