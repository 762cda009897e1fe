import { ESCALATION_ACK_MINUTES_DEFAULT, type EscalationCandidate, type EscalationPolicy, type EscalationPolicyInput, type IncidentNotification, type IncidentPriority } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** Any query runner: the pool, or a transaction. */
export type Executor = Pick<SqlExecutor, 'query'>;

/**
 * A user who may be on an organization's on-call list or be its manager: an active member of
 * it whose role may work on incidents (`incident.edit`, in any scope: acknowledging needs it).
 */
const CANDIDATE_WHERE = `u.status = 'active' and u.org_id = $1
  and exists (select 1 from jsonb_array_elements(r.permissions) g where g->>'permissionId' = 'incident' and g->'actions' ? 'edit')`;

export async function escalationCandidates(sql: Executor, orgId: string): Promise<EscalationCandidate[]> {
  return sql.query<EscalationCandidate>(
    `select u.id, coalesce(nullif(trim(u.name), ''), u.username) as name, u.username
       from users u join roles r on r.id = u.role_id where ${CANDIDATE_WHERE} order by name, u.username`,
    [orgId],
  );
}

interface PolicyRow {
  on_call: string[];
  manager_id: string | null;
  ack_minutes: number;
  ack_minutes_by_priority: Partial<Record<IncidentPriority, number>>;
  updated_at: Date | null;
  updated_by_name: string | null;
}

export type StoredPolicy = Omit<EscalationPolicy, 'candidates'>;

/** The organization's policy (its defaults when none was saved); undefined: no such organization. */
export async function orgEscalationPolicy(sql: Executor, orgId: string): Promise<(StoredPolicy & { orgName: string }) | undefined> {
  const [row] = await sql.query<PolicyRow & { name: string }>(
    `select o.name, p.on_call, p.manager_id, p.ack_minutes, p.ack_minutes_by_priority, p.updated_at, p.updated_by_name
       from organizations o left join escalation_policies p on p.org_id = o.id where o.id = $1`,
    [orgId],
  );
  if (!row) return undefined;
  return {
    orgId,
    orgName: row.name,
    onCall: row.on_call ?? [],
    managerId: row.manager_id ?? null,
    ackMinutes: row.ack_minutes ?? ESCALATION_ACK_MINUTES_DEFAULT,
    ackMinutesByPriority: row.ack_minutes_by_priority ?? {},
    updatedAt: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    updatedByName: row.updated_by_name ?? null,
  };
}

export async function saveEscalationPolicy(sql: Executor, orgId: string, input: EscalationPolicyInput, by: { userId: string; name: string }): Promise<void> {
  await sql.query(
    `insert into escalation_policies (org_id, on_call, manager_id, ack_minutes, ack_minutes_by_priority, updated_by, updated_by_name)
     values ($1, $2::jsonb, $3, $4, $5::jsonb, $6, $7)
     on conflict (org_id) do update set on_call = excluded.on_call, manager_id = excluded.manager_id, ack_minutes = excluded.ack_minutes,
       ack_minutes_by_priority = excluded.ack_minutes_by_priority, updated_at = now(), updated_by = excluded.updated_by, updated_by_name = excluded.updated_by_name`,
    [orgId, JSON.stringify(input.onCall), input.managerId, input.ackMinutes, JSON.stringify(input.ackMinutesByPriority), by.userId, by.name],
  );
}

const NOTIFICATION_SELECT = `
  select n.id, n.kind, n.incident_id as "incidentId", i.lift_id as "liftId", l.device_no as "deviceNo", l.alias, i.cause, i.code, i.title, i.priority,
         n.manager, n.actor_name as "actorName", n.created_at as "at", (n.read_at is not null) as read
    from incident_notifications n join incidents i on i.id = n.incident_id join lifts l on l.id = i.lift_id`;

type NotificationRow = Omit<IncidentNotification, 'id' | 'incidentId' | 'at'> & { id: string; incidentId: string; at: Date };
const toNotification = (r: NotificationRow): IncidentNotification => ({ ...r, id: Number(r.id), incidentId: Number(r.incidentId), at: new Date(r.at).toISOString() });

export async function findNotification(sql: Executor, id: string | number): Promise<IncidentNotification | undefined> {
  const [row] = await sql.query<NotificationRow>(`${NOTIFICATION_SELECT} where n.id = $1`, [id]);
  return row ? toNotification(row) : undefined;
}

/** A user's incident notifications (the newest 50) and how many are unread. */
export async function incidentNotificationsOf(sql: Executor, userId: string): Promise<{ list: IncidentNotification[]; unread: number }> {
  const rows = await sql.query<NotificationRow>(`${NOTIFICATION_SELECT} where n.user_id = $1 order by n.created_at desc, n.id desc limit 50`, [userId]);
  const [unread] = await sql.query<{ n: string }>(`select count(*) as n from incident_notifications where user_id = $1 and read_at is null`, [userId]);
  return { list: rows.map(toNotification), unread: Number(unread!.n) };
}

export async function markIncidentNotificationsRead(sql: Executor, userId: string, ids: number[]): Promise<void> {
  await sql.query(`update incident_notifications set read_at = now() where user_id = $1 and id = any($2::bigint[]) and read_at is null`, [userId, ids]);
}
