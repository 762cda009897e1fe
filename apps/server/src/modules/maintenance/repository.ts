import {
  checklistLabelText,
  computeDue,
  defaultChecklist,
  type ChecklistItem,
  type ChecklistItemView,
  type MaintenanceDue,
  type MaintenancePlan,
  type MaintenanceVisit,
  type VisitResult,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

/** Any query runner: the pool, or a transaction. */
export type Executor = Pick<SqlExecutor, 'query'>;

const iso = (d: unknown) => new Date(d as string).toISOString();

/** An item with its words in `lang` added. */
export function itemView(item: ChecklistItem, lang: string): ChecklistItemView {
  return { ...item, label: checklistLabelText(item.labelText, lang) };
}

export interface StoredTemplate {
  items: ChecklistItem[];
  updatedAt: Date;
  updatedByName: string | null;
}

/** The organization's own checklists, by kind. */
export async function templatesOf(sql: Executor, orgId: string): Promise<Map<string, StoredTemplate>> {
  const rows = await sql.query<StoredTemplate & { kind: string }>(`select kind, items, updated_at as "updatedAt", updated_by_name as "updatedByName" from maintenance_templates where org_id = $1`, [orgId]);
  return new Map(rows.map((r) => [r.kind, r]));
}

export async function saveTemplate(sql: Executor, orgId: string, kind: string, items: ChecklistItem[], by: { id: string; name: string }): Promise<void> {
  await sql.query(
    `insert into maintenance_templates (org_id, kind, items, updated_by, updated_by_name) values ($1, $2, $3::jsonb, $4, $5)
     on conflict (org_id, kind) do update set items = excluded.items, updated_at = now(), updated_by = excluded.updated_by, updated_by_name = excluded.updated_by_name`,
    [orgId, kind, JSON.stringify(items), by.id, by.name],
  );
}

export async function deleteTemplate(sql: Executor, orgId: string, kind: string): Promise<boolean> {
  return (await sql.query(`delete from maintenance_templates where org_id = $1 and kind = $2 returning kind`, [orgId, kind])).length > 0;
}

/**
 * The checklist a visit on the lift fills in: its operator's own for the lift's kind, else its
 * maker's own, else the built-in one.
 */
export async function checklistOfLift(sql: Executor, lift: { id: string; kind: string }): Promise<ChecklistItem[]> {
  const [row] = await sql.query<{ items: ChecklistItem[] }>(
    `select t.items from lifts l join maintenance_templates t on t.kind = l.kind and t.org_id in (l.operator_org_id, l.manufacturer_org_id)
      where l.id = $1 order by (t.org_id = l.operator_org_id) desc limit 1`,
    [lift.id],
  );
  return row?.items ?? [...defaultChecklist(lift.kind)];
}

export interface LiftMaintenanceState {
  plan: MaintenancePlan | null;
  due: MaintenanceDue;
  tripsTotal: number;
}

/** The plan columns (null without a plan), the lift's trip counter and its last visit (by end time), for lifts `l` joined to plans `p`. */
const STATE_COLUMNS = `
  p.lift_id as "planLiftId", p.interval_days as "intervalDays", p.interval_trips as "intervalTrips", p.since, p.trips_at_since as "tripsAtSince",
  p.updated_by_name as "updatedByName", l.trips_total as "tripsTotal", v.id as "visitId", v.ended_at as "visitAt", v.trips_at as "visitTrips"`;
const LAST_VISIT = `left join lateral (select id, ended_at, trips_at from maintenance_visits where lift_id = l.id order by ended_at desc, id desc limit 1) v on true`;

interface StateRow {
  planLiftId: string | null;
  intervalDays: number | null;
  intervalTrips: string | number | null;
  since: Date | null;
  tripsAtSince: string | number | null;
  updatedByName: string | null;
  tripsTotal: string | number;
  visitId: string | null;
  visitAt: Date | null;
  visitTrips: string | number | null;
}

function toState(r: StateRow, now: Date): LiftMaintenanceState {
  const tripsTotal = Number(r.tripsTotal);
  const plan: MaintenancePlan | null = r.planLiftId
    ? { liftId: r.planLiftId, intervalDays: r.intervalDays, intervalTrips: r.intervalTrips == null ? null : Number(r.intervalTrips), since: iso(r.since), updatedByName: r.updatedByName }
    : null;
  // Trips since the last visit, or since the plan was set while there was none.
  const base = r.visitAt != null ? Number(r.visitTrips) : Number(r.tripsAtSince ?? tripsTotal);
  const due = computeDue(plan, { at: r.visitAt, id: r.visitId == null ? null : Number(r.visitId) }, Math.max(0, tripsTotal - base), now);
  return { plan, due, tripsTotal };
}

/** A lift's plan, due state and trip counter now. */
export async function liftState(sql: Executor, liftId: string, now = new Date()): Promise<LiftMaintenanceState> {
  const [row] = await sql.query<StateRow>(`select ${STATE_COLUMNS} from lifts l left join maintenance_plans p on p.lift_id = l.id ${LAST_VISIT} where l.id = $1`, [liftId]);
  return toState(row!, now);
}

export interface DueLiftRow extends LiftMaintenanceState {
  liftId: string;
  deviceNo: string | null;
  alias: string;
  liftKind: string;
}

/**
 * Every planned lift matching `where` (a condition on lifts `l`, with its parameters), with
 * its due state. The due state needs the live trip counter, so it is computed here, not in SQL.
 */
export async function plannedLifts(sql: Executor, where: string, params: unknown[], now = new Date()): Promise<DueLiftRow[]> {
  const rows = await sql.query<StateRow & { deviceNo: string | null; alias: string; liftKind: string }>(
    `select ${STATE_COLUMNS}, l.device_no as "deviceNo", l.alias, l.kind as "liftKind"
       from lifts l join maintenance_plans p on p.lift_id = l.id ${LAST_VISIT} where ${where}`,
    params,
  );
  return rows.map((r) => ({ ...toState(r, now), liftId: r.planLiftId!, deviceNo: r.deviceNo, alias: r.alias, liftKind: r.liftKind }));
}

/** Overdue first, then due soon; within each the one with the smallest share of its interval left first. */
export function byUrgency(a: LiftMaintenanceState, b: LiftMaintenanceState): number {
  const rank = (s: string) => (s === 'overdue' ? 0 : s === 'dueSoon' ? 1 : s === 'ok' ? 2 : 3);
  const shareLeft = (x: LiftMaintenanceState) =>
    Math.min(
      x.due.daysLeft != null && x.plan?.intervalDays ? x.due.daysLeft / x.plan.intervalDays : Number.MAX_VALUE,
      x.due.tripsLeft != null && x.due.tripsDue ? x.due.tripsLeft / x.due.tripsDue : Number.MAX_VALUE,
    );
  return rank(a.due.status) - rank(b.due.status) || shareLeft(a) - shareLeft(b);
}

export async function savePlan(sql: Executor, liftId: string, plan: { intervalDays: number | null; intervalTrips: number | null }, by: { id: string; name: string }): Promise<void> {
  // A changed plan keeps its start (`since`): counting goes on from the last visit or the first plan.
  await sql.query(
    `insert into maintenance_plans (lift_id, interval_days, interval_trips, trips_at_since, updated_by, updated_by_name)
     select $1, $2, $3, l.trips_total, $4, $5 from lifts l where l.id = $1
     on conflict (lift_id) do update set interval_days = excluded.interval_days, interval_trips = excluded.interval_trips, updated_at = now(),
        updated_by = excluded.updated_by, updated_by_name = excluded.updated_by_name`,
    [liftId, plan.intervalDays, plan.intervalTrips, by.id, by.name],
  );
}

export async function deletePlan(sql: Executor, liftId: string): Promise<boolean> {
  return (await sql.query(`delete from maintenance_plans where lift_id = $1 returning lift_id`, [liftId])).length > 0;
}

export const VISIT_SELECT = `
  select v.id, v.lift_id as "liftId", l.device_no as "deviceNo", l.alias, v.technician_id as "technicianId", v.technician_name as "technicianName",
         v.started_at as "startedAt", v.ended_at as "endedAt", v.recorded_at as "recordedAt", v.results, v.failed_items as "failedItems",
         v.findings, v.parts_used as "partsUsed", v.incident_ids as "incidentIds", v.trips_at as "tripsAt"
    from maintenance_visits v join lifts l on l.id = v.lift_id`;

/** Dates as ISO strings, numbers as numbers, and each result's label in `lang`. */
export function toVisit(r: MaintenanceVisit, lang: string): MaintenanceVisit {
  return {
    ...r,
    id: Number(r.id),
    tripsAt: Number(r.tripsAt),
    startedAt: iso(r.startedAt),
    endedAt: iso(r.endedAt),
    recordedAt: iso(r.recordedAt),
    results: r.results.map((x: VisitResult) => ({ ...x, label: checklistLabelText(x.labelText, lang) })),
    incidentIds: r.incidentIds.map(Number),
  };
}

export async function visitsOfLift(sql: Executor, liftId: string, lang: string, page: { page: number; pageSize: number }): Promise<{ list: MaintenanceVisit[]; total: number }> {
  const [count] = await sql.query<{ n: string }>(`select count(*) as n from maintenance_visits where lift_id = $1`, [liftId]);
  const rows = await sql.query<MaintenanceVisit>(`${VISIT_SELECT} where v.lift_id = $1 order by v.ended_at desc, v.id desc limit $2 offset $3`, [liftId, page.pageSize, (page.page - 1) * page.pageSize]);
  return { list: rows.map((r) => toVisit(r, lang)), total: Number(count!.n) };
}

/** A visit as `visits/record` stores it (the results graded, the request's digest kept with its key). */
export interface NewVisit {
  liftId: string;
  technician: { id: string; name: string };
  startedAt: Date;
  endedAt: Date;
  results: Omit<VisitResult, 'label'>[];
  failedItems: string[];
  findings: string;
  partsUsed: string[];
  incidentIds: number[];
  tripsAt: string | number;
  idempotencyKey: string | null;
  /** The request as sent, the key left out: what a repeat of the key is compared with. */
  request: object;
}

/**
 * Stores a visit. With an idempotency key the (technician, key) index decides in the same
 * statement: null when the key was used before (a retry after a lost answer, a double tap,
 * the same request on another instance); a second visit is never stored.
 */
export async function insertVisit(sql: Executor, v: NewVisit): Promise<number | null> {
  const [row] = await sql.query<{ id: string }>(
    `insert into maintenance_visits (lift_id, technician_id, technician_name, started_at, ended_at, results, failed_items, findings, parts_used, incident_ids, trips_at, idempotency_key, request_digest)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9::jsonb, $10::jsonb, $11, $12, case when $12::text is null then null else md5($13::jsonb::text) end)
     on conflict (technician_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`,
    [v.liftId, v.technician.id, v.technician.name, v.startedAt, v.endedAt, JSON.stringify(v.results), JSON.stringify(v.failedItems), v.findings, JSON.stringify(v.partsUsed), JSON.stringify(v.incidentIds), v.tripsAt, v.idempotencyKey, JSON.stringify(v.request)],
  );
  return row ? Number(row.id) : null;
}

/** The visit of a (technician, key), and whether it was recorded from the same request as the one sent again. */
export async function visitByKey(sql: Executor, userId: string, key: string, request: object): Promise<{ id: number; same: boolean } | undefined> {
  const [row] = await sql.query<{ id: string; same: boolean }>(
    `select id, request_digest = md5($3::jsonb::text) as same from maintenance_visits where technician_id = $1 and idempotency_key = $2`,
    [userId, key, JSON.stringify(request)],
  );
  return row ? { id: Number(row.id), same: row.same } : undefined;
}
