import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { captchaSchema, emailSchema, mobileSchema } from './auth.ts';

/** The choices of the layout settings (spec section 3) and their defaults (spec section 9). */
export const NAV_THEMES = ['dark', 'light'] as const;
export const LAYOUT_MODES = ['sidemenu', 'topmenu'] as const;
export const CONTENT_WIDTHS = ['Fluid', 'Fixed'] as const;
export const PRIMARY_COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * The defaults as plain values: the web client reads them at start-up without building
 * (or downloading) the zod schema. The schema below takes its defaults from here, and a
 * protocol test checks that `layoutSettingsSchema.parse({})` equals this object.
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

/** Layout settings kept in the browser and in the user's profile (spec section 3). */
export const layoutSettingsSchema = z.strictObject({
  navTheme: z.enum(NAV_THEMES).default(DEFAULT_LAYOUT_SETTINGS.navTheme),
  layout: z.enum(LAYOUT_MODES).default(DEFAULT_LAYOUT_SETTINGS.layout),
  contentWidth: z.enum(CONTENT_WIDTHS).default(DEFAULT_LAYOUT_SETTINGS.contentWidth),
  fixedHeader: z.boolean().default(DEFAULT_LAYOUT_SETTINGS.fixedHeader),
  fixSiderbar: z.boolean().default(DEFAULT_LAYOUT_SETTINGS.fixSiderbar),
  autoHideHeader: z.boolean().default(DEFAULT_LAYOUT_SETTINGS.autoHideHeader),
  primaryColor: z
    .string()
    .regex(PRIMARY_COLOR_PATTERN, 'validation.color')
    .default(DEFAULT_LAYOUT_SETTINGS.primaryColor),
  colorWeak: z.boolean().default(DEFAULT_LAYOUT_SETTINGS.colorWeak),
  multiTab: z.boolean().default(DEFAULT_LAYOUT_SETTINGS.multiTab),
});
export type LayoutSettings = z.infer<typeof layoutSettingsSchema>;

const oneOf =
  <T extends string>(choices: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (choices as readonly string[]).includes(value);
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';

/**
 * One plain check per layout setting, the same rules as `layoutSettingsSchema` (a protocol
 * test compares them): the web client keeps the valid fields of stored settings with these,
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

export const profileUpdateSchema = z.strictObject({
  name: z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong').optional(),
  avatar: z.string().trim().max(500, 'validation.tooLong').optional(),
  language: z.enum(LANGUAGES).optional(),
  settings: layoutSettingsSchema.partial().optional(),
});

export const bindEmailSchema = z.strictObject({ email: emailSchema });
export const bindMobileSchema = z.strictObject({ mobile: mobileSchema, captcha: captchaSchema });

/** Which lift alerts reach the user by mail (the notification settings page). */
export const notificationSettingsSchema = z.strictObject({
  mailFaults: z.boolean(),
  mailHelp: z.boolean(),
  mailOffline: z.boolean(),
  offlineMinutes: z.number().int().min(5).max(7 * 24 * 60),
  liftIds: z.array(z.uuid()).max(10_000),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const sessionRevokeSchema = z.strictObject({ id: z.uuid() });

export interface SessionView {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  ip: string | null;
  userAgent: string | null;
  current: boolean;
}
