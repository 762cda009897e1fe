import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { captchaSchema, emailSchema, mobileSchema } from './auth.ts';
import {
  CONTENT_WIDTHS,
  DEFAULT_LAYOUT_SETTINGS,
  LAYOUT_MODES,
  NAV_THEMES,
  PRIMARY_COLOR_PATTERN,
} from './layout-settings.ts';

// The layout settings' choices, defaults and plain checks live in a module without zod:
// the web client reads them at start-up, and a bundler places code per module.
export {
  CONTENT_WIDTHS,
  DEFAULT_LAYOUT_SETTINGS,
  LAYOUT_MODES,
  LAYOUT_SETTING_CHECKS,
  NAV_THEMES,
  PRIMARY_COLOR_PATTERN,
} from './layout-settings.ts';

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
  /** The emergency-alarm device failed or missed its self-test, or its battery is low (absent in older clients: off). */
  mailAlarmDevice: z.boolean().default(false),
  /** The weekly mail of the lifts whose maintenance is overdue or due soon (absent in older clients: off). */
  mailMaintenance: z.boolean().default(false),
  /** The monthly availability report of the user's organization, with the PDF (absent in older clients: off). */
  mailReport: z.boolean().default(false),
  offlineMinutes: z.number().int().min(5).max(7 * 24 * 60),
  liftIds: z.array(z.uuid()).max(10_000),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const sessionRevokeSchema = z.strictObject({ id: z.uuid() });

/** One of the signed-in user's sessions (the account's security page). */
export const sessionViewSchema = z.strictObject({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;
