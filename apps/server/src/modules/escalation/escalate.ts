import type { FastifyInstance } from 'fastify';
import { ESCALATION_ACK_MINUTES_DEFAULT, INCIDENT_PRIORITIES, eventText, localized, pickText, type IncidentPriority, type LiveChange, type LocalizedText } from '@liftlink/protocol';
import { incidentMessage } from '../incidents/repository.ts';
import { findNotification, type Executor } from './repository.ts';

/**
 * The escalation engine (docs/service.md, "Escalation"), run by the escalation job and, for
 * an acknowledgement, at once by the incidents service. All state is in the database
 * (migration 0022): `incident_escalations` says how far each incident's escalation went,
 * `incident_notifications` whom it told (each row also a mail to send). Every pass takes its
 * rows `for update skip locked`, so two instances never ask or tell anyone twice.
 */

/** How many incidents one pass handles (the next run takes the rest). */
const BATCH = 50;

/** The acknowledge time of an incident, in SQL, from its policy row `p` and incident row `i`. */
const ACK_INTERVAL = `make_interval(mins => coalesce((p.ack_minutes_by_priority->>i.priority)::integer, p.ack_minutes))`;

/** The policy for a lift `l`: its operator organization's, or its maker's when the operator has none. */
const POLICY_OF_LIFT = `(select p.* from escalation_policies p where p.org_id in (l.operator_org_id, l.manufacturer_org_id)
                          order by (p.org_id = l.operator_org_id) desc limit 1)`;

async function publish(app: FastifyInstance, messages: LiveChange[]): Promise<void> {
  if (messages.length) await app.live.publish(messages).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
}

/**
 * Starts the escalation of each open incident that has none yet and whose lift falls under a
 * policy saved before it was opened. Without an assignee the first person is asked at once;
 * with one, only once the acknowledge time has passed.
 */
async function startEscalations(sql: Executor): Promise<number> {
  const rows = await sql.query(
    `insert into incident_escalations (incident_id, org_id, next_due_at)
     select i.id, p.org_id, case when i.assignee_id is null then now() else i.opened_at + ${ACK_INTERVAL} end
       from incidents i join lifts l on l.id = i.lift_id
       join lateral ${POLICY_OF_LIFT} p on true
      where i.state = 'open' and i.opened_at >= p.created_at
        and not exists (select 1 from incident_escalations e where e.incident_id = i.id)
      order by i.opened_at limit ${BATCH}
     on conflict (incident_id) do nothing returning incident_id`,
  );
  return rows.length;
}

interface DueRow {
  incident_id: string;
  org_id: string;
  step: number;
  state: string;
  priority: IncidentPriority;
  lift_id: string;
  on_call: string[] | null;
  manager_id: string | null;
  ack_minutes: number | null;
  ack_minutes_by_priority: Partial<Record<IncidentPriority, number>> | null;
}

/**
 * Asks the next person of each escalation that is due while its incident is still open: the
 * next on the list who may still be asked (an active member of the organization who may work
 * on incidents, not asked about it before), after the list the manager. Each one gets an
 * in-app notification (and its mail), the incident a step naming them, the audit log an entry.
 */
export async function escalateDue(app: FastifyInstance): Promise<number> {
  const live: LiveChange[] = [];
  const audits: { incidentId: string; liftId: string; to: string; step: number; manager: boolean }[] = [];
  const asked = await app.database.sql.transaction(async (tx) => {
    const due = await tx.query<DueRow>(
      `select e.incident_id, e.org_id, e.step, i.state, i.priority, i.lift_id, p.on_call, p.manager_id, p.ack_minutes, p.ack_minutes_by_priority
         from incident_escalations e join incidents i on i.id = e.incident_id left join escalation_policies p on p.org_id = e.org_id
        where e.next_due_at <= now() order by e.next_due_at limit ${BATCH} for update of e skip locked`,
    );
    let count = 0;
    for (const row of due) {
      // Acknowledged or ended meanwhile, or the policy was removed with its organization: nobody more is asked.
      if (row.state !== 'open' || !row.on_call) {
        await tx.query(`update incident_escalations set next_due_at = null where incident_id = $1`, [row.incident_id]);
        continue;
      }
      const targets = [...row.on_call, ...(row.manager_id ? [row.manager_id] : [])];
      const managerStep = row.manager_id ? row.on_call.length : -1;
      let step = row.step;
      let target: { id: string; name: string } | undefined;
      while (!target && step + 1 < targets.length) {
        step += 1;
        [target] = await tx.query<{ id: string; name: string }>(
          `select u.id, coalesce(nullif(trim(u.name), ''), u.username) as name from users u join roles r on r.id = u.role_id
            where u.id = $2 and u.status = 'active' and u.org_id = $1
              and exists (select 1 from jsonb_array_elements(r.permissions) g where g->>'permissionId' = 'incident' and g->'actions' ? 'edit')
              and not exists (select 1 from incident_notifications n where n.incident_id = $3 and n.user_id = u.id and n.kind = 'escalated')`,
          [row.org_id, targets[step], row.incident_id],
        );
      }
      const minutes = (row.ack_minutes_by_priority ?? {})[row.priority] ?? row.ack_minutes ?? ESCALATION_ACK_MINUTES_DEFAULT;
      const more = target !== undefined && step + 1 < targets.length;
      await tx.query(`update incident_escalations set step = $2, next_due_at = case when $3 then now() + make_interval(mins => $4::integer) end where incident_id = $1`, [row.incident_id, step, more, minutes]);
      if (!target) continue;
      const manager = step === managerStep;
      const [n] = await tx.query<{ id: string }>(
        `insert into incident_notifications (user_id, incident_id, kind, step, manager) values ($1, $2, 'escalated', $3, $4) on conflict do nothing returning id`,
        [target.id, row.incident_id, step, manager],
      );
      await tx.query(`insert into incident_steps (incident_id, from_state, to_state, escalated_to, escalated_manager) values ($1, 'open', 'open', $2, $3)`, [row.incident_id, target.name, manager]);
      if (n) {
        const notification = (await findNotification(tx, n.id))!;
        live.push({ type: 'notification', liftId: row.lift_id, userId: target.id, notification });
      }
      live.push(await incidentMessage(tx, row.incident_id));
      audits.push({ incidentId: row.incident_id, liftId: row.lift_id, to: target.name, step, manager });
      count += 1;
    }
    return count;
  });
  for (const a of audits) {
    await app.audit({ action: 'incident.escalate', result: 'ok', userId: null, username: null, liftId: a.liftId, targetType: 'incident', targetId: a.incidentId, detail: { incidentId: Number(a.incidentId), to: a.to, step: a.step, manager: a.manager } });
  }
  await publish(app, live);
  return asked;
}

/**
 * Ends the escalations whose incident left `open` (all of them, or the one named): when it was
 * acknowledged, everyone asked about it so far, except who acknowledged it, is told who took
 * it. A cancelled incident tells nobody. Returns how many were told.
 */
export async function endEscalations(app: FastifyInstance, incidentId?: number | string): Promise<number> {
  const live: LiveChange[] = [];
  const told = await app.database.sql.transaction(async (tx) => {
    const ended = await tx.query<{ incident_id: string; lift_id: string }>(
      `select e.incident_id, i.lift_id from incident_escalations e join incidents i on i.id = e.incident_id
        where e.ended_at is null and i.state <> 'open' ${incidentId === undefined ? '' : 'and e.incident_id = $1'}
        order by e.incident_id limit ${BATCH} for update of e skip locked`,
      incidentId === undefined ? [] : [incidentId],
    );
    let count = 0;
    for (const e of ended) {
      await tx.query(`update incident_escalations set ended_at = now(), next_due_at = null where incident_id = $1`, [e.incident_id]);
      const [taker] = await tx.query<{ actor_id: string | null; name: string }>(
        `select s.actor_id, coalesce((select nullif(trim(u.name), '') from users u where u.id = s.actor_id), s.actor_name, '—') as name
           from incident_steps s where s.incident_id = $1 and s.from_state = 'open' and s.to_state = 'acknowledged' order by s.id desc limit 1`,
        [e.incident_id],
      );
      if (!taker) continue;
      const rows = await tx.query<{ id: string; user_id: string }>(
        `insert into incident_notifications (user_id, incident_id, kind, actor_name)
         select distinct n.user_id, n.incident_id, 'taken', $2 from incident_notifications n
          where n.incident_id = $1 and n.kind = 'escalated' and n.user_id is distinct from $3::uuid
         on conflict do nothing returning id, user_id`,
        [e.incident_id, taker.name, taker.actor_id],
      );
      for (const r of rows) live.push({ type: 'notification', liftId: e.lift_id, userId: r.user_id, notification: (await findNotification(tx, r.id))! });
      count += rows.length;
    }
    return count;
  });
  await publish(app, live);
  return told;
}

const MAIL: Record<'escalated' | 'managerEscalated' | 'taken', { subject: LocalizedText; body: LocalizedText }> = {
  escalated: {
    subject: localized('LiftLink 事件待确认：{lift} {what}', 'LiftLink incident waiting for you: {lift} {what}', 'LiftLink, инцидент ждёт вас: {lift} {what}'),
    body: localized(
      '设备 {lift} 的事件 #{id}（{what}，优先级：{priority}）尚无人确认。您在值班名单上，轮到您了：请确认接手。',
      'Incident #{id} on {lift} ({what}, priority: {priority}) has not been acknowledged. You are next on the on-call list: please acknowledge it.',
      'Инцидент №{id} на {lift} ({what}, приоритет: {priority}) никто не принял. Вы следующий в списке дежурных: примите его.',
    ),
  },
  managerEscalated: {
    subject: localized('LiftLink 事件无人确认：{lift} {what}', 'LiftLink incident nobody acknowledged: {lift} {what}', 'LiftLink, инцидент никто не принял: {lift} {what}'),
    body: localized(
      '设备 {lift} 的事件 #{id}（{what}，优先级：{priority}）值班名单上无人确认。您是负责人：请确认接手或安排他人。',
      'Nobody on the on-call list acknowledged incident #{id} on {lift} ({what}, priority: {priority}). You are the manager: please acknowledge it or hand it on.',
      'Никто из списка дежурных не принял инцидент №{id} на {lift} ({what}, приоритет: {priority}). Вы руководитель: примите его или поручите другому.',
    ),
  },
  taken: {
    subject: localized('LiftLink 事件已由 {name} 接手：{lift}', 'LiftLink incident taken by {name}: {lift}', 'LiftLink, инцидент принял {name}: {lift}'),
    body: localized(
      '设备 {lift} 的事件 #{id}（{what}）已由 {name} 确认接手，您无需处理。',
      'Incident #{id} on {lift} ({what}) was acknowledged by {name}. Nothing more is needed from you.',
      'Инцидент №{id} на {lift} ({what}) принял {name}. От вас больше ничего не требуется.',
    ),
  },
};

const CAUSE_TEXT: Record<string, LocalizedText> = {
  help: localized('求助信号', 'help signal', 'сигнал помощи'),
  offline: localized('设备离线', 'lift offline', 'лифт не в сети'),
  alarmTest: localized('紧急报警装置自检', 'alarm device self-test', 'самотест устройства аварийной связи'),
  alarmBattery: localized('紧急报警装置电池电量低', 'alarm device battery low', 'разряжен аккумулятор устройства аварийной связи'),
  manual: localized('人工报告', 'reported by a person', 'сообщено человеком'),
};

const PRIORITY_TEXT: Record<IncidentPriority, LocalizedText> = {
  critical: localized('紧急', 'critical', 'критический'),
  high: localized('高', 'high', 'высокий'),
  normal: localized('普通', 'normal', 'обычный'),
  low: localized('低', 'low', 'низкий'),
};

const fill = (template: string, values: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => values[k] ?? '');

/** Mails the incident notifications not mailed yet, each in its recipient's language; returns how many went out. */
export async function sendNotificationMails(app: FastifyInstance): Promise<number> {
  return app.database.sql.transaction(async (tx) => {
    const due = await tx.query<{ id: string; kind: 'escalated' | 'taken'; manager: boolean; actor_name: string | null; email: string | null; language: string; incident_id: string; cause: string; code: string | null; title: string | null; priority: IncidentPriority; device_no: string | null; alias: string }>(
      `select n.id, n.kind, n.manager, n.actor_name, u.email, u.language, i.id as incident_id, i.cause, i.code, i.title, i.priority, l.device_no, l.alias
         from incident_notifications n join users u on u.id = n.user_id join incidents i on i.id = n.incident_id join lifts l on l.id = i.lift_id
        where n.mailed_at is null order by n.created_at limit 100 for update of n skip locked`,
    );
    let sent = 0;
    for (const m of due) {
      if (m.email) {
        const lang = m.language;
        const what = m.cause === 'fault' ? eventText(m.code ?? '', lang) : m.cause === 'manual' && m.title ? m.title : CAUSE_TEXT[m.cause] ? pickText(CAUSE_TEXT[m.cause]!, lang) : m.cause;
        const lift = `${m.device_no ?? ''}${m.alias ? ` (${m.alias})` : ''}`;
        const values = { lift, what, id: m.incident_id, name: m.actor_name ?? '—', priority: pickText(PRIORITY_TEXT[(INCIDENT_PRIORITIES as readonly string[]).includes(m.priority) ? m.priority : 'normal'], lang) };
        const texts = MAIL[m.kind === 'taken' ? 'taken' : m.manager ? 'managerEscalated' : 'escalated'];
        await app.mailer.send({ to: m.email, subject: fill(pickText(texts.subject, lang), values), text: `${fill(pickText(texts.body, lang), values)}\n\n${app.config.publicUrl}/lift/incidents/${m.incident_id}\n` });
        sent += 1;
      }
      await tx.query(`update incident_notifications set mailed_at = now() where id = $1`, [m.id]);
    }
    return sent;
  });
}

/** One run of the escalation job: start new escalations, ask who is due, tell who took it, send the mails. */
export async function runEscalation(app: FastifyInstance): Promise<Record<string, number>> {
  const started = await startEscalations(app.database.sql);
  const escalated = await escalateDue(app);
  const told = await endEscalations(app);
  const mails = await sendNotificationMails(app);
  return { started, escalated, told, mails };
}

/**
 * Called by the incidents service once an incident was acknowledged (committed): tells those
 * asked so far who took it and mails them now rather than at the job's next run. A failure
 * here is logged; the job's next run does the same.
 */
export async function escalationAcknowledged(app: FastifyInstance, incidentId: number): Promise<void> {
  try {
    if ((await endEscalations(app, incidentId)) > 0) await sendNotificationMails(app);
  } catch (err) {
    app.log.warn({ err, incidentId }, 'telling who took the incident failed; the escalation job retries');
  }
}
