/**
 * Layout settings (spec section 3) as plain values, without zod: account.ts builds
 * `layoutSettingsSchema` from them and re-exports them.
 */
import type { LayoutSettings } from './account.ts';

/** The choices of the layout settings (spec section 3) and their defaults (spec section 9). */
export const NAV_THEMES = ['dark', 'light'] as const;
export const LAYOUT_MODES = ['sidemenu', 'topmenu'] as const;
export const CONTENT_WIDTHS = ['Fluid', 'Fixed'] as const;
export const PRIMARY_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * The defaults as plain values: the web client reads them at start-up without building
 * (or downloading) the zod schema. `layoutSettingsSchema` (account.ts) takes its defaults
 * from here, and account.test.ts checks that `layoutSettingsSchema.parse({})` equals this.
 */
export const DEFAULT_LAYOUT_SETTINGS = {
  navTheme: 'dark',
  layout: 'sidemenu',
  contentWidth: 'Fluid',
  fixedHeader: false,
  fixSiderbar: false,
  autoHideHeader: false,
  primaryColor: '#F5222D',
  colorWeak: false,
  multiTab: true,
} as const satisfies Record<string, string | boolean>;

const oneOf =
  <T extends string>(choices: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (choices as readonly string[]).includes(value);
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/**
 * One plain check per layout setting, the same rules as `layoutSettingsSchema` (account.test.ts
 * compares them): the web client keeps the valid fields of stored settings with these,
 * so its start-up needs no zod.
 */
export const LAYOUT_SETTING_CHECKS: {
  [K in keyof LayoutSettings]: (value: unknown) => value is LayoutSettings[K];
} = {
  navTheme: oneOf(NAV_THEMES),
  layout: oneOf(LAYOUT_MODES),
  contentWidth: oneOf(CONTENT_WIDTHS),
  fixedHeader: isBoolean,
  fixSiderbar: isBoolean,
  autoHideHeader: isBoolean,
  primaryColor: (value: unknown): value is string =>
    typeof value === 'string' && PRIMARY_COLOR_PATTERN.test(value),
  colorWeak: isBoolean,
  multiTab: isBoolean,
};

