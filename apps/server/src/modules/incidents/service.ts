import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  INCIDENT_TRANSITIONS,
  ROOT_CAUSE_TEXTS,
  STATES_NEEDING_ASSIGNEE,
  canTransition,
  eventText,
  pickText,
  priorityOf,
  rootCausesFor,
  type IncidentDetail,
  type IncidentPriority,
  type IncidentState,
  type IncidentTransitionInput,
  type IncidentView,
  type LiveChange,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { grantedSql, liftFilter } from '../access/policy.ts';
import { ownedLift } from '../lifts/scope.ts';
import { appendLogbook, type Tx } from '../logbook/append.ts';
import { enqueueAlertEvent } from '../webhooks/events.ts';
import { escalationAcknowledged } from '../escalation/escalate.ts';
import { enqueueIncidentEvent } from './webhook-events.ts';
import { ACTIVE_SQL, INCIDENT_SELECT, addStep, eventsDuring, findIncident, incidentMessage, notesOf, stepsOf, toIncidentView, type Executor } from './repository.ts';

/**
 * Incidents worked on by people (docs/service.md): opened by hand, moved through the states
 * of the protocol's transitions table, assigned, annotated. Each step records who and when,
 * is audited and told live to every open screen (`incident` messages). An incident on a lift
 * out of the caller's reach is "not found".
 */

const who = (request: FastifyRequest) => ({ userId: request.auth!.userId, username: request.auth!.username, ip: request.ip });
const actorOf = (auth: AuthContext) => ({ userId: auth.userId, name: auth.username });

async function publish(app: FastifyInstance, messages: LiveChange[]): Promise<void> {
  await app.live.publish(messages).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
}

/** The incident, locked, if the caller's grant for the route reaches its lift. */
async function scopedIncident(sql: Executor, auth: AuthContext, id: number, lock: boolean): Promise<IncidentView & { liftKind: string }> {
  const scope = liftFilter(auth, 2);
  const [row] = await sql.query<IncidentView>(`${INCIDENT_SELECT} where i.id = $1 and ${scope.where}${lock ? ' for update of i' : ''}`, scope.param ? [id, scope.param] : [id]);
  if (!row) throw new AppError('incident.notFound');
  return toIncidentView(row);
}

export interface IncidentListQuery {
  page: number;
  pageSize: number;
  state?: IncidentState | 'active' | undefined;
  cause?: string | undefined;
  priority?: IncidentPriority | undefined;
  liftId?: string | undefined;
  assigneeId?: string | undefined;
}

/** A page of the incidents on the caller's lifts: the most urgent first, then the newest. */
export async function incidentPage(sql: SqlExecutor, auth: AuthContext, q: IncidentListQuery): Promise<{ list: IncidentView[]; total: number }> {
  const scope = liftFilter(auth, 1);
  const params: unknown[] = scope.param ? [scope.param] : [];
  const where = [scope.where];
  if (q.state === 'active') where.push(`i.state in ${ACTIVE_SQL}`);
  else if (q.state) where.push(`i.state = $${params.push(q.state)}`);
  if (q.cause) where.push(`i.cause = $${params.push(q.cause)}`);
  if (q.priority) where.push(`i.priority = $${params.push(q.priority)}`);
  if (q.liftId) where.push(`i.lift_id = $${params.push(q.liftId)}`);
  if (q.assigneeId) where.push(`i.assignee_id = $${params.push(q.assigneeId)}`);
  const cond = where.join(' and ');
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from incidents i join lifts l on l.id = i.lift_id where ${cond}`, params);
  const rows = await sql.query<IncidentView>(
    `${INCIDENT_SELECT} where ${cond}
      order by (i.state in ${ACTIVE_SQL}) desc, array_position(array['critical', 'high', 'normal', 'low'], i.priority), i.opened_at desc, i.id desc
      limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  return { list: rows.map(toIncidentView), total: Number(count!.n) };
}

/** The incident with its steps, notes, the lift's run log while it was open, the next states and root causes. */
export async function incidentDetail(sql: SqlExecutor, auth: AuthContext, id: number): Promise<IncidentDetail> {
  const incident = await scopedIncident(sql, auth, id, false);
  const events = await eventsDuring(sql, incident.liftId, incident.openedAt, incident.endedAt);
  return {
    incident,
    steps: await stepsOf(sql, incident.id),
    notes: await notesOf(sql, incident.id),
    events: events.map((e) => ({ id: Number(e.id), ts: new Date(e.ts).toISOString(), code: e.code, text: eventText(e.code, auth.language, e.reason), fault: e.fault })),
    next: [...INCIDENT_TRANSITIONS[incident.state]],
    rootCauses: rootCausesFor(incident.liftKind).map((c) => ({ id: c, text: pickText(ROOT_CAUSE_TEXTS[c], auth.language) })),
  };
}

/** A person opens an incident on a lift they may reach with `incident.add`. */
export async function createIncident(app: FastifyInstance, request: FastifyRequest, input: { liftId: string; title: string; priority?: IncidentPriority | undefined }): Promise<IncidentView> {
  const { sql } = app.database;
  const auth = request.auth!;
  const lift = await ownedLift(sql, auth, input.liftId);
  const id = await sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into incidents (lift_id, cause, title, priority, opened_by, opened_by_name) values ($1, 'manual', $2, $3, $4, $5) returning id`,
      [lift.id, input.title, input.priority ?? priorityOf('manual'), auth.userId, auth.username],
    );
    await addStep(tx, row!.id, { from: null, to: 'open', actor: actorOf(auth) });
    await appendLogbook(tx, { liftId: lift.id, kind: 'incident', actor: { id: auth.userId, name: auth.username }, data: { incidentId: Number(row!.id), cause: 'manual', title: input.title, from: null, to: 'open' } });
    await enqueueIncidentEvent(tx, row!.id, 'open');
    return row!.id;
  });
  const message = await incidentMessage(sql, id);
  await app.audit({ action: 'incident.open', result: 'ok', ...who(request), liftId: lift.id, targetType: 'incident', targetId: id, detail: { incidentId: Number(id), title: input.title, priority: message.incident.priority } });
  await publish(app, [message]);
  return message.incident;
}

/**
 * Applies one allowed transition inside the caller's transaction (checked by the caller):
 * the incident's row, its step, its alert (acknowledged, or cleared), the lift's logbook and
 * the organizations' webhooks. Also used by a maintenance visit closing the incidents it resolved.
 */
export async function applyTransition(tx: Tx, incident: IncidentView, input: IncidentTransitionInput, auth: AuthContext): Promise<void> {
  const resolving = input.to === 'resolved';
  await tx.query(
    `update incidents set state = $2, state_changed_at = now(),
            ended_at = case when $2 in ('resolved', 'cancelled') then now() else ended_at end,
            root_cause = case when $3 then $4 else root_cause end, resolution_text = case when $3 then $5 else resolution_text end,
            parts_used = case when $3 then $6::jsonb else parts_used end
      where id = $1`,
    [incident.id, input.to, resolving, input.rootCause ?? null, input.resolutionText ?? null, JSON.stringify(input.partsUsed ?? [])],
  );
  await addStep(tx, incident.id, { from: incident.state, to: input.to, actor: actorOf(auth), note: input.note ?? null });
  if (input.to === 'acknowledged') {
    const acked = await tx.query<{ id: string }>(`update alerts a set acknowledged_at = now(), acknowledged_by = $2, acknowledged_by_name = $3 from incidents i where i.id = $1 and a.id = i.alert_id and a.acknowledged_at is null returning a.id`, [incident.id, auth.userId, auth.username]);
    for (const a of acked) await enqueueAlertEvent(tx, 'alert.acknowledged', a.id);
  }
  if (input.to === 'resolved' || input.to === 'cancelled') {
    const cleared = await tx.query<{ id: string }>(`update alerts a set cleared_at = now() from incidents i where i.id = $1 and a.id = i.alert_id and a.cleared_at is null and a.acknowledged_at is null returning a.id`, [incident.id]);
    for (const a of cleared) await enqueueAlertEvent(tx, 'alert.cleared', a.id);
  }
  // The lift's logbook keeps every state change (last: it locks the logbook's head).
  await appendLogbook(tx, {
    liftId: incident.liftId,
    kind: 'incident',
    actor: { id: auth.userId, name: auth.username },
    data: { incidentId: incident.id, cause: incident.cause, code: incident.code, from: incident.state, to: input.to, ...(resolving ? { rootCause: input.rootCause, partsUsed: input.partsUsed ?? [] } : {}) },
  });
  await enqueueIncidentEvent(tx, incident.id, input.to); // the organizations' webhooks (docs/webhooks.md)
}

/**
 * Moves an incident to another state, if the transitions table allows it from the state it
 * is in (checked under a row lock, so of two people at once only one moves it). Resolving
 * records the root cause (from the list of the lift's kind), the text and the parts used.
 * Acknowledging acknowledges its alert (its pending mails are not sent); resolving or
 * cancelling clears it. A refusal changes nothing and is audited.
 */
export async function transitionIncident(app: FastifyInstance, request: FastifyRequest, input: IncidentTransitionInput): Promise<IncidentView> {
  const { sql } = app.database;
  const auth = request.auth!;
  const audit = (result: string, liftId: string, detail: Record<string, unknown>) =>
    app.audit({ action: 'incident.transition', result, ...who(request), liftId, targetType: 'incident', targetId: String(input.id), detail: { incidentId: input.id, to: input.to, ...detail } });
  type Outcome = { refused: null; from: IncidentState; liftId: string } | { refused: 'incident.transition' | 'incident.needsAssignee' | 'validation.failed'; incident: IncidentView };
  const outcome = await sql.transaction(async (tx): Promise<Outcome> => {
    const incident = await scopedIncident(tx, auth, input.id, true);
    if (!canTransition(incident.state, input.to)) return { refused: 'incident.transition', incident };
    if (STATES_NEEDING_ASSIGNEE.includes(input.to) && !incident.assigneeId) return { refused: 'incident.needsAssignee', incident };
    if (input.to === 'resolved' && (!input.rootCause || !(rootCausesFor(incident.liftKind) as readonly string[]).includes(input.rootCause))) return { refused: 'validation.failed', incident };
    await applyTransition(tx, incident, input, auth);
    return { refused: null, from: incident.state, liftId: incident.liftId };
  });
  if (outcome.refused !== null) {
    await audit('denied', outcome.incident.liftId, { from: outcome.incident.state, reason: outcome.refused });
    if (outcome.refused === 'validation.failed') throw new AppError('validation.failed', { issues: [{ path: 'rootCause', message: 'validation.invalid' }] });
    throw new AppError(outcome.refused, { incident: outcome.incident });
  }
  await audit('ok', outcome.liftId, { from: outcome.from, ...(input.note ? { note: input.note } : {}), ...(input.rootCause && input.to === 'resolved' ? { rootCause: input.rootCause } : {}) });
  const message = await incidentMessage(sql, input.id);
  await publish(app, [message]);
  // Escalation (docs/service.md): those asked so far are told who took it.
  if (input.to === 'acknowledged') await escalationAcknowledged(app, input.id);
  return message.incident;
}

/** The users who may be assigned: active members of the lift's organizations whose role may work on its incidents. */
export async function assigneesOf(sql: Executor, liftId: string): Promise<{ id: string; name: string; username: string }[]> {
  return sql.query(
    `select u.id, coalesce(nullif(trim(u.name), ''), u.username) as name, u.username
       from users u join roles r on r.id = u.role_id join lifts l on l.id = $1
      where u.status = 'active' and u.org_id is not null and (u.org_id = l.operator_org_id or u.org_id = l.manufacturer_org_id)
        and ${grantedSql('r.permissions', 'u.org_id', 'incident.edit')}
      order by name`,
    [liftId],
  );
}

export async function incidentAssignees(sql: SqlExecutor, auth: AuthContext, id: number): Promise<{ id: string; name: string; username: string }[]> {
  const incident = await scopedIncident(sql, auth, id, false);
  return assigneesOf(sql, incident.liftId);
}

/** Assigns a technician: only a user `assigneesOf` lists; a closed or cancelled incident takes no one. */
export async function assignIncident(app: FastifyInstance, request: FastifyRequest, input: { id: number; userId: string }): Promise<IncidentView> {
  const { sql } = app.database;
  const auth = request.auth!;
  type Outcome = { refused: null; liftId: string; assignee: string } | { refused: 'incident.assignee' | 'incident.transition'; incident: IncidentView; assignee: string };
  const outcome = await sql.transaction(async (tx): Promise<Outcome> => {
    const incident = await scopedIncident(tx, auth, input.id, true);
    const user = (await assigneesOf(tx, incident.liftId)).find((u) => u.id === input.userId);
    if (!user) return { refused: 'incident.assignee', incident, assignee: input.userId };
    if (incident.state === 'closed' || incident.state === 'cancelled') return { refused: 'incident.transition', incident, assignee: user.username };
    await tx.query(`update incidents set assignee_id = $2, assignee_name = $3 where id = $1`, [incident.id, user.id, user.name]);
    await addStep(tx, incident.id, { from: incident.state, to: incident.state, actor: actorOf(auth), assigneeName: user.name });
    await enqueueIncidentEvent(tx, incident.id, null);
    return { refused: null, liftId: incident.liftId, assignee: user.username };
  });
  const audit = (result: string, lift: string, detail: Record<string, unknown>) =>
    app.audit({ action: 'incident.assign', result, ...who(request), liftId: lift, targetType: 'incident', targetId: String(input.id), detail: { incidentId: input.id, ...detail } });
  if (outcome.refused !== null) {
    await audit('denied', outcome.incident.liftId, { assignee: outcome.assignee, reason: outcome.refused });
    throw new AppError(outcome.refused, { incident: outcome.incident });
  }
  await audit('ok', outcome.liftId, { assignee: outcome.assignee });
  const message = await incidentMessage(sql, input.id);
  await publish(app, [message]);
  return message.incident;
}

/** Adds a note (any state: a closed incident may still get a remark). */
export async function addIncidentNote(app: FastifyInstance, request: FastifyRequest, input: { id: number; text: string }): Promise<IncidentView> {
  const { sql } = app.database;
  const auth = request.auth!;
  const incident = await scopedIncident(sql, auth, input.id, false);
  await sql.query(`insert into incident_notes (incident_id, author_id, author_name, text) values ($1, $2, $3, $4)`, [incident.id, auth.userId, auth.username, input.text]);
  await app.audit({ action: 'incident.note', result: 'ok', ...who(request), liftId: incident.liftId, targetType: 'incident', targetId: String(incident.id), detail: { incidentId: incident.id } });
  const message = await incidentMessage(sql, incident.id);
  await publish(app, [message]);
  return (await findIncident(sql, incident.id))!;
}
