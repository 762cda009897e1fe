import type { FastifyInstance } from 'fastify';
import { LANGUAGES, MAINTENANCE_DUE_TEXTS, pickText, type Language } from '@liftlink/protocol';
import { grantedSql } from '../access/policy.ts';
import type { JobDefinition } from '../jobs/plugin.ts';
import { byUrgency, plannedLifts, type DueLiftRow } from './repository.ts';

/**
 * The weekly maintenance mail (docs/service.md): to each user who chose it (notification
 * setting `mailMaintenance`) and has an address, the lifts their `incident.query` grant
 * reaches (and their notification lift filter keeps) whose maintenance is overdue or due soon.
 * It goes out once per slot — the configured weekday from the configured hour on (UTC), every
 * day with weekday `any` — claimed by an upsert on `maintenance_mail_marks` that succeeds once
 * per slot, in the transaction that sends it: two instances mail a user once, and a failed
 * send is tried again at the next run.
 */

/** The start of the latest slot at or before `now`: `weekday` (0 = Sunday; null = every day) at `hour` UTC. */
export function lastMailSlot(now: Date, weekday: number | null, hour: number): Date {
  const slot = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), hour));
  while (slot > now || (weekday !== null && slot.getUTCDay() !== weekday)) slot.setUTCDate(slot.getUTCDate() - 1);
  return slot;
}

const SUBJECT: Record<Language, (overdue: number, soon: number) => string> = {
  'zh-CN': (o, s) => `LiftLink 保养提醒：${o} 台已逾期，${s} 台即将到期`,
  'en-US': (o, s) => `LiftLink maintenance: ${o} overdue, ${s} due soon`,
  'ru-RU': (o, s) => `LiftLink, обслуживание: просрочено ${o}, скоро срок ${s}`,
};
const DUE_LINE: Record<Language, { days: (dueAt: string, daysLeft: number) => string; trips: (since: number, interval: number) => string }> = {
  'zh-CN': { days: (at, d) => `到期日 ${at}（${d < 0 ? `已逾期 ${-d} 天` : `剩余 ${d} 天`}）`, trips: (n, i) => `自上次保养已运行 ${n} 次（间隔 ${i} 次）` },
  'en-US': { days: (at, d) => `due ${at} (${d < 0 ? `${-d} days overdue` : `${d} days left`})`, trips: (n, i) => `${n} trips since the last visit (interval ${i})` },
  'ru-RU': { days: (at, d) => `срок ${at} (${d < 0 ? `просрочено на ${-d} дн.` : `осталось ${d} дн.`})`, trips: (n, i) => `поездок после обслуживания: ${n} (интервал ${i})` },
};
const NEVER: Record<Language, string> = { 'zh-CN': '尚无保养记录', 'en-US': 'no visit yet', 'ru-RU': 'обслуживания ещё не было' };

/** One lift's line of the mail. */
export function dueLine(l: DueLiftRow, lang: Language): string {
  const name = `${l.deviceNo ?? ''}${l.alias ? ` (${l.alias})` : ''}`;
  const parts = [pickText(MAINTENANCE_DUE_TEXTS[l.due.status], lang)];
  if (l.due.dueAt != null && l.due.daysLeft != null) parts.push(DUE_LINE[lang].days(l.due.dueAt.slice(0, 10), l.due.daysLeft));
  if (l.due.tripsDue != null) parts.push(DUE_LINE[lang].trips(l.due.tripsSinceVisit, l.due.tripsDue));
  if (!l.due.lastVisitAt) parts.push(NEVER[lang]);
  return `- ${name}: ${parts.join('; ')}`;
}

async function sendWeeklyMails(app: FastifyInstance, now = new Date()): Promise<number> {
  const { weekday, hour } = app.config.maintenanceMail;
  const slot = lastMailSlot(now, weekday, hour);
  const { sql } = app.database;
  const users = await sql.query<{ id: string }>(
    `select u.id from users u
      where u.status = 'active' and u.email is not null and coalesce((u.notifications->>'mailMaintenance')::boolean, false)
        and not exists (select 1 from maintenance_mail_marks m where m.user_id = u.id and m.sent_at >= $1)
      order by u.id limit 1000`,
    [slot],
  );
  let sent = 0;
  for (const { id } of users) {
    const mailed = await sql.transaction(async (tx) => {
      // The claim: only one transaction turns this user's mark past the slot.
      const claimed = await tx.query(
        `insert into maintenance_mail_marks as m (user_id, sent_at) values ($1, now())
         on conflict (user_id) do update set sent_at = now() where m.sent_at < $2 returning user_id`,
        [id, slot],
      );
      if (!claimed.length) return false;
      const [user] = await tx.query<{ email: string | null; language: Language; permissions: unknown; org_id: string | null; lift_ids: string[] | null; active: boolean }>(
        `select u.email, u.language, r.permissions, u.org_id, u.notifications->'liftIds' as lift_ids, u.status = 'active' as active from users u join roles r on r.id = u.role_id where u.id = $1`,
        [id],
      );
      if (!user?.email || !user.active) return false;
      const filter = user.lift_ids?.length ? ' and l.id = any($3::uuid[])' : '';
      const lifts = (await plannedLifts(tx, `${grantedSql('$1::jsonb', '$2::uuid', 'incident.query')}${filter}`, [JSON.stringify(user.permissions), user.org_id, ...(filter ? [user.lift_ids] : [])], now))
        .filter((l) => l.due.status === 'overdue' || l.due.status === 'dueSoon')
        .sort(byUrgency);
      // Nothing due: no mail this week (the slot is still taken, so the next chance is the next slot).
      if (!lifts.length) return false;
      const lang: Language = (LANGUAGES as readonly string[]).includes(user.language) ? user.language : 'zh-CN';
      const overdue = lifts.filter((l) => l.due.status === 'overdue').length;
      const text = `${lifts.map((l) => dueLine(l, lang)).join('\n')}\n\n${app.config.publicUrl}/lift/maintenance\n`;
      await app.mailer.send({ to: user.email, subject: SUBJECT[lang](overdue, lifts.length - overdue), text });
      return true;
    });
    if (mailed) sent += 1;
  }
  return sent;
}

/** Looks every 10 minutes whether a user's weekly maintenance mail is due (`app.jobs.run('maintenance-mail')` runs it now). */
export const maintenanceMailJob: JobDefinition = {
  name: 'maintenance-mail',
  everyMs: 10 * 60_000,
  firstAfterMs: 60_000,
  run: async (app) => ({ mails: await sendWeeklyMails(app) }),
};
