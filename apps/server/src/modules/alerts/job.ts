import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ALARM_TEST_MAX_HOURS, eventText, type AlertKind, type Language, type LiveChange } from '@liftlink/protocol';
import type { JobDefinition } from '../jobs/plugin.ts';
import { raiseAlert } from './repository.ts';

/** A lift silent this long gets an offline alert (each user's mail waits for their own threshold). */
export const OFFLINE_ALERT_AFTER_MINUTES = 5;

const MAIL_SUBJECT: Record<Language, (what: string, lift: string) => string> = {
  'zh-CN': (what, lift) => `LiftLink 告警：${lift} ${what}`,
  'en-US': (what, lift) => `LiftLink alert: ${lift} ${what}`,
  'ru-RU': (what, lift) => `LiftLink, тревога: ${lift} ${what}`,
};
const KIND_TEXT: Record<Language, Record<'help' | 'offline' | 'alarmTestFailed' | 'alarmTestMissed' | 'alarmBattery', string>> = {
  'zh-CN': {
    help: '发出求助信号',
    offline: '已离线',
    alarmTestFailed: '紧急报警装置自检失败',
    alarmTestMissed: `紧急报警装置超过 ${ALARM_TEST_MAX_HOURS} 小时没有通过自检`,
    alarmBattery: '紧急报警装置电池电量低',
  },
  'en-US': {
    help: 'raised its help signal',
    offline: 'is offline',
    alarmTestFailed: 'alarm device failed its self-test',
    alarmTestMissed: `alarm device has passed no self-test for ${ALARM_TEST_MAX_HOURS} hours`,
    alarmBattery: 'alarm device battery is low',
  },
  'ru-RU': {
    help: 'подал сигнал помощи',
    offline: 'не в сети',
    alarmTestFailed: 'устройство аварийной связи не прошло самотест',
    alarmTestMissed: `устройство аварийной связи не проходило самотест более ${ALARM_TEST_MAX_HOURS} часов`,
    alarmBattery: 'разряжен аккумулятор устройства аварийной связи',
  },
};

/** What a mail says happened. */
function alertText(kind: AlertKind, code: string | null, lang: Language): string {
  if (kind === 'fault') return eventText(code ?? '', lang);
  if (kind === 'alarmTest') return KIND_TEXT[lang][code === 'missed' ? 'alarmTestMissed' : 'alarmTestFailed'];
  return KIND_TEXT[lang][kind];
}

/** Raises an offline alert for each provisioned lift silent past the threshold; returns how many. */
async function raiseOfflineAlerts(app: FastifyInstance): Promise<number> {
  const { sql } = app.database;
  const stale = await sql.query<{ id: string; last_seen_at: Date | null }>(
    `select l.id, l.last_seen_at from lifts l where not l.online and l.iot_secret_hash is not null and l.last_seen_at < now() - make_interval(mins => $1)
        and not exists (select 1 from alerts a where a.lift_id = l.id and a.kind = 'offline' and a.cleared_at is null and a.acknowledged_at is null)
      limit 500`,
    [OFFLINE_ALERT_AFTER_MINUTES],
  );
  let raised = 0;
  for (const lift of stale) {
    // The offline incident's live messages (opened, or a repeat attached) go out with the alert.
    const incidents: LiveChange[] = [];
    const msg = await sql.transaction((tx) => raiseAlert(tx, lift.id, 'offline', null, new Date(lift.last_seen_at ?? Date.now()), incidents));
    if (msg) raised += 1;
    await app.live.publish([...(msg ? [msg] : []), ...incidents]).catch(() => {});
  }
  return raised;
}

/**
 * Raises an `alarmTest` alert (code `missed`) for each provisioned lift whose alarm device has
 * passed no self-test for ALARM_TEST_MAX_HOURS (counted from `alarm_watch_from` for a lift
 * that never passed one). Not while another alarmTest alert of the lift is open (a failed
 * test's), and once per gap: after an acknowledgement it comes again only after a new test.
 */
async function raiseMissedAlarmTests(app: FastifyInstance): Promise<number> {
  const { sql } = app.database;
  const overdue = await sql.query<{ id: string }>(
    `select l.id from lifts l
      where l.iot_secret_hash is not null and coalesce(l.alarm_last_passed_at, l.alarm_watch_from) < now() - make_interval(hours => $1)
        and not exists (select 1 from alerts a where a.lift_id = l.id and a.kind = 'alarmTest'
                         and ((a.cleared_at is null and a.acknowledged_at is null) or (a.code = 'missed' and a.raised_at >= coalesce(l.alarm_test_at, l.alarm_watch_from))))
      limit 500`,
    [ALARM_TEST_MAX_HOURS],
  );
  let raised = 0;
  for (const lift of overdue) {
    // The incident's live messages (opened, or a repeat attached) go out with the alert.
    const incidents: LiveChange[] = [];
    const msg = await sql.transaction((tx) => raiseAlert(tx, lift.id, 'alarmTest', 'missed', undefined, incidents));
    if (msg) raised += 1;
    await app.live.publish([...(msg ? [msg] : []), ...incidents]).catch(() => {});
  }
  return raised;
}

/** Mails the alert notifications that are due; returns how many mails went out. */
async function sendDueMails(app: FastifyInstance): Promise<number> {
  return app.database.sql.transaction(async (tx) => {
    let sent = 0;
    // `for update skip locked`: a mail goes out once even if two instances get here.
    const due = await tx.query<{ alert_id: string; user_id: string; email: string | null; language: Language; kind: AlertKind; code: string | null; device_no: string | null; alias: string; pending: boolean }>(
      `select d.alert_id, d.user_id, u.email, u.language, a.kind, a.code, l.device_no, l.alias,
              (a.cleared_at is null and a.acknowledged_at is null) as pending
         from alert_deliveries d join alerts a on a.id = d.alert_id join users u on u.id = d.user_id join lifts l on l.id = a.lift_id
        where d.mail and d.mailed_at is null and d.due_at <= now() order by d.due_at limit 100 for update of d skip locked`,
    );
    for (const m of due) {
      // An alert settled before its mail was due is not mailed; neither is one to a user without an address.
      if (m.pending && m.email) {
        const lang = (['zh-CN', 'en-US', 'ru-RU'] as const).includes(m.language) ? m.language : 'zh-CN';
        const what = alertText(m.kind, m.code, lang);
        const lift = `${m.device_no ?? ''}${m.alias ? ` (${m.alias})` : ''}`;
        await app.mailer.send({ to: m.email, subject: MAIL_SUBJECT[lang](what, lift), text: `${lift}: ${what}\n\n${app.config.publicUrl}/lift/alerts\n` });
        sent += 1;
      }
      await tx.query('update alert_deliveries set mailed_at = now() where alert_id = $1 and user_id = $2', [m.alert_id, m.user_id]);
    }
    return sent;
  });
}

/** Offline and missed alarm-test alerts, then the mails that are due (fault, help, failed alarm-test and alarm-battery alerts are raised by ingest). */
export const alertJob: JobDefinition = {
  name: 'alerts',
  everyMs: 15_000,
  firstAfterMs: 15_000,
  run: async (app) => ({ offlineAlerts: await raiseOfflineAlerts(app), missedAlarmTests: await raiseMissedAlarmTests(app), mails: await sendDueMails(app) }),
};

/** Adds the alert job to the background jobs (`app.jobs.run('alerts')` runs it now). */
export default fp(
  async (app) => {
    app.jobs.add(alertJob);
  },
  { name: 'liftlink-alert-job', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['config', 'database', 'mailer', 'live'] } },
);
