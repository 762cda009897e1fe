import { z } from 'zod';
import { DEVICE_KINDS, type DeviceKind } from '../device/kinds.ts';
import { localized, type LocalizedText } from '../device/texts.ts';
import { ALERT_KINDS, type AlertKind } from './alerts.ts';
import { dateTimeSchema } from './envelope.ts';

/**
 * Incidents (docs/service.md): a fault, a help signal, a lift offline past its threshold or
 * a person opens one on a lift; it goes through the states below, each step recorded with
 * who and when. Routes under `/auth/access/incidents/`, maintenance windows under
 * `/auth/access/lift/maintenance-windows/`.
 */

/** What opened an incident: every alert kind (they flow in as alerts gain kinds), or a person. */
export const INCIDENT_CAUSES = [...ALERT_KINDS, 'manual'] as const;
export type IncidentCause = AlertKind | 'manual';

/** Priorities, most urgent first. */
export const INCIDENT_PRIORITIES = ['critical', 'high', 'normal', 'low'] as const;
export type IncidentPriority = (typeof INCIDENT_PRIORITIES)[number];

/**
 * The priority an incident gets from its cause. A help signal may be a person trapped on the
 * platform: the highest. A cause without an entry here is `normal`.
 */
export const PRIORITY_BY_CAUSE: Partial<Record<IncidentCause, IncidentPriority>> = {
  help: 'critical',
  fault: 'high',
  offline: 'normal',
  manual: 'normal',
};

export function priorityOf(cause: string): IncidentPriority {
  return PRIORITY_BY_CAUSE[cause as IncidentCause] ?? 'normal';
}

/** The states of an incident. `enRoute`: a technician is on the way. */
export const INCIDENT_STATES = ['open', 'acknowledged', 'enRoute', 'onSite', 'resolved', 'closed', 'cancelled'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/**
 * The one table of allowed transitions. An incident in an *active* state (one with a way
 * on to `resolved`) is the lift's open incident for its cause: repeats attach to it.
 * Resolving needs a root cause; `enRoute` and `onSite` need an assignee.
 */
export const INCIDENT_TRANSITIONS: Record<IncidentState, readonly IncidentState[]> = {
  open: ['acknowledged', 'cancelled'],
  acknowledged: ['enRoute', 'resolved', 'cancelled'],
  enRoute: ['onSite', 'acknowledged', 'cancelled'],
  onSite: ['resolved'],
  resolved: ['closed'],
  closed: [],
  cancelled: [],
};

/** The states in which an incident is still being worked on (one per lift, cause and code). */
export const ACTIVE_INCIDENT_STATES: readonly IncidentState[] = ['open', 'acknowledged', 'enRoute', 'onSite'];

/** The states in words, for texts the server writes (the audit log's summaries). */
export const INCIDENT_STATE_TEXTS: Record<IncidentState, LocalizedText> = {
  open: localized('待处理', 'open', 'открыт'),
  acknowledged: localized('已确认', 'acknowledged', 'принят'),
  enRoute: localized('技术员在途', 'technician on the way', 'техник в пути'),
  onSite: localized('技术员到场', 'on site', 'на месте'),
  resolved: localized('已解决', 'resolved', 'устранён'),
  closed: localized('已关闭', 'closed', 'закрыт'),
  cancelled: localized('已取消', 'cancelled', 'отменён'),
};

export function canTransition(from: IncidentState, to: IncidentState): boolean {
  return INCIDENT_TRANSITIONS[from].includes(to);
}

/** States that need a technician assigned before the incident may enter them. */
export const STATES_NEEDING_ASSIGNEE: readonly IncidentState[] = ['enRoute', 'onSite'];

/** Root causes a resolution names, with their words (the server answers in the caller's language). */
export const ROOT_CAUSE_TEXTS = {
  wornPart: localized('部件磨损', 'Worn part', 'Износ детали'),
  electrical: localized('电气故障', 'Electrical fault', 'Электрическая неисправность'),
  powerSupply: localized('供电问题', 'Power supply', 'Электропитание'),
  network: localized('网络或通信中断', 'Network or communication loss', 'Потеря сети или связи'),
  obstruction: localized('异物阻挡', 'Obstruction', 'Препятствие'),
  misuse: localized('使用不当', 'Misuse', 'Неправильное использование'),
  configuration: localized('配置错误', 'Configuration error', 'Ошибка конфигурации'),
  sensor: localized('传感器或限位开关', 'Sensor or limit switch', 'Датчик или концевой выключатель'),
  rackWear: localized('齿条磨损或错位', 'Rack wear or misalignment', 'Износ или смещение рейки'),
  chainSprocket: localized('链条或链轮', 'Chain or sprocket', 'Цепь или звёздочка'),
  hydraulicLeak: localized('液压泄漏', 'Hydraulic leak', 'Утечка гидравлики'),
  pump: localized('液压泵', 'Hydraulic pump', 'Гидронасос'),
  noFaultFound: localized('未发现故障', 'No fault found', 'Неисправность не обнаружена'),
  other: localized('其他', 'Other', 'Другое'),
} as const satisfies Record<string, LocalizedText>;
export type RootCause = keyof typeof ROOT_CAUSE_TEXTS;

const COMMON_ROOT_CAUSES: RootCause[] = ['wornPart', 'electrical', 'powerSupply', 'network', 'obstruction', 'misuse', 'configuration', 'sensor'];
const LAST_ROOT_CAUSES: RootCause[] = ['noFaultFound', 'other'];

/** The root causes offered for a lift of each kind (its drive decides the mechanical ones). */
export const ROOT_CAUSES_BY_KIND: Record<DeviceKind, readonly RootCause[]> = {
  inclinedStraightRack: [...COMMON_ROOT_CAUSES, 'rackWear', ...LAST_ROOT_CAUSES],
  inclined2dRack: [...COMMON_ROOT_CAUSES, 'rackWear', ...LAST_ROOT_CAUSES],
  inclined2dSprocket: [...COMMON_ROOT_CAUSES, 'chainSprocket', ...LAST_ROOT_CAUSES],
  inclined3dSprocket: [...COMMON_ROOT_CAUSES, 'chainSprocket', ...LAST_ROOT_CAUSES],
  verticalHydraulic: [...COMMON_ROOT_CAUSES, 'hydraulicLeak', 'pump', ...LAST_ROOT_CAUSES],
};

/** The root causes for a lift kind; an unknown kind gets the common ones. */
export function rootCausesFor(kind: string): readonly RootCause[] {
  return (DEVICE_KINDS as readonly string[]).includes(kind) ? ROOT_CAUSES_BY_KIND[kind as DeviceKind] : [...COMMON_ROOT_CAUSES, ...LAST_ROOT_CAUSES];
}

const id = z.coerce.number('validation.id').int('validation.id').positive('validation.id').max(Number.MAX_SAFE_INTEGER, 'validation.id');
const liftId = z.uuid('validation.id');
const text = (max: number) => z.string().trim().min(1, 'validation.required').max(max, 'validation.tooLong');

/** One incident as lists and live messages carry it. */
export const incidentViewSchema = z.strictObject({
  id: z.number(),
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  liftKind: z.string(),
  cause: z.string(),
  /** The fault code of a fault incident, null otherwise. */
  code: z.string().nullable(),
  /** What the person who opened a manual incident saw; null for the others. */
  title: z.string().nullable(),
  priority: z.enum(INCIDENT_PRIORITIES),
  state: z.enum(INCIDENT_STATES),
  assigneeId: z.string().nullable(),
  assigneeName: z.string().nullable(),
  openedAt: dateTimeSchema,
  /** Null: the system opened it (an alarm). */
  openedById: z.string().nullable(),
  openedByName: z.string().nullable(),
  /** How often the same cause came again while it was open, and the last time. */
  repeats: z.number(),
  lastRepeatAt: dateTimeSchema.nullable(),
  stateChangedAt: dateTimeSchema,
  /** When it was resolved or cancelled (the end of the lift's events shown with it). */
  endedAt: dateTimeSchema.nullable(),
  rootCause: z.string().nullable(),
  resolutionText: z.string().nullable(),
  partsUsed: z.array(z.string()),
});
export type IncidentView = z.infer<typeof incidentViewSchema>;

/** A step: a change of state (`from` null: opened) or of assignee (`from` = `to`). */
export const incidentStepSchema = z.strictObject({
  id: z.number(),
  from: z.enum(INCIDENT_STATES).nullable(),
  to: z.enum(INCIDENT_STATES),
  actorId: z.string().nullable(),
  actorName: z.string().nullable(),
  at: dateTimeSchema,
  note: z.string().nullable(),
  assigneeName: z.string().nullable(),
  /** An escalation step (`from` = `to` = open, by the system): who was asked to acknowledge, and whether as the manager. */
  escalatedTo: z.string().nullable().optional(),
  escalatedManager: z.boolean().optional(),
});
export type IncidentStep = z.infer<typeof incidentStepSchema>;

export const incidentNoteSchema = z.strictObject({ id: z.number(), authorId: z.string().nullable(), authorName: z.string(), at: dateTimeSchema, text: z.string() });
export type IncidentNote = z.infer<typeof incidentNoteSchema>;

/** A run-log entry of the lift while the incident was open, in the caller's language. */
export const incidentEventSchema = z.strictObject({ id: z.number(), ts: dateTimeSchema, code: z.string(), text: z.string(), fault: z.boolean() });

/** `GET incidents/get`: the incident, its steps, notes, the lift's events during it and the root causes its lift offers. */
export const incidentDetailSchema = z.strictObject({
  incident: incidentViewSchema,
  steps: z.array(incidentStepSchema),
  notes: z.array(incidentNoteSchema),
  events: z.array(incidentEventSchema),
  /** The next states allowed from here (the transitions table). */
  next: z.array(z.enum(INCIDENT_STATES)),
  rootCauses: z.array(z.strictObject({ id: z.string(), text: z.string() })),
});
export type IncidentDetail = z.infer<typeof incidentDetailSchema>;

export const incidentPageSchema = z.strictObject({ list: z.array(incidentViewSchema), total: z.number() });

/** `GET incidents`: filters and paging; `active` = the states still being worked on. */
export const incidentListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  state: z.enum([...INCIDENT_STATES, 'active'], 'validation.invalid').optional(),
  cause: z.enum(INCIDENT_CAUSES as unknown as [string, ...string[]], 'validation.invalid').optional(),
  priority: z.enum(INCIDENT_PRIORITIES, 'validation.invalid').optional(),
  liftId: liftId.optional(),
  assigneeId: z.uuid('validation.id').optional(),
});
export const incidentGetQuerySchema = z.strictObject({ id });

/** `POST incidents/create`: a person opens an incident on a lift. */
export const incidentCreateSchema = z.strictObject({ liftId, title: text(200), priority: z.enum(INCIDENT_PRIORITIES, 'validation.invalid').optional() });

/** `POST incidents/transition`; resolving carries the resolution. */
export const incidentTransitionSchema = z.strictObject({
  id,
  to: z.enum(INCIDENT_STATES, 'validation.invalid'),
  note: text(2000).optional(),
  rootCause: z.string().max(40).optional(),
  resolutionText: text(4000).optional(),
  partsUsed: z.array(text(200)).max(50).optional(),
});
export type IncidentTransitionInput = z.infer<typeof incidentTransitionSchema>;

/** `POST incidents/assign`: a user of the lift's organizations whose role may work on incidents of the lift. */
export const incidentAssignSchema = z.strictObject({ id, userId: z.uuid('validation.id') });
export const incidentNoteInputSchema = z.strictObject({ id, text: text(4000) });

/** `GET incidents/assignees?id=`: who may be assigned. */
export const incidentAssigneeListSchema = z.strictObject({ list: z.array(z.strictObject({ id: z.string(), name: z.string(), username: z.string() })) });

/**
 * A maintenance window: while it runs, its lifts raise no alerts and open no incidents, and
 * its start and end are written into each lift's run log. A window over several lifts (a
 * site) is one window with several lifts.
 */
export const maintenanceWindowSchema = z.strictObject({
  id: z.number(),
  liftIds: z.array(z.string()),
  startsAt: dateTimeSchema,
  endsAt: dateTimeSchema,
  reason: z.string(),
  declaredById: z.string().nullable(),
  declaredByName: z.string(),
  declaredAt: dateTimeSchema,
  /** Who ended it before its planned end; null otherwise. */
  endedByName: z.string().nullable(),
});
export type MaintenanceWindow = z.infer<typeof maintenanceWindowSchema>;

/** The longest window one may declare. */
export const MAINTENANCE_WINDOW_MAX_DAYS = 30;

/** `POST maintenance-windows/declare`: `startsAt` defaults to now; not in the past (a minute's grace for clocks). */
export const maintenanceDeclareSchema = z
  .strictObject({
    liftIds: z.array(liftId).min(1, 'validation.required').max(500),
    startsAt: z.iso.datetime({ offset: true, message: 'validation.invalid' }).optional(),
    endsAt: z.iso.datetime({ offset: true, message: 'validation.invalid' }),
    reason: text(500),
  })
  .refine((w) => new Date(w.endsAt).getTime() > (w.startsAt ? new Date(w.startsAt).getTime() : Date.now()), { path: ['endsAt'], message: 'validation.invalid' })
  .refine((w) => !w.startsAt || new Date(w.startsAt).getTime() >= Date.now() - 60_000, { path: ['startsAt'], message: 'validation.invalid' })
  .refine((w) => new Date(w.endsAt).getTime() - (w.startsAt ? new Date(w.startsAt).getTime() : Date.now()) <= MAINTENANCE_WINDOW_MAX_DAYS * 86_400_000, { path: ['endsAt'], message: 'validation.invalid' });
export const maintenanceEndSchema = z.strictObject({ id });
/** `GET maintenance-windows`: a lift's windows, or every window on the caller's lifts; `current`: running or still to come. */
export const maintenanceListQuerySchema = z.strictObject({ liftId: liftId.optional(), current: z.enum(['true', 'false']).optional() });
export const maintenanceWindowListSchema = z.strictObject({ list: z.array(maintenanceWindowSchema) });
