import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { idempotencyKeySchema } from '../device/control.ts';
import { DEVICE_KINDS, type DeviceKind } from '../device/kinds.ts';
import { localized, pickText, type LocalizedText } from '../device/texts.ts';
import { dateTimeSchema, pageOf } from './envelope.ts';

/**
 * Maintenance plans and visits (docs/service.md, "Maintenance plans and visits").
 *
 * Per lift kind a checklist template (built-in defaults below, an organization may override
 * one kind with its own); per lift a plan with an interval in days and/or trips, whichever
 * comes first; the due state from the last visit and the lift's live trip counter; a visit
 * records who, when, the checklist's results, findings, parts used, and closes the incidents
 * of the lift it resolved (in one transaction with its logbook entry).
 *
 * Routes (all under `/auth/access/lift/maintenance`):
 * - `GET  /auth/access/lift/maintenance/templates?orgId=`        incident.query  → maintenanceTemplateListSchema (every kind: the organization's or the default)
 * - `POST /auth/access/lift/maintenance/templates/set`           liftConfig.edit ← maintenanceTemplateSetSchema → maintenanceTemplateSchema
 * - `POST /auth/access/lift/maintenance/templates/reset`         liftConfig.edit ← maintenanceTemplateResetSchema → maintenanceTemplateSchema (the default again)
 * - `GET  /auth/access/lift/maintenance?liftId=`                 incident.get    → maintenanceLiftSchema (plan, due state, checklist, last visits)
 * - `POST /auth/access/lift/maintenance/plan/set`                liftConfig.edit ← maintenancePlanSetSchema → maintenanceLiftSchema
 * - `POST /auth/access/lift/maintenance/plan/delete`             liftConfig.edit ← maintenancePlanDeleteSchema → maintenanceLiftSchema
 * - `GET  /auth/access/lift/maintenance/due?status=`             incident.query  → maintenanceDueListSchema (lifts overdue / due soon in the caller's scope, for the workplace page)
 * - `GET  /auth/access/lift/maintenance/visits?liftId=&page=&pageSize=` incident.get → maintenanceVisitPageSchema (newest first)
 * - `GET  /auth/access/lift/maintenance/visits/get?id=`          incident.get    → maintenanceVisitSchema
 * - `POST /auth/access/lift/maintenance/visits/record`           incident.edit   ← maintenanceVisitRecordSchema → maintenanceVisitSchema
 *
 * A lift (or a visit on a lift) out of the caller's scope is `lift.notFound` / `visit.notFound`.
 */

// ---------------------------------------------------------------------------------------------
// Checklist templates

export const CHECKLIST_ITEM_TYPES = ['passFail', 'measured'] as const;
export type ChecklistItemType = (typeof CHECKLIST_ITEM_TYPES)[number];

/** The most items a checklist holds. */
export const CHECKLIST_ITEMS_MAX = 100;

const itemId = z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'validation.invalid');
const text = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.tooLong');

/** An item's words: free text written by the organization (one language), or one text per language. */
export const checklistLabelSchema = z.union([text(200), z.strictObject(Object.fromEntries(LANGUAGES.map((l) => [l, text(200)])) as Record<(typeof LANGUAGES)[number], ReturnType<typeof text>>)], 'validation.invalid');
export type ChecklistLabel = string | LocalizedText;

/** The words of a label in `lang` (a free text is the same in every language). */
export function checklistLabelText(label: ChecklistLabel | Record<string, string>, lang: string): string {
  return typeof label === 'string' ? label : pickText(label as LocalizedText, lang);
}

/**
 * One item of a checklist. `passFail`: the technician says pass or fail. `measured`: the
 * technician enters a value in `unit`; a value below `min` or above `max` (either may be
 * null: no limit on that side) is a failed item.
 */
export const checklistItemSchema = z
  .strictObject({
    id: itemId,
    labelText: checklistLabelSchema,
    type: z.enum(CHECKLIST_ITEM_TYPES, 'validation.invalid'),
    unit: z.string().trim().max(20, 'validation.tooLong').nullable().default(null),
    min: z.number('validation.invalid').finite('validation.invalid').nullable().default(null),
    max: z.number('validation.invalid').finite('validation.invalid').nullable().default(null),
  })
  .refine((i) => i.min == null || i.max == null || i.min <= i.max, { path: ['max'], message: 'validation.min' })
  .refine((i) => i.type === 'measured' || (i.min == null && i.max == null), { path: ['min'], message: 'validation.invalid' });
export type ChecklistItem = z.output<typeof checklistItemSchema>;

/** An item as answers show it: its words in the caller's language added. */
export const checklistItemViewSchema = z.strictObject({
  id: z.string(),
  labelText: z.union([z.string(), z.record(z.string(), z.string())]),
  label: z.string(),
  type: z.enum(CHECKLIST_ITEM_TYPES),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type ChecklistItemView = z.infer<typeof checklistItemViewSchema>;

/** Whether a measured value is within the item's limits. */
export function withinLimits(item: { min: number | null; max: number | null }, value: number): boolean {
  return (item.min == null || value >= item.min) && (item.max == null || value <= item.max);
}

const pf = (id: string, zh: string, en: string, ru: string): ChecklistItem => ({ id, labelText: localized(zh, en, ru), type: 'passFail', unit: null, min: null, max: null });
const measured = (id: string, zh: string, en: string, ru: string, unit: string, min: number | null, max: number | null): ChecklistItem => ({
  id,
  labelText: localized(zh, en, ru),
  type: 'measured',
  unit,
  min,
  max,
});

/** Items every lift has. */
const COMMON_ITEMS: ChecklistItem[] = [
  pf('emergencyStop', '急停按钮功能', 'Emergency stop buttons work', 'Кнопки аварийной остановки работают'),
  pf('safetyEdges', '安全触边及挡板开关', 'Safety edges and flap switches', 'Защитные кромки и выключатели откидных пластин'),
  pf('brake', '制动器动作与磨损', 'Brake action and wear', 'Работа и износ тормоза'),
  pf('overspeedGovernor', '限速器及安全钳动作试验', 'Overspeed governor and safety gear trip test', 'Проверка срабатывания ограничителя скорости и ловителей'),
  pf('limitSwitches', '上下限位及终端开关', 'Limit and final limit switches', 'Концевые и предельные выключатели'),
  pf('alarmDeviceTest', '紧急报警装置测试（EN 81-28）', 'Emergency alarm device test (EN 81-28)', 'Проверка устройства аварийной связи (EN 81-28)'),
  pf('controls', '呼梯及操作按钮', 'Call stations and controls', 'Вызывные посты и органы управления'),
];

/** Battery-powered inclined (stair) lifts. */
const BATTERY_ITEMS: ChecklistItem[] = [
  measured('batteryVoltage', '电池静置电压', 'Battery rest voltage', 'Напряжение батареи в покое', 'V', 24, 28.8),
  pf('chargingContacts', '充电触点及充电器', 'Charging contacts and charger', 'Зарядные контакты и зарядное устройство'),
];

const RACK_ITEMS: ChecklistItem[] = [
  pf('rails', '导轨清洁与紧固', 'Rails clean and fixed', 'Направляющие чистые и закреплены'),
  pf('rackWear', '齿条磨损与润滑', 'Rack wear and lubrication', 'Износ и смазка зубчатой рейки'),
  measured('pinionBacklash', '齿轮啮合间隙', 'Pinion backlash', 'Зазор шестерни', 'mm', 0.1, 0.6),
];

const SPROCKET_ITEMS: ChecklistItem[] = [
  pf('rails', '导轨清洁与紧固', 'Rails clean and fixed', 'Направляющие чистые и закреплены'),
  pf('chainSprocket', '链条及链轮磨损与润滑', 'Chain and sprocket wear and lubrication', 'Износ и смазка цепи и звёздочки'),
  measured('chainElongation', '链条伸长率', 'Chain elongation', 'Удлинение цепи', '%', 0, 2),
];

const PLATFORM_ITEMS: ChecklistItem[] = [
  pf('guardrails', '平台护栏及锁定', 'Platform guard arms and their locks', 'Ограждения платформы и их замки'),
  pf('ramps', '平台坡板动作', 'Platform ramps', 'Откидные аппарели платформы'),
  measured('loadTest', '额定载荷试验（停层偏差）', 'Rated load test (levelling error)', 'Испытание номинальной нагрузкой (погрешность остановки)', 'mm', 0, 10),
];

const HYDRAULIC_ITEMS: ChecklistItem[] = [
  measured('oilLevel', '液压油位', 'Hydraulic oil level', 'Уровень гидравлического масла', '%', 60, 100),
  measured('systemPressure', '满载系统压力', 'System pressure at rated load', 'Давление в системе при номинальной нагрузке', 'bar', 20, 60),
  measured('reliefValve', '溢流阀设定压力', 'Relief valve setting', 'Настройка предохранительного клапана', 'bar', 40, 75),
  pf('hydraulicLeaks', '管路、油缸无泄漏', 'No leaks at pipes and cylinder', 'Нет утечек в трубопроводах и цилиндре'),
  pf('ruptureValve', '破裂阀试验', 'Rupture valve test', 'Проверка разрывного клапана'),
  measured('levelling', '停层精度', 'Levelling accuracy', 'Точность остановки', 'mm', 0, 10),
  pf('doorsInterlocks', '层门及门锁', 'Landing doors and interlocks', 'Двери шахты и замки'),
];

/** The built-in checklist of each lift kind; an organization may replace a kind's with its own. */
export const DEFAULT_CHECKLISTS: Record<DeviceKind, readonly ChecklistItem[]> = {
  inclinedStraightRack: [...COMMON_ITEMS, ...RACK_ITEMS, ...BATTERY_ITEMS],
  inclined2dRack: [...COMMON_ITEMS, ...RACK_ITEMS, ...PLATFORM_ITEMS, ...BATTERY_ITEMS],
  inclined2dSprocket: [...COMMON_ITEMS, ...SPROCKET_ITEMS, ...PLATFORM_ITEMS, ...BATTERY_ITEMS],
  inclined3dSprocket: [...COMMON_ITEMS, ...SPROCKET_ITEMS, ...BATTERY_ITEMS],
  verticalHydraulic: [...COMMON_ITEMS, ...HYDRAULIC_ITEMS],
};

/** The built-in checklist of a kind; an unknown kind gets the common items. */
export function defaultChecklist(kind: string): readonly ChecklistItem[] {
  return (DEVICE_KINDS as readonly string[]).includes(kind) ? DEFAULT_CHECKLISTS[kind as DeviceKind] : COMMON_ITEMS;
}

/** A kind's checklist as the organization uses it: its own (`custom`) or the built-in one. */
export const maintenanceTemplateSchema = z.strictObject({
  kind: z.enum(DEVICE_KINDS),
  orgId: z.string().nullable(),
  custom: z.boolean(),
  items: z.array(checklistItemViewSchema),
  /** Who last changed the organization's own; null for the built-in one. */
  updatedAt: dateTimeSchema.nullable(),
  updatedByName: z.string().nullable(),
});
export type MaintenanceTemplate = z.infer<typeof maintenanceTemplateSchema>;
export const maintenanceTemplateListSchema = z.strictObject({ list: z.array(maintenanceTemplateSchema) });

/** `GET templates`: the caller's organization, or another one a scope of `all` reaches. */
export const maintenanceTemplateQuerySchema = z.strictObject({ orgId: z.uuid('validation.id').optional() });

/** `POST templates/set`: the organization's own checklist for a kind; item ids unique. */
export const maintenanceTemplateSetSchema = z.strictObject({
  orgId: z.uuid('validation.id').optional(),
  kind: z.enum(DEVICE_KINDS, 'validation.invalid'),
  items: z
    .array(checklistItemSchema)
    .min(1, 'validation.required')
    .max(CHECKLIST_ITEMS_MAX, 'validation.max')
    .refine((items) => new Set(items.map((i) => i.id)).size === items.length, 'validation.duplicateItem'),
});
export type MaintenanceTemplateSetInput = z.infer<typeof maintenanceTemplateSetSchema>;
/** `POST templates/reset`: back to the built-in checklist. */
export const maintenanceTemplateResetSchema = z.strictObject({ orgId: z.uuid('validation.id').optional(), kind: z.enum(DEVICE_KINDS, 'validation.invalid') });

// ---------------------------------------------------------------------------------------------
// Plans and due state

/** Longest interval in days (five years) and in trips. */
export const PLAN_INTERVAL_DAYS_MAX = 5 * 366;
export const PLAN_INTERVAL_TRIPS_MAX = 10_000_000;
/** Due soon: within this many days of the due date, or this share of the trip interval left. */
export const DUE_SOON_DAYS = 7;
export const DUE_SOON_TRIPS_SHARE = 0.1;

export const MAINTENANCE_DUE_STATUSES = ['ok', 'dueSoon', 'overdue', 'noPlan'] as const;
export type MaintenanceDueStatus = (typeof MAINTENANCE_DUE_STATUSES)[number];

export const maintenancePlanSchema = z.strictObject({
  liftId: z.string(),
  intervalDays: z.number().int().nullable(),
  intervalTrips: z.number().int().nullable(),
  /** When the plan was set; the start of counting while the lift has no visit. */
  since: dateTimeSchema,
  updatedByName: z.string().nullable(),
});
export type MaintenancePlan = z.infer<typeof maintenancePlanSchema>;

/**
 * Where a lift stands: from its last visit (or the plan's start without one) and its live trip
 * counter. Due is whichever comes first: `dueAt` (days) or `tripsDue` trips since the visit.
 * `dueBy` names which one decides the status (null with no plan or when both are fine).
 */
export const maintenanceDueSchema = z.strictObject({
  status: z.enum(MAINTENANCE_DUE_STATUSES),
  lastVisitAt: dateTimeSchema.nullable(),
  lastVisitId: z.number().nullable(),
  /** The date the days interval runs out; null without a days interval. */
  dueAt: dateTimeSchema.nullable(),
  /** Whole days until `dueAt` (negative: overdue by that many); null without a days interval. */
  daysLeft: z.number().nullable(),
  tripsSinceVisit: z.number(),
  /** The trip interval (due at this many trips since the visit); null without a trips interval. */
  tripsDue: z.number().nullable(),
  /** Trips left until due (negative: over by that many); null without a trips interval. */
  tripsLeft: z.number().nullable(),
  dueBy: z.enum(['days', 'trips']).nullable(),
});
export type MaintenanceDue = z.infer<typeof maintenanceDueSchema>;

/** Input of `plan/set`: at least one of the intervals (`validation.planInterval` otherwise). */
export const maintenancePlanSetSchema = z
  .strictObject({
    liftId: z.uuid('validation.id'),
    intervalDays: z.number('validation.integer').int('validation.integer').min(1, 'validation.min').max(PLAN_INTERVAL_DAYS_MAX, 'validation.max').nullable().optional(),
    intervalTrips: z.number('validation.integer').int('validation.integer').min(1, 'validation.min').max(PLAN_INTERVAL_TRIPS_MAX, 'validation.max').nullable().optional(),
  })
  .refine((p) => p.intervalDays != null || p.intervalTrips != null, { path: ['intervalDays'], message: 'validation.planInterval' });
export type MaintenancePlanSetInput = z.infer<typeof maintenancePlanSetSchema>;
export const maintenancePlanDeleteSchema = z.strictObject({ liftId: z.uuid('validation.id') });

/**
 * Due state from a plan, the last visit (or the plan's start) and trips since then.
 * Shared by the server (lists, mails) and whoever wants to preview it.
 */
export function computeDue(
  plan: { intervalDays: number | null; intervalTrips: number | null; since: string | Date } | null,
  last: { at: string | Date | null; id: number | null },
  tripsSinceVisit: number,
  now: Date = new Date(),
): MaintenanceDue {
  const base = { lastVisitAt: last.at == null ? null : new Date(last.at).toISOString(), lastVisitId: last.id, tripsSinceVisit };
  if (!plan) return { status: 'noPlan', ...base, dueAt: null, daysLeft: null, tripsDue: null, tripsLeft: null, dueBy: null };
  const from = new Date(last.at ?? plan.since);
  const dueAt = plan.intervalDays != null ? new Date(from.getTime() + plan.intervalDays * 86_400_000) : null;
  const daysLeft = dueAt ? Math.trunc((dueAt.getTime() - now.getTime()) / 86_400_000) || 0 : null;
  const tripsLeft = plan.intervalTrips != null ? plan.intervalTrips - tripsSinceVisit : null;
  const daysState: MaintenanceDueStatus | null = dueAt == null ? null : dueAt.getTime() <= now.getTime() ? 'overdue' : dueAt.getTime() - now.getTime() <= DUE_SOON_DAYS * 86_400_000 ? 'dueSoon' : 'ok';
  const tripsState: MaintenanceDueStatus | null = tripsLeft == null ? null : tripsLeft <= 0 ? 'overdue' : tripsLeft <= Math.ceil(plan.intervalTrips! * DUE_SOON_TRIPS_SHARE) ? 'dueSoon' : 'ok';
  const rank = (s: MaintenanceDueStatus | null) => (s === 'overdue' ? 2 : s === 'dueSoon' ? 1 : 0);
  const status: MaintenanceDueStatus = rank(daysState) >= rank(tripsState) ? (daysState ?? 'ok') : tripsState!;
  const dueBy = status === 'ok' ? null : rank(daysState) >= rank(tripsState) && daysState != null ? 'days' : 'trips';
  return { status, ...base, dueAt: dueAt?.toISOString() ?? null, daysLeft, tripsDue: plan.intervalTrips, tripsLeft, dueBy };
}

/** A lift on the due list (the workplace page, the weekly mail). */
export const maintenanceDueLiftSchema = z.strictObject({
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  liftKind: z.string(),
  plan: maintenancePlanSchema,
  due: maintenanceDueSchema,
});
export type MaintenanceDueLift = z.infer<typeof maintenanceDueLiftSchema>;
/** `GET due`: `status` absent: overdue and due soon; overdue first, then the soonest. */
export const maintenanceDueQuerySchema = z.strictObject({ status: z.enum(['overdue', 'dueSoon'], 'validation.invalid').optional() });
export const maintenanceDueListSchema = z.strictObject({ list: z.array(maintenanceDueLiftSchema) });

// ---------------------------------------------------------------------------------------------
// Visits

/** One checklist answer as stored: the item as it was at the visit, and whether it passed. */
export const visitResultSchema = z.strictObject({
  itemId: z.string(),
  label: z.string(),
  labelText: z.union([z.string(), z.record(z.string(), z.string())]),
  type: z.enum(CHECKLIST_ITEM_TYPES),
  unit: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
  /** Measured items: the value entered; null for pass/fail items. */
  value: z.number().nullable(),
  /** Pass/fail: the technician's answer; measured: whether the value is within the limits. */
  passed: z.boolean(),
  note: z.string().nullable(),
});
export type VisitResult = z.infer<typeof visitResultSchema>;

export const maintenanceVisitSchema = z.strictObject({
  id: z.number(),
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  technicianId: z.string().nullable(),
  technicianName: z.string(),
  startedAt: dateTimeSchema,
  endedAt: dateTimeSchema,
  recordedAt: dateTimeSchema,
  results: z.array(visitResultSchema),
  failedItems: z.array(z.string()),
  findings: z.string(),
  partsUsed: z.array(z.string()),
  /** The incidents of the lift this visit resolved and closed. */
  incidentIds: z.array(z.number()),
  /** The lift's trip counter when the visit was recorded. */
  tripsAt: z.number(),
});
export type MaintenanceVisit = z.infer<typeof maintenanceVisitSchema>;
export const maintenanceVisitPageSchema = pageOf(maintenanceVisitSchema);

/** `GET /auth/access/lift/maintenance?liftId=`: all a lift's maintenance screen needs. */
export const maintenanceLiftSchema = z.strictObject({
  liftId: z.string(),
  liftKind: z.string(),
  plan: maintenancePlanSchema.nullable(),
  due: maintenanceDueSchema,
  /** The checklist a visit on this lift fills in (its operator's own for the kind, or the default). */
  checklist: z.array(checklistItemViewSchema),
  /** The lift's trip counter now. */
  tripsTotal: z.number(),
  recentVisits: z.array(maintenanceVisitSchema),
  /** Root causes an incident closed by a visit may be given (the incidents' list for the lift's kind). */
  rootCauses: z.array(z.strictObject({ id: z.string(), text: z.string() })),
});
export type MaintenanceLift = z.infer<typeof maintenanceLiftSchema>;

export const maintenanceLiftQuerySchema = z.strictObject({ liftId: z.uuid('validation.id') });
export const maintenanceVisitListQuerySchema = z.strictObject({
  liftId: z.uuid('validation.id'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
export const maintenanceVisitGetQuerySchema = z.strictObject({ id: z.coerce.number('validation.id').int('validation.id').positive('validation.id').max(Number.MAX_SAFE_INTEGER, 'validation.id') });

/** One answer: `passed` for a pass/fail item, `value` for a measured one (the server decides `passed` from the limits). */
export const visitResultInputSchema = z.strictObject({
  itemId,
  passed: z.boolean('validation.invalid').optional(),
  value: z.number('validation.invalid').finite('validation.invalid').optional(),
  note: text(1000).optional(),
});
export type VisitResultInput = z.infer<typeof visitResultInputSchema>;

/**
 * `POST visits/record`: the technician is the caller. Every item of the lift's checklist is
 * answered once (`validation.required` at `results` naming a missing one, `validation.invalid`
 * for an unknown item or a wrong kind of answer). `startedAt`/`endedAt` default to now; not in
 * the future (a minute's grace). Each of `incidentIds` must be an incident of this lift that is
 * not closed or cancelled (`visit.incidentNotOnLift` otherwise, nothing stored); it is resolved
 * (root cause `rootCause`, default `other`; the findings as the resolution text) and closed.
 *
 * `idempotencyKey`: one per visit form (a UUID the browser makes once and keeps across its
 * retries, docs/remote-control.md "No replays"). The same key from the same user again answers
 * with the first visit (same id) and stores, closes and logs nothing again; the same key with
 * another request is `conflict`. Optional for older clients, which get no such protection.
 */
export const maintenanceVisitRecordSchema = z
  .strictObject({
    liftId: z.uuid('validation.id'),
    startedAt: z.iso.datetime({ offset: true, message: 'validation.invalid' }).optional(),
    endedAt: z.iso.datetime({ offset: true, message: 'validation.invalid' }).optional(),
    results: z.array(visitResultInputSchema).max(CHECKLIST_ITEMS_MAX, 'validation.max'),
    findings: z.string().trim().max(4000, 'validation.tooLong').default(''),
    partsUsed: z.array(text(200)).max(50, 'validation.max').default([]),
    incidentIds: z.array(z.number('validation.id').int('validation.id').positive('validation.id')).max(50, 'validation.max').default([]),
    rootCause: z.string().max(40, 'validation.tooLong').optional(),
    idempotencyKey: idempotencyKeySchema.optional(),
  })
  .refine((v) => !v.startedAt || !v.endedAt || new Date(v.endedAt).getTime() >= new Date(v.startedAt).getTime(), { path: ['endedAt'], message: 'validation.invalid' })
  .refine((v) => [v.startedAt, v.endedAt].every((t) => !t || new Date(t).getTime() <= Date.now() + 60_000), { path: ['endedAt'], message: 'validation.invalid' })
  .refine((v) => new Set(v.results.map((r) => r.itemId)).size === v.results.length, { path: ['results'], message: 'validation.duplicateItem' })
  .refine((v) => new Set(v.incidentIds).size === v.incidentIds.length, { path: ['incidentIds'], message: 'validation.invalid' });
export type MaintenanceVisitRecordInput = z.infer<typeof maintenanceVisitRecordSchema>;

/** Words the weekly mail and the docs use for the due states. */
export const MAINTENANCE_DUE_TEXTS: Record<MaintenanceDueStatus, LocalizedText> = {
  ok: localized('正常', 'ok', 'в норме'),
  dueSoon: localized('即将到期', 'due soon', 'скоро срок'),
  overdue: localized('已逾期', 'overdue', 'просрочено'),
  noPlan: localized('无保养计划', 'no plan', 'нет плана'),
};
