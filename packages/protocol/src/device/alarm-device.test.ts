import { describe, expect, it } from 'vitest';
import { decodeLiftMessage, type DecodeResult } from '../mqtt/payloads.ts';
import { liftMayPublish, liftMaySubscribe, uplinkSubscription } from '../mqtt/topics.ts';
import { ALARM_BATTERY_LOW_PERCENT, ALARM_TEST_MAX_HOURS, alarmBatteryLow, alarmTestOverdue } from './alarm-device.ts';

const ts = '2026-03-01T08:00:00.000Z';
const decode = (payload: unknown, deviceNo = 'SIM-0001'): DecodeResult => decodeLiftMessage(`lifts/${deviceNo}/alarm`, JSON.stringify(payload));
const reason = (r: DecodeResult) => (r.ok ? 'ok' : r.reason);
const battery = { percent: 90, voltage: 13.1, low: false };

describe('the alarm device report', () => {
  it('accepts a passed test, a failed test naming its parts, and a report before the first test', () => {
    const passed = { seq: 1, ts, test: { at: ts, result: 'passed' }, battery };
    expect(decode(passed)).toEqual({ ok: true, deviceNo: 'SIM-0001', kind: 'alarm', message: passed });
    expect(reason(decode({ seq: 2, ts, test: { at: ts, result: 'failed', failed: ['speechLine', 'battery'] }, battery }))).toBe('ok');
    expect(reason(decode({ seq: 3, ts, battery: { voltage: 11.2, low: true } }))).toBe('ok');
    expect(reason(decode({ seq: 4, ts, battery: { percent: 15, low: true } }))).toBe('ok');
  });

  it('drops a failed test without parts, a passed test with parts, unknown parts and fields, and a battery without a figure', () => {
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'failed' }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'failed', failed: [] }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'passed', failed: ['button'] }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'failed', failed: ['button', 'button'] }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'failed', failed: ['siren'] }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: ts, result: 'maybe' }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, test: { at: '2026-03-01 08:00', result: 'passed' }, battery }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, battery: { low: false } }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, battery: { percent: 101, low: false } }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, battery: { percent: 50, low: 'no' } }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts }))).toBe('schema');
    expect(reason(decode({ seq: 1, ts, battery, extra: true }))).toBe('schema');
    expect(reason(decode({ ts, battery }))).toBe('schema');
  });

  it('is an uplink topic of the lift alone: it may publish there, not subscribe, and no other lift may publish there', () => {
    expect(liftMayPublish('SIM-0001', 'lifts/SIM-0001/alarm')).toBe(true);
    expect(liftMayPublish('SIM-0002', 'lifts/SIM-0001/alarm')).toBe(false);
    expect(liftMaySubscribe('SIM-0001', 'lifts/SIM-0001/alarm')).toBe(false);
    expect(uplinkSubscription('alarm', 'g')).toBe('$share/g/lifts/+/alarm');
  });

  it('calls the battery low by the device flag or by the threshold, and a test overdue after 72 hours', () => {
    expect(alarmBatteryLow({ percent: 80, low: false })).toBe(false);
    expect(alarmBatteryLow({ percent: 80, low: true })).toBe(true);
    expect(alarmBatteryLow({ percent: ALARM_BATTERY_LOW_PERCENT, low: false })).toBe(true);
    expect(alarmBatteryLow({ voltage: 12.5, low: false })).toBe(false);
    const now = new Date(ts);
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    expect(alarmTestOverdue(hoursAgo(ALARM_TEST_MAX_HOURS - 1), now)).toBe(false);
    expect(alarmTestOverdue(hoursAgo(ALARM_TEST_MAX_HOURS + 1), now)).toBe(true);
    expect(alarmTestOverdue(null, now)).toBe(true);
  });
});
