import { z } from 'zod';
import { dateTimeSchema } from './envelope.ts';

/** Answer shapes of the alerts API (`/auth/access/alerts`, `/auth/access/notifications`). */
/** `alarmTest`: the emergency-alarm device failed or missed its self-test; `alarmBattery`: its battery is low (EN 81-28). */
export const ALERT_KINDS = ['fault', 'help', 'offline', 'alarmTest', 'alarmBattery'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

export const alertViewSchema = z.strictObject({
  id: z.number(),
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  kind: z.enum(ALERT_KINDS),
  /** The fault code of a fault alert; `failed` or `missed` for an alarmTest alert; null otherwise. */
  code: z.string().nullable(),
  raisedAt: z.string(),
  clearedAt: z.string().nullable(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
});
export type AlertView = z.infer<typeof alertViewSchema>;

export const alertPageSchema = z.strictObject({ list: z.array(alertViewSchema), total: z.number(), open: z.number() });

/** The signed-in user's notifications: the alerts delivered to them, newest first. */
export const notificationListSchema = z.strictObject({
  list: z.array(alertViewSchema.extend({ readAt: dateTimeSchema.nullable(), read: z.boolean() })),
  unread: z.number(),
});
