import { z } from 'zod';
import { dateTimeSchema } from './envelope.ts';
import { INCIDENT_PRIORITIES, type IncidentPriority } from './incidents.ts';

/**
 * Escalation (docs/service.md, "Escalation"): an organization's on-call list. An incident on
 * one of its lifts that nobody acknowledges goes to the first person on the list, then, each
 * time the acknowledge time passes, to the next one, and after the list to the manager; by
 * mail and in the app. Once acknowledged, everyone told so far learns who took it.
 * Routes under `/auth/access/system/orgs/escalation` (read: `org.query`, save: `org.edit`).
 */

/** The acknowledge time per step, in minutes: its default and its bounds. */
export const ESCALATION_ACK_MINUTES_DEFAULT = 10;
export const ESCALATION_ACK_MINUTES_MIN = 1;
export const ESCALATION_ACK_MINUTES_MAX = 1440;
/** The most people an on-call list holds. */
export const ESCALATION_ON_CALL_MAX = 20;

const userId = z.uuid('validation.id');
const minutes = z
  .number('validation.integer')
  .int('validation.integer')
  .min(ESCALATION_ACK_MINUTES_MIN, 'validation.min')
  .max(ESCALATION_ACK_MINUTES_MAX, 'validation.max');

/** A shorter (or longer) acknowledge time for incidents of some priorities; the others take `ackMinutes`. */
export const ackMinutesByPrioritySchema = z.partialRecord(z.enum(INCIDENT_PRIORITIES), minutes);

/** What an organization sets: the on-call list in order, the manager after it, the acknowledge time per step. */
export const escalationPolicyInputSchema = z.strictObject({
  onCall: z
    .array(userId)
    .max(ESCALATION_ON_CALL_MAX, 'validation.max')
    .refine((ids) => new Set(ids).size === ids.length, 'validation.listedTwice'),
  managerId: userId.nullable(),
  ackMinutes: minutes,
  ackMinutesByPriority: ackMinutesByPrioritySchema.default({}),
});
export type EscalationPolicyInput = z.infer<typeof escalationPolicyInputSchema>;

/** The body of the save route. */
export const escalationPolicyUpdateSchema = escalationPolicyInputSchema.extend({ orgId: z.uuid('validation.id') });
export type EscalationPolicyUpdate = z.input<typeof escalationPolicyUpdateSchema>;

export const escalationPolicyQuerySchema = z.strictObject({ orgId: z.uuid('validation.id') });

/** A user who may be put on the list (an active member of the organization who may work on incidents). */
export const escalationCandidateSchema = z.strictObject({ id: z.string(), name: z.string(), username: z.string() });
export type EscalationCandidate = z.infer<typeof escalationCandidateSchema>;

/** An organization's policy as the server answers it (the defaults when none was saved: `updatedAt` null). */
export const escalationPolicySchema = z.strictObject({
  orgId: z.string(),
  onCall: z.array(z.string()),
  managerId: z.string().nullable(),
  ackMinutes: z.number(),
  ackMinutesByPriority: z.partialRecord(z.enum(INCIDENT_PRIORITIES), z.number()),
  updatedAt: dateTimeSchema.nullable(),
  updatedByName: z.string().nullable(),
  /** Who may be put on the list or named manager. */
  candidates: z.array(escalationCandidateSchema),
});
export type EscalationPolicy = z.infer<typeof escalationPolicySchema>;

/** The acknowledge time of an incident of this priority under a policy. */
export function ackMinutesFor(policy: { ackMinutes: number; ackMinutesByPriority: Partial<Record<IncidentPriority, number>> }, priority: IncidentPriority): number {
  return policy.ackMinutesByPriority[priority] ?? policy.ackMinutes;
}

/**
 * An in-app notification about an incident: `escalated` (it waits for someone to acknowledge
 * it, and the recipient is the one asked now: `step` 0 is the first on the list, the manager's
 * step comes after the list) or `taken` (`actorName` acknowledged it).
 */
export const INCIDENT_NOTIFICATION_KINDS = ['escalated', 'taken'] as const;
export type IncidentNotificationKind = (typeof INCIDENT_NOTIFICATION_KINDS)[number];

export const incidentNotificationSchema = z.strictObject({
  id: z.number(),
  kind: z.enum(INCIDENT_NOTIFICATION_KINDS),
  incidentId: z.number(),
  liftId: z.string(),
  deviceNo: z.string().nullable(),
  alias: z.string(),
  cause: z.string(),
  code: z.string().nullable(),
  title: z.string().nullable(),
  priority: z.enum(INCIDENT_PRIORITIES),
  /** The recipient is the manager (the list did not answer). */
  manager: z.boolean(),
  actorName: z.string().nullable(),
  at: dateTimeSchema,
  read: z.boolean(),
});
export type IncidentNotification = z.infer<typeof incidentNotificationSchema>;
