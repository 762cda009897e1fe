import { alarmTestOverdue, eventText, type AlarmDeviceView, type AlarmTestPart, type CommandRecord, type IotInfo, type LiftConfig, type LiftInfo, type LiftListItem, type PresenceReason, type RunLogEntry } from '@liftlink/protocol';
import type { z } from 'zod';
import type { LiftSortKey, liftListQuerySchema, runLogQuerySchema } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { liftAccess, liftFilter } from '../access/policy.ts';

const SORT_COLUMNS: Record<LiftSortKey, string> = {
  deviceNo: 'l.device_no',
  alias: 'l.alias',
  kind: 'l.kind',
  online: 'l.online',
  lastSeen: 'l.last_seen_at',
  floor: 'l.floor',
};

const LIST_COLUMNS = `l.id, l.device_no as "deviceNo", l.alias, l.kind, l.online, l.mode, l.floor, l.floors, l.firmware,
  l.active_fault as "activeFault", l.last_seen_at as "lastSeenAt", l.location, l.manufacturer_org_id as "manufacturerOrgId", l.operator_org_id as "operatorOrgId"`;

type ListRow = Omit<LiftListItem, 'lastSeenAt' | 'access'> & { lastSeenAt: Date | null; manufacturerOrgId: string; operatorOrgId: string | null };
/** A row as the caller gets it: with what the caller may do with this lift. */
const toItem = (auth: AuthContext, { manufacturerOrgId, operatorOrgId, ...r }: ListRow): LiftListItem => ({
  ...r,
  lastSeenAt: r.lastSeenAt ? new Date(r.lastSeenAt).toISOString() : null,
  access: liftAccess(auth, { manufacturerOrgId, operatorOrgId }),
});

/** The caller's lifts, filtered, sorted and paged on the server. */
export async function listLifts(sql: SqlExecutor, auth: AuthContext, q: z.infer<typeof liftListQuerySchema>): Promise<{ list: LiftListItem[]; total: number }> {
  const params: unknown[] = [];
  const where: string[] = [];
  const scope = liftFilter(auth, 1);
  if (scope.param) params.push(scope.param);
  where.push(scope.where);
  if (q.keyword) {
    params.push(`%${q.keyword.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(l.device_no ilike $${params.length} or l.alias ilike $${params.length} or l.location->>'address' ilike $${params.length} or l.location->>'site' ilike $${params.length})`);
  }
  if (q.kind) {
    params.push(q.kind);
    where.push(`l.kind = $${params.length}`);
  }
  if (q.online !== undefined) {
    params.push(q.online);
    where.push(`l.online = $${params.length}`);
  }
  if (q.fault !== undefined) where.push(q.fault ? `l.active_fault is not null` : `l.active_fault is null`);
  const cond = where.join(' and ');
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from lifts l where ${cond}`, params);
  const order = `${SORT_COLUMNS[q.sort]} ${q.order} nulls last, l.id`;
  const rows = await sql.query<ListRow>(
    `select ${LIST_COLUMNS} from lifts l where ${cond} order by ${order} limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return { total: Number(count!.n), list: rows.map((r) => toItem(auth, r)) };
}

/** The alarm device's columns of the lift row (migration 0020). */
interface AlarmColumns {
  alarm_reported_at: Date | null;
  alarm_test_at: Date | null;
  alarm_test_result: 'passed' | 'failed' | null;
  alarm_test_failed: string[];
  alarm_last_passed_at: Date | null;
  alarm_battery_percent: number | null;
  alarm_battery_voltage: number | null;
  alarm_battery_low: boolean | null;
  alarm_watch_from: Date;
}
const ALARM_COLUMNS = `l.alarm_reported_at, l.alarm_test_at, l.alarm_test_result, l.alarm_test_failed, l.alarm_last_passed_at,
  l.alarm_battery_percent, l.alarm_battery_voltage, l.alarm_battery_low, l.alarm_watch_from`;

/** The alarm device as the lift last reported it; null before its first report. */
function alarmDeviceView(r: AlarmColumns, now: Date): AlarmDeviceView | null {
  if (!r.alarm_reported_at) return null;
  return {
    reportedAt: new Date(r.alarm_reported_at).toISOString(),
    lastTest: r.alarm_test_at && r.alarm_test_result ? { at: new Date(r.alarm_test_at).toISOString(), result: r.alarm_test_result, failed: r.alarm_test_failed as AlarmTestPart[] } : null,
    battery: { percent: r.alarm_battery_percent, voltage: r.alarm_battery_voltage === null ? null : Math.round(r.alarm_battery_voltage * 100) / 100, low: r.alarm_battery_low ?? false },
    // the alert job's clock: a lift that never passed a test counts from the watch start
    testOverdue: alarmTestOverdue(new Date(r.alarm_last_passed_at ?? r.alarm_watch_from), now),
  };
}

export async function liftInfo(sql: SqlExecutor, auth: AuthContext, liftId: string): Promise<Omit<LiftInfo, 'approvalClasses'>> {
  const [r] = await sql.query<ListRow & AlarmColumns & { iot_info: IotInfo; config_version: number; online_since: Date | null; status: LiftInfo['status']; config: LiftInfo['config']; online_ms_total: string; trips_total: string; today_online: string | null; today_trips: number | null }>(
    `select ${LIST_COLUMNS}, ${ALARM_COLUMNS}, l.iot_info, l.config_version, l.online_since, l.status, l.config, l.online_ms_total, l.trips_total,
            d.online_ms as today_online, d.trips as today_trips
       from lifts l left join lift_daily_stats d on d.lift_id = l.id and d.day = (now() at time zone 'utc')::date where l.id = $1`,
    [liftId],
  );
  const now = Date.now();
  const since = r!.online_since ? new Date(r!.online_since).getTime() : null;
  const dayStart = new Date(new Date(now).toISOString().slice(0, 10) + 'T00:00:00Z').getTime();
  const { iot_info, config_version, online_since, status, config, online_ms_total, trips_total, today_online, today_trips, ...rest } = r!;
  const { alarm_reported_at, alarm_test_at, alarm_test_result, alarm_test_failed, alarm_last_passed_at, alarm_battery_percent, alarm_battery_voltage, alarm_battery_low, alarm_watch_from, ...item } = rest;
  const alarmDevice = alarmDeviceView({ alarm_reported_at, alarm_test_at, alarm_test_result, alarm_test_failed, alarm_last_passed_at, alarm_battery_percent, alarm_battery_voltage, alarm_battery_low, alarm_watch_from }, new Date(now));
  return {
    lift: { ...toItem(auth, item), iotInfo: iot_info, configVersion: config_version, onlineSince: online_since ? new Date(online_since).toISOString() : null },
    status,
    config,
    stats: {
      onlineMsTotal: Number(online_ms_total) + (since ? now - since : 0),
      onlineMsToday: Number(today_online ?? 0) + (since ? now - Math.max(since, dayStart) : 0),
      tripsTotal: Number(trips_total),
      tripsToday: today_trips ?? 0,
    },
    alarmDevice,
  };
}

/**
 * A page of a lift's run log, newest first. Unfiltered, page p is a range of the lift's
 * entry ordinals, so every page costs the same however deep it is; filtered pages walk
 * the lift's (fault) index with an offset.
 */
export async function runLog(sql: SqlExecutor, q: z.infer<typeof runLogQuerySchema>, lang: string, limit = q.pageSize, offset = (q.page - 1) * q.pageSize): Promise<{ list: RunLogEntry[]; total: number }> {
  type Row = { id: string; ts: Date; code: string; fault: boolean; floor: number | null; reason: PresenceReason | null };
  const columns = 'id, ts, code, fault, floor, reason';
  const filtered = q.from || q.to || q.codes || q.class;
  let total: number;
  let rows: Row[];
  if (!filtered) {
    // Entries are numbered 1..events_total as they arrive; retention removes the oldest.
    const [lift] = await sql.query<{ n: string; retired: string }>(`select events_total as n, events_retired as retired from lifts where id = $1`, [q.liftId]);
    total = Number(lift?.n ?? 0) - Number(lift?.retired ?? 0);
    const high = Number(lift?.n ?? 0) - offset;
    rows = await sql.query<Row>(`select ${columns} from lift_events where lift_id = $1 and n <= $2 and n > $3 order by n desc`, [q.liftId, high, high - limit]);
  } else {
    const params: unknown[] = [q.liftId];
    const where = ['lift_id = $1'];
    if (q.from) where.push(`ts >= $${params.push(q.from)}`);
    if (q.to) where.push(`ts <= $${params.push(q.to)}`);
    if (q.codes) where.push(`code = any($${params.push(q.codes.split(','))}::text[])`);
    if (q.class) where.push(`fault = $${params.push(q.class === 'fault')}`);
    const cond = where.join(' and ');
    if (q.class && !q.from && !q.to && !q.codes) {
      // Only the class filter: the totals ingest keeps, instead of counting the lift's log.
      const [lift] = await sql.query<{ events: string; faults: string }>(`select events_total - events_retired as events, faults_total as faults from lifts where id = $1`, [q.liftId]);
      total = q.class === 'fault' ? Number(lift?.faults ?? 0) : Number(lift?.events ?? 0) - Number(lift?.faults ?? 0);
    } else {
      const [count] = await sql.query<{ n: string }>(`select count(*) as n from lift_events where ${cond}`, params);
      total = Number(count!.n);
    }
    rows = await sql.query<Row>(`select ${columns} from lift_events where ${cond} order by n desc limit $${params.length + 1} offset $${params.length + 2}`, [...params, limit, offset]);
  }
  return {
    total,
    list: rows.map((r) => ({ id: Number(r.id), ts: new Date(r.ts).toISOString(), code: r.code, text: eventText(r.code, lang, r.reason), fault: r.fault, floor: r.floor, reason: r.reason })),
  };
}

/** The columns a lift's owner edits, each replaced whole. */
const EDITABLE = { alias: 'alias', location: 'location' } as const;

/** Replaces one editable part of a lift (alias, location) and returns what it was. The IoT details go through config-service's updateIotInfo, which logs them. */
export async function replaceLiftField(sql: SqlExecutor, liftId: string, field: keyof typeof EDITABLE, value: unknown): Promise<unknown> {
  const column = EDITABLE[field];
  const [before] = await sql.query<Record<string, unknown>>(`select ${column} as value from lifts where id = $1`, [liftId]);
  await sql.query(`update lifts set ${column} = $2${field === 'alias' ? '' : '::jsonb'} where id = $1`, [liftId, field === 'alias' ? value : JSON.stringify(value)]);
  return before!.value;
}

/** The configuration the server holds for a lift (the last one the lift reported) and its version. */
export async function storedConfig(sql: SqlExecutor, liftId: string): Promise<{ config: LiftConfig | null; version: number }> {
  const [row] = await sql.query<{ config: LiftConfig | null; config_version: number }>('select config, config_version from lifts where id = $1', [liftId]);
  return { config: row!.config, version: row!.config_version };
}

/** A lift's last 50 commands, newest first. */
export function recentCommands(sql: SqlExecutor, liftId: string): Promise<CommandRecord[]> {
  return sql.query<CommandRecord>(
    `select id as "commandId", name, args, state, reason, username, created_at as "createdAt", updated_at as "updatedAt" from lift_commands where lift_id = $1 order by created_at desc limit 50`,
    [liftId],
  );
}

/** Trips and online time per UTC day for the last `days` days, today included; a day without figures is zeros. */
export async function dailyStats(sql: SqlExecutor, liftId: string, days: number): Promise<{ day: string; trips: number; onlineMs: number }[]> {
  const rows = await sql.query<{ day: string; trips: number; onlineMs: string }>(
    `select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(s.trips, 0) as trips, coalesce(s.online_ms, 0) as "onlineMs"
       from generate_series((now() at time zone 'utc')::date - ($2::integer - 1), (now() at time zone 'utc')::date, interval '1 day') as d(day)
       left join lift_daily_stats s on s.lift_id = $1 and s.day = d.day::date order by d.day`,
    [liftId, days],
  );
  return rows.map((r) => ({ ...r, onlineMs: Number(r.onlineMs) }));
}

/** Voltage and load samples of the last `hours` hours, oldest first. */
export async function recentSamples(sql: SqlExecutor, liftId: string, hours: number): Promise<{ ts: string; voltage: number; loadValue: number }[]> {
  const rows = await sql.query<{ ts: Date; voltage: number; loadValue: number }>(
    `select ts, voltage, load_value as "loadValue" from lift_samples where lift_id = $1 and ts > now() - make_interval(hours => $2) order by ts`,
    [liftId, hours],
  );
  return rows.map((r) => ({ ...r, ts: new Date(r.ts).toISOString() }));
}

/** What the public QR code page shows of a lift, found by its device number, whoever owns it. */
export async function publicLift(sql: SqlExecutor, deviceNo: string): Promise<{ id: string; kind: string; device_no: string; floors: number; contact: string | null } | null> {
  const [row] = await sql.query<{ id: string; kind: string; device_no: string; floors: number; contact: string | null }>(
    `select id, kind, device_no, floors, location->>'contact' as contact from lifts where device_no = $1`,
    [deviceNo],
  );
  return row ?? null;
}
