import { z } from 'zod';
import { localized, type LocalizedText } from './texts.ts';

/**
 * The lift's emergency-alarm device (EN 81-28): the button, speaker and microphone on the
 * platform and the line to the rescue service, powered by its own battery. The device tests
 * itself periodically and the lift reports the result and the battery on its `alarm` topic
 * (docs/protocol.md, "alarm"). A failed test, a missed test or a low battery is an incident:
 * a trapped passenger could not call for help.
 */

/** EN 81-28: the alarm device tests itself at least every 3 days; a lift without a passed test for longer is overdue. */
export const ALARM_TEST_MAX_HOURS = 72;
/** The battery is low at or below this charge, whatever the device's own flag says. */
export const ALARM_BATTERY_LOW_PERCENT = 20;

/** What a self-test checks; a failed test names the parts that failed. */
export const ALARM_TEST_PARTS = ['button', 'speechLine', 'speaker', 'microphone', 'battery'] as const;
export type AlarmTestPart = (typeof ALARM_TEST_PARTS)[number];
export const ALARM_TEST_RESULTS = ['passed', 'failed'] as const;
export type AlarmTestResult = (typeof ALARM_TEST_RESULTS)[number];

/** The parts in words, for the alert mails the server writes. */
export const ALARM_TEST_PART_TEXTS: Record<AlarmTestPart, LocalizedText> = {
  button: localized('报警按钮', 'alarm button', 'кнопка вызова'),
  speechLine: localized('通话线路', 'speech line', 'линия связи'),
  speaker: localized('扬声器', 'speaker', 'динамик'),
  microphone: localized('麦克风', 'microphone', 'микрофон'),
  battery: localized('备用电池', 'battery', 'аккумулятор'),
};

const isoTime = z.iso.datetime().refine((ts) => ts.slice(0, 4) >= '1970', 'validation.invalid');

/**
 * One self-test: when it ran, its result, and for a failed test the parts that failed (at
 * least one; a passed test names none).
 */
export const alarmTestSchema = z
  .strictObject({
    at: isoTime,
    result: z.enum(ALARM_TEST_RESULTS),
    failed: z.array(z.enum(ALARM_TEST_PARTS)).max(ALARM_TEST_PARTS.length).optional(),
  })
  .refine((t) => (t.result === 'failed') === (t.failed !== undefined && t.failed.length > 0), { path: ['failed'], message: 'validation.invalid' })
  .refine((t) => new Set(t.failed ?? []).size === (t.failed ?? []).length, { path: ['failed'], message: 'validation.invalid' });
export type AlarmTest = z.infer<typeof alarmTestSchema>;

/**
 * The alarm device's battery: its charge in % and/or its voltage (at least one), and the
 * device's own verdict `low`.
 */
export const alarmBatterySchema = z
  .strictObject({
    percent: z.number().int().min(0).max(100).optional(),
    voltage: z.number().min(0).max(60).optional(),
    low: z.boolean(),
  })
  .refine((b) => b.percent !== undefined || b.voltage !== undefined, { path: ['percent'], message: 'validation.required' });
export type AlarmBattery = z.infer<typeof alarmBatterySchema>;

/** The cloud's verdict: the device says low, or the charge is at or below ALARM_BATTERY_LOW_PERCENT. */
export function alarmBatteryLow(battery: AlarmBattery): boolean {
  return battery.low || (battery.percent !== undefined && battery.percent <= ALARM_BATTERY_LOW_PERCENT);
}

/** Whether a self-test is overdue at `now`: no passed test within ALARM_TEST_MAX_HOURS of it (`lastPassedAt` null: none yet). */
export function alarmTestOverdue(lastPassedAt: Date | null, now: Date): boolean {
  return lastPassedAt === null || now.getTime() - lastPassedAt.getTime() > ALARM_TEST_MAX_HOURS * 3_600_000;
}
