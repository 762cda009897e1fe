import { alarmBatteryLow, type LiveChange } from '@liftlink/protocol';
import { clearAlerts, raiseAlert } from '../../alerts/repository.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * Alarm-device reports (EN 81-28): the newest report (by seq) is kept on the lift; an older
 * one arriving late changes nothing. A failed self-test raises an `alarmTest` alert (code
 * `failed`) and a low battery an `alarmBattery` alert; a passed test and a good battery clear
 * them. The missed test (none passed for ALARM_TEST_MAX_HOURS) is the alert job's.
 */
export async function applyAlarmReports(tx: Tx, reports: UplinkOf<'alarm'>[], live: LiveChange[]): Promise<void> {
  for (const { liftId, message } of [...reports].sort((a, b) => a.message.seq - b.message.seq)) {
    const { test, battery } = message;
    const passedAt = test?.result === 'passed' ? test.at : null;
    const low = alarmBatteryLow(battery);
    // `before` is read under the batch's lock of the lift row: what the report changes.
    const [stored] = await tx.query<{ previous_test_at: Date | null; previous_low: boolean | null }>(
      `with before as (select alarm_test_at, alarm_battery_low from lifts where id = $1)
       update lifts set alarm_seq = $2, alarm_reported_at = $3,
              alarm_test_at = coalesce($4, alarm_test_at), alarm_test_result = coalesce($5, alarm_test_result),
              alarm_test_failed = case when $4::timestamptz is null then alarm_test_failed else $6::text[] end,
              alarm_last_passed_at = greatest(alarm_last_passed_at, $7::timestamptz),
              alarm_battery_percent = $8, alarm_battery_voltage = $9, alarm_battery_low = $10
        where id = $1 and alarm_seq < $2
        returning (select alarm_test_at from before) as previous_test_at, (select alarm_battery_low from before) as previous_low`,
      [liftId, message.seq, message.ts, test?.at ?? null, test?.result ?? null, test?.failed ?? [], passedAt, battery.percent ?? null, battery.voltage ?? null, low],
    );
    if (!stored) continue;
    // A test repeated by a report on connecting, or a battery still low, is not news: an
    // alert someone acknowledged is not raised again for it.
    const newTest = test !== undefined && (stored.previous_test_at === null || new Date(test.at).getTime() > new Date(stored.previous_test_at).getTime());
    if (test?.result === 'failed' && newTest) await raise(tx, liftId, 'alarmTest', 'failed', live);
    else if (test?.result === 'passed') await clearAlerts(tx, [liftId], 'alarmTest');
    if (low && stored.previous_low !== true) await raise(tx, liftId, 'alarmBattery', null, live);
    else if (!low) await clearAlerts(tx, [liftId], 'alarmBattery');
  }
}

async function raise(tx: Tx, liftId: string, kind: 'alarmTest' | 'alarmBattery', code: string | null, live: LiveChange[]): Promise<void> {
  // the incident it opens or repeats is told live with the alert
  const alert = await raiseAlert(tx, liftId, kind, code, undefined, live);
  if (alert) live.push(alert);
}
