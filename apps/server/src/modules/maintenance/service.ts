import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  DEVICE_KINDS,
  INCIDENT_TRANSITIONS,
  ROOT_CAUSE_TEXTS,
  STATES_NEEDING_ASSIGNEE,
  defaultChecklist,
  localized,
  pickText,
  rootCausesFor,
  withinLimits,
  type ChecklistItem,
  type FieldIssue,
  type IncidentState,
  type IncidentView,
  type MaintenanceDueLift,
  type MaintenanceLift,
  type MaintenancePlanSetInput,
  type MaintenanceTemplate,
  type MaintenanceTemplateSetInput,
  type MaintenanceVisit,
  type MaintenanceVisitRecordInput,
  type VisitResult,
} from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import { INCIDENT_SELECT, incidentMessage, toIncidentView } from '../incidents/repository.ts';
import { applyTransition } from '../incidents/service.ts';
import { ownedLift } from '../lifts/scope.ts';
import { appendLogbook } from '../logbook/append.ts';
import {
  VISIT_SELECT,
  byUrgency,
  checklistOfLift,
  deletePlan,
  deleteTemplate,
  insertVisit,
  itemView,
  liftState,
  plannedLifts,
  saveTemplate,
  savePlan,
  templatesOf,
  toVisit,
  visitByKey,
  visitsOfLift,
  type Executor,
} from './repository.ts';

/**
 * Maintenance plans and visits (docs/service.md, "Maintenance plans and visits"): checklist
 * templates per organization and lift kind, a plan per lift, its due state, and visits that
 * record the checklist and close the incidents they resolved.
 */

const who = (request: FastifyRequest) => ({ userId: request.auth!.userId, username: request.auth!.username, ip: request.ip });

/** How many of a lift's latest visits its maintenance answer carries. */
export const RECENT_VISITS = 5;

// ---------------------------------------------------------------------------------------------
// Templates

/**
 * The organization a template request acts for: `orgId` when the route's grant reaches every
 * organization (scope `all`) or names the caller's own, else the caller's own; null for a
 * caller without an organization who names none (the built-in checklists only).
 */
async function orgInReach(sql: Executor, auth: AuthContext, orgId: string | undefined): Promise<string | null> {
  const target = orgId ?? auth.orgId;
  if (!target) return null;
  if (auth.grant?.scope !== 'all' && target !== auth.orgId) throw new AppError('org.notFound');
  const [org] = await sql.query('select 1 from organizations where id = $1', [target]);
  if (!org) throw new AppError('org.notFound');
  return target;
}

/** Each lift kind's checklist as the organization uses it. */
export async function templateList(sql: SqlExecutor, auth: AuthContext, orgId: string | undefined): Promise<MaintenanceTemplate[]> {
  const org = await orgInReach(sql, auth, orgId);
  const own = org ? await templatesOf(sql, org) : new Map();
  return DEVICE_KINDS.map((kind) => {
    const t = own.get(kind);
    return {
      kind,
      orgId: org,
      custom: !!t,
      items: (t?.items ?? defaultChecklist(kind)).map((i: ChecklistItem) => itemView(i, auth.language)),
      updatedAt: t ? new Date(t.updatedAt).toISOString() : null,
      updatedByName: t?.updatedByName ?? null,
    };
  });
}

async function templateOf(sql: SqlExecutor, auth: AuthContext, org: string, kind: string): Promise<MaintenanceTemplate> {
  return (await templateList(sql, auth, org)).find((t) => t.kind === kind)!;
}

/** Stores the organization's own checklist for a kind (replacing the built-in one for its lifts). */
export async function setTemplate(app: FastifyInstance, request: FastifyRequest, input: MaintenanceTemplateSetInput): Promise<MaintenanceTemplate> {
  const { sql } = app.database;
  const auth = request.auth!;
  const org = await orgInReach(sql, auth, input.orgId);
  if (!org) throw new AppError('org.notFound');
  await saveTemplate(sql, org, input.kind, input.items, { id: auth.userId, name: auth.username });
  await app.audit({ action: 'maintenance.template', result: 'ok', ...who(request), targetType: 'organization', targetId: org, detail: { orgId: org, kind: input.kind, items: input.items.length } });
  return templateOf(sql, auth, org, input.kind);
}

/** Back to the built-in checklist for a kind. */
export async function resetTemplate(app: FastifyInstance, request: FastifyRequest, input: { orgId?: string | undefined; kind: string }): Promise<MaintenanceTemplate> {
  const { sql } = app.database;
  const auth = request.auth!;
  const org = await orgInReach(sql, auth, input.orgId);
  if (!org) throw new AppError('org.notFound');
  if (await deleteTemplate(sql, org, input.kind)) {
    await app.audit({ action: 'maintenance.template', result: 'ok', ...who(request), targetType: 'organization', targetId: org, detail: { orgId: org, kind: input.kind, items: null } });
  }
  return templateOf(sql, auth, org, input.kind);
}

// ---------------------------------------------------------------------------------------------
// Plans and due state

/** A lift's plan, due state, checklist and latest visits. */
export async function liftMaintenance(sql: SqlExecutor, auth: AuthContext, liftId: string): Promise<MaintenanceLift> {
  const lift = await ownedLift(sql, auth, liftId);
  const state = await liftState(sql, lift.id);
  return {
    liftId: lift.id,
    liftKind: lift.kind,
    plan: state.plan,
    due: state.due,
    checklist: (await checklistOfLift(sql, lift)).map((i) => itemView(i, auth.language)),
    tripsTotal: state.tripsTotal,
    recentVisits: (await visitsOfLift(sql, lift.id, auth.language, { page: 1, pageSize: RECENT_VISITS })).list,
    rootCauses: rootCausesFor(lift.kind).map((c) => ({ id: c, text: pickText(ROOT_CAUSE_TEXTS[c], auth.language) })),
  };
}

/** Sets (or changes) a lift's plan; the schema has refused one with neither interval. */
export async function setPlan(app: FastifyInstance, request: FastifyRequest, input: MaintenancePlanSetInput): Promise<MaintenanceLift> {
  const { sql } = app.database;
  const auth = request.auth!;
  const lift = await ownedLift(sql, auth, input.liftId);
  const plan = { intervalDays: input.intervalDays ?? null, intervalTrips: input.intervalTrips ?? null };
  await savePlan(sql, lift.id, plan, { id: auth.userId, name: auth.username });
  await app.audit({ action: 'maintenance.plan', result: 'ok', ...who(request), liftId: lift.id, targetType: 'lift', targetId: lift.id, detail: plan });
  return liftMaintenance(sql, auth, lift.id);
}

export async function removePlan(app: FastifyInstance, request: FastifyRequest, liftId: string): Promise<MaintenanceLift> {
  const { sql } = app.database;
  const auth = request.auth!;
  const lift = await ownedLift(sql, auth, liftId);
  if (await deletePlan(sql, lift.id)) {
    await app.audit({ action: 'maintenance.plan', result: 'ok', ...who(request), liftId: lift.id, targetType: 'lift', targetId: lift.id, detail: { intervalDays: null, intervalTrips: null } });
  }
  return liftMaintenance(sql, auth, lift.id);
}

/** The planned lifts in the caller's scope that are overdue or due soon (or only `status`), the most urgent first. */
export async function dueList(sql: SqlExecutor, auth: AuthContext, status?: 'overdue' | 'dueSoon'): Promise<MaintenanceDueLift[]> {
  const scope = liftFilter(auth, 1);
  const rows = await plannedLifts(sql, scope.where, scope.param ? [scope.param] : []);
  return rows
    .filter((r) => (status ? r.due.status === status : r.due.status === 'overdue' || r.due.status === 'dueSoon'))
    .sort(byUrgency)
    .map((r) => ({ liftId: r.liftId, deviceNo: r.deviceNo, alias: r.alias, liftKind: r.liftKind, plan: r.plan!, due: r.due }));
}

// ---------------------------------------------------------------------------------------------
// Visits

/** A visit on a lift the caller's grant reaches, else `visit.notFound`. */
export async function visitDetail(sql: SqlExecutor, auth: AuthContext, id: number): Promise<MaintenanceVisit> {
  const scope = liftFilter(auth, 2);
  const [row] = await sql.query<MaintenanceVisit>(`${VISIT_SELECT} where v.id = $1 and ${scope.where}`, scope.param ? [id, scope.param] : [id]);
  if (!row) throw new AppError('visit.notFound');
  return toVisit(row, auth.language);
}

export async function visitPage(sql: SqlExecutor, auth: AuthContext, q: { liftId: string; page: number; pageSize: number }): Promise<{ list: MaintenanceVisit[]; total: number }> {
  const lift = await ownedLift(sql, auth, q.liftId);
  return visitsOfLift(sql, lift.id, auth.language, q);
}

/**
 * Checks the answers against the lift's checklist: every item answered once, a pass/fail item
 * with `passed`, a measured one with `value` (it passes within its limits). Returns the
 * results as stored (each item as it is now) or the field issues.
 */
export function gradeResults(checklist: ChecklistItem[], answers: MaintenanceVisitRecordInput['results']): { results: VisitResult[]; issues: FieldIssue[]; missing: string[] } {
  const byId = new Map(checklist.map((i) => [i.id, i]));
  const issues: FieldIssue[] = [];
  const results: VisitResult[] = [];
  answers.forEach((a, n) => {
    const item = byId.get(a.itemId);
    if (!item) return void issues.push({ path: `results.${n}.itemId`, message: 'validation.invalid' });
    if (item.type === 'passFail' && (a.passed === undefined || a.value !== undefined)) return void issues.push({ path: `results.${n}.passed`, message: 'validation.required' });
    if (item.type === 'measured' && a.value === undefined) return void issues.push({ path: `results.${n}.value`, message: 'validation.required' });
    const value = item.type === 'measured' ? a.value! : null;
    results.push({ itemId: item.id, label: '', labelText: item.labelText, type: item.type, unit: item.unit, min: item.min, max: item.max, value, passed: value === null ? a.passed! : withinLimits(item, value), note: a.note ?? null });
  });
  const answered = new Set(answers.map((a) => a.itemId));
  const missing = checklist.filter((i) => !answered.has(i.id)).map((i) => i.id);
  if (missing.length) issues.push({ path: 'results', message: 'validation.required' });
  return { results, issues, missing };
}

/**
 * The steps from `from` to `closed` the transitions table allows (the shortest; never through
 * `cancelled`, and through the states that need an assignee only when there is one).
 */
export function pathToClosed(from: IncidentState, hasAssignee: boolean): IncidentState[] | null {
  const prev = new Map<IncidentState, IncidentState | null>([[from, null]]);
  const queue: IncidentState[] = [from];
  while (queue.length) {
    const s = queue.shift()!;
    if (s === 'closed') {
      const path: IncidentState[] = [];
      for (let at: IncidentState | null = s; at && at !== from; at = prev.get(at) ?? null) path.unshift(at);
      return path;
    }
    for (const next of INCIDENT_TRANSITIONS[s]) {
      if (next === 'cancelled' || prev.has(next) || (!hasAssignee && STATES_NEEDING_ASSIGNEE.includes(next))) continue;
      prev.set(next, s);
      queue.push(next);
    }
  }
  return null;
}

const VISIT_NOTE = localized('保养记录 {id}', 'Maintenance visit {id}', 'Обслуживание {id}');

/**
 * Records a visit by the caller on a lift their `incident.edit` grant reaches, in one
 * transaction: the visit; each incident it names, walked through the transitions table to
 * `closed` (resolved with `rootCause` and the findings, the visit noted on each step); the
 * lift's logbook entry of the visit. An incident that is not an open one of this lift refuses
 * the whole visit (`visit.incidentNotOnLift`), as do answers that do not fit the checklist.
 *
 * No replays (docs/remote-control.md): a visit form sends one idempotency key with every try.
 * A key seen before from the same user answers with the first visit and stores, closes and
 * logs nothing again; the (technician, key) index decides in the transaction when both tries
 * arrive at once. The same key with another request is a conflict.
 */
export async function recordVisit(app: FastifyInstance, request: FastifyRequest, input: MaintenanceVisitRecordInput): Promise<MaintenanceVisit> {
  const { sql } = app.database;
  const auth = request.auth!;
  const lift = await ownedLift(sql, auth, input.liftId);
  const { idempotencyKey: key = null, ...sent } = input;
  // A visit seen before answers with that visit whatever changed since (the checklist, the
  // incidents it closed). A shortcut only: the insert below decides when both arrive at once.
  if (key && (await visitByKey(sql, auth.userId, key, sent))) return firstVisit(sql, auth, key, sent);
  const graded = gradeResults(await checklistOfLift(sql, lift), input.results);
  const rootCause = input.rootCause ?? 'other';
  if (input.incidentIds.length && !(rootCausesFor(lift.kind) as readonly string[]).includes(rootCause)) graded.issues.push({ path: 'rootCause', message: 'validation.invalid' });
  if (graded.issues.length) throw new AppError('validation.failed', { issues: graded.issues, missing: graded.missing });
  const now = new Date();
  const endedAt = input.endedAt ? new Date(input.endedAt) : now;
  const startedAt = input.startedAt ? new Date(input.startedAt) : endedAt;
  if (startedAt > endedAt) throw new AppError('validation.failed', { issues: [{ path: 'startedAt', message: 'validation.invalid' }] });
  const failedItems = graded.results.filter((r) => !r.passed).map((r) => r.itemId);

  type Outcome = { repeat: true } | { refused: string[] } | { refused: null; visitId: number; steps: { incidentId: number; from: IncidentState; to: IncidentState }[] };
  const outcome = await sql.transaction(async (tx): Promise<Outcome> => {
    // The visit first: a second try with the same key waits here for the first one's
    // transaction and then does nothing (its incidents are closed by then).
    const [trips] = await tx.query<{ n: string }>(`select trips_total as n from lifts where id = $1`, [lift.id]);
    const visitId = await insertVisit(tx, {
      liftId: lift.id,
      technician: { id: auth.userId, name: auth.username },
      startedAt,
      endedAt,
      results: graded.results.map(({ label: _l, ...r }) => r),
      failedItems,
      findings: input.findings,
      partsUsed: input.partsUsed,
      incidentIds: input.incidentIds,
      tripsAt: trips!.n,
      idempotencyKey: key,
      request: sent,
    });
    if (visitId === null) return { repeat: true };
    const incidents = input.incidentIds.length
      ? (await tx.query<IncidentView>(`${INCIDENT_SELECT} where i.id = any($1::bigint[]) order by i.id for update of i`, [input.incidentIds])).map(toIncidentView)
      : [];
    const found = new Map(incidents.map((i) => [i.id, i]));
    const paths = new Map<number, IncidentState[]>();
    const refused: string[] = [];
    for (const id of input.incidentIds) {
      const incident = found.get(id);
      const path = incident && incident.liftId === lift.id ? pathToClosed(incident.state, !!incident.assigneeId) : null;
      if (!path || !path.length) refused.push(String(id));
      else paths.set(id, path);
    }
    // The error rolls the transaction back: nothing of the visit stays.
    if (refused.length) throw new VisitRefused(refused);

    const note = pickText(VISIT_NOTE, auth.language).replace('{id}', String(visitId));
    const steps: { incidentId: number; from: IncidentState; to: IncidentState }[] = [];
    for (const id of input.incidentIds) {
      let incident = found.get(id)!;
      for (const to of paths.get(id)!) {
        const resolving = to === 'resolved';
        await applyTransition(tx, incident, { id, to, note, ...(resolving ? { rootCause, resolutionText: input.findings || note, partsUsed: input.partsUsed } : {}) }, auth);
        steps.push({ incidentId: id, from: incident.state, to });
        incident = { ...incident, state: to };
      }
    }
    // The visit's own logbook entry, last (it locks the logbook's head, held since the incidents' entries).
    await appendLogbook(tx, {
      liftId: lift.id,
      kind: 'visit',
      actor: { id: auth.userId, name: auth.username },
      data: {
        visitId,
        startedAt: startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        checked: graded.results.length,
        failed: failedItems.length,
        failedItems,
        findings: input.findings,
        partsUsed: input.partsUsed,
        incidentIds: input.incidentIds,
      },
    });
    return { refused: null, visitId, steps };
  }).catch((err: unknown): Outcome => {
    if (err instanceof VisitRefused) return { refused: err.incidentIds };
    throw err;
  });

  if ('repeat' in outcome) return firstVisit(sql, auth, key!, sent);
  if (outcome.refused !== null) {
    await app.audit({ action: 'maintenance.visit', result: 'denied', ...who(request), liftId: lift.id, targetType: 'lift', targetId: lift.id, detail: { incidentIds: input.incidentIds, reason: 'visit.incidentNotOnLift' } });
    throw new AppError('visit.incidentNotOnLift', { incidentIds: outcome.refused.map(Number) });
  }
  await app.audit({ action: 'maintenance.visit', result: 'ok', ...who(request), liftId: lift.id, targetType: 'maintenanceVisit', targetId: String(outcome.visitId), detail: { visitId: outcome.visitId, checked: graded.results.length, failed: failedItems.length, incidentIds: input.incidentIds } });
  for (const s of outcome.steps) {
    await app.audit({ action: 'incident.transition', result: 'ok', ...who(request), liftId: lift.id, targetType: 'incident', targetId: String(s.incidentId), detail: { incidentId: s.incidentId, from: s.from, to: s.to, visitId: outcome.visitId } });
  }
  const messages = await Promise.all(input.incidentIds.map((id) => incidentMessage(sql, id)));
  if (messages.length) await app.live.publish(messages).catch((err: unknown) => app.log.warn({ err }, 'live publish failed'));
  return visitDetail(sql, auth, outcome.visitId);
}

/** Thrown in a visit's transaction to roll it back: the incidents named that are not open ones of the lift. */
class VisitRefused extends Error {
  constructor(readonly incidentIds: string[]) {
    super('visit.incidentNotOnLift');
  }
}

/**
 * A visit form's key seen before (a retry after a lost answer, a double tap, the same request
 * on another instance): the first visit, as its caller got it; the key with another request
 * is a conflict, as for a command's click.
 */
async function firstVisit(sql: SqlExecutor, auth: AuthContext, key: string, sent: object): Promise<MaintenanceVisit> {
  const first = await visitByKey(sql, auth.userId, key, sent);
  if (!first?.same) throw new AppError('conflict', { idempotencyKey: key });
  return visitDetail(sql, auth, first.id);
}
