import type { IncidentNote, IncidentState, IncidentStep, IncidentView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { bookIncidentStep } from '../availability/book.ts';

/** Any query runner: the pool, or a transaction. */
export type Executor = Pick<SqlExecutor, 'query'>;

/** The active states as SQL (the protocol's ACTIVE_INCIDENT_STATES; the unique index of migration 0019 names the same). */
export const ACTIVE_SQL = `('open', 'acknowledged', 'enRoute', 'onSite')`;

export const INCIDENT_SELECT = `
  select i.id, i.lift_id as "liftId", l.device_no as "deviceNo", l.alias, l.kind as "liftKind", i.cause, i.code, i.title, i.priority, i.state,
         i.assignee_id as "assigneeId", coalesce((select nullif(trim(u.name), '') from users u where u.id = i.assignee_id), i.assignee_name) as "assigneeName",
         i.opened_at as "openedAt", i.opened_by as "openedById", i.opened_by_name as "openedByName", i.repeats, i.last_repeat_at as "lastRepeatAt",
         i.state_changed_at as "stateChangedAt", i.ended_at as "endedAt", i.root_cause as "rootCause", i.resolution_text as "resolutionText", i.parts_used as "partsUsed"
    from incidents i join lifts l on l.id = i.lift_id`;

const iso = (d: unknown) => (d == null ? null : new Date(d as string).toISOString());

/** Dates as ISO strings and ids as numbers, so a view is the same in an answer and on the live bus. */
export function toIncidentView(r: IncidentView): IncidentView {
  return { ...r, id: Number(r.id), repeats: Number(r.repeats), openedAt: iso(r.openedAt)!, lastRepeatAt: iso(r.lastRepeatAt), stateChangedAt: iso(r.stateChangedAt)!, endedAt: iso(r.endedAt) };
}

export async function findIncident(sql: Executor, id: number | string): Promise<IncidentView | undefined> {
  const [row] = await sql.query<IncidentView>(`${INCIDENT_SELECT} where i.id = $1`, [id]);
  return row ? toIncidentView(row) : undefined;
}

/** The live message that tells every open screen how the incident stands now. */
export async function incidentMessage(sql: Executor, id: number | string): Promise<{ type: 'incident'; liftId: string; incident: IncidentView }> {
  const incident = (await findIncident(sql, id))!;
  return { type: 'incident', liftId: incident.liftId, incident };
}

export interface Actor {
  userId: string | null;
  name: string | null;
}

/** Records a step: a change of state (`from` null when it was opened) or of assignee (`from` = `to`), and counts it in the lift's month figures. */
export async function addStep(sql: Executor, incidentId: number | string, step: { from: IncidentState | null; to: IncidentState; actor: Actor; note?: string | null; assigneeName?: string | null }): Promise<void> {
  await sql.query(`insert into incident_steps (incident_id, from_state, to_state, actor_id, actor_name, note, assignee_name) values ($1, $2, $3, $4, $5, $6, $7)`, [
    incidentId,
    step.from,
    step.to,
    step.actor.userId,
    step.actor.name,
    step.note ?? null,
    step.assigneeName ?? null,
  ]);
  await bookIncidentStep(sql, incidentId, step.from, step.to);
}

export async function stepsOf(sql: Executor, incidentId: number): Promise<IncidentStep[]> {
  const rows = await sql.query<IncidentStep>(
    `select id, from_state as "from", to_state as "to", actor_id as "actorId", actor_name as "actorName", at, note, assignee_name as "assigneeName",
            escalated_to as "escalatedTo", escalated_manager as "escalatedManager"
       from incident_steps where incident_id = $1 order by id`,
    [incidentId],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), at: iso(r.at)! }));
}

export async function notesOf(sql: Executor, incidentId: number): Promise<IncidentNote[]> {
  const rows = await sql.query<IncidentNote>(`select id, author_id as "authorId", author_name as "authorName", at, text from incident_notes where incident_id = $1 order by id`, [incidentId]);
  return rows.map((r) => ({ ...r, id: Number(r.id), at: iso(r.at)! }));
}

/** The most run-log entries an incident's detail shows. */
export const INCIDENT_EVENTS_MAX = 500;

/**
 * How far before its opening an incident's events begin: the lift's own time of the event
 * that opened it comes before the cloud stored it, and what led up to it belongs with it.
 */
export const INCIDENT_EVENTS_LEAD_SECONDS = 60;

/** The lift's run log from shortly before the incident's opening to its end (or now), oldest first. */
export async function eventsDuring(sql: Executor, liftId: string, from: string, to: string | null): Promise<{ id: string; ts: Date; code: string; fault: boolean; reason: string | null }[]> {
  return sql.query(
    `select id, ts, code, fault, reason from lift_events
      where lift_id = $1 and ts >= $2::timestamptz - make_interval(secs => ${INCIDENT_EVENTS_LEAD_SECONDS}) and ts <= coalesce($3::timestamptz, now())
      order by ts, n limit ${INCIDENT_EVENTS_MAX}`,
    [liftId, from, to],
  );
}
