import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { captchaSchema, emailSchema, mobileSchema } from './auth.ts';

/** Layout settings kept in the browser and in the user's profile (spec section 3). */
export const layoutSettingsSchema = z.strictObject({
  navTheme: z.enum(['dark', 'light']).default('dark'),
  layout: z.enum(['sidemenu', 'topmenu']).default('sidemenu'),
  contentWidth: z.enum(['Fluid', 'Fixed']).default('Fluid'),
  fixedHeader: z.boolean().default(false),
  fixSiderbar: z.boolean().default(false),
  autoHideHeader: z.boolean().default(false),
  primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'validation.color').default('#F5222D'),
  colorWeak: z.boolean().default(false),
  multiTab: z.boolean().default(true),
});
export type LayoutSettings = z.infer<typeof layoutSettingsSchema>;
export const DEFAULT_LAYOUT_SETTINGS: LayoutSettings = layoutSettingsSchema.parse({});

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
