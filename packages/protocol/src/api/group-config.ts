import { z } from 'zod';
import { CONFIG_FIELDS, configFieldSchema, type ConfigValue } from '../device/config.ts';
import { idempotencyKeySchema } from '../device/control.ts';
import { REFUSAL_REASON_CODES, type RefusalReason } from '../device/commands.ts';
import { DEVICE_KINDS, deviceNoSchema } from '../device/kinds.ts';
import { dateTimeSchema } from './envelope.ts';
import { configIssueSchema } from './lifts.ts';

/**
 * Group configuration (docs/group-config.md): one change of configuration fields sent to many
 * lifts at once. The user selects lifts, changes fields once, reviews each lift's difference,
 * and sends; each lift validates and answers for itself. Only `config/set` is ever sent: no
 * message here can carry a command (the schemas are strict), and nothing is retried.
 *
 * Routes (all under `/auth/access/lift/group-config`):
 * - `POST /auth/access/lift/group-config/preview`  liftConfig.get   ← groupConfigPreviewRequestSchema → groupConfigPreviewSchema
 * - `POST /auth/access/lift/group-config/send`     liftConfig.edit  ← groupConfigSendRequestSchema → groupConfigSendSchema
 * - `GET  /auth/access/lift/group-config/get?id=`  liftConfig.get   → groupConfigSendSchema
 * - `GET  /auth/access/lift/group-config/list`     liftConfig.get   → groupConfigListSchema (the caller's recent sends)
 * - `GET  /auth/access/lift/group-config/options`  liftConfig.get   → groupConfigOptionsSchema (what the selection may name)
 */

/** The most lifts one group send reaches: a bigger selection is refused (`groupConfig.tooMany`), never cut. */
export const GROUP_CONFIG_MAX_LIFTS = 500;
/** How many recent group sends the list shows. */
export const GROUP_CONFIG_LIST_MAX = 20;

const firmwareValue = z.string().trim().min(1, 'validation.required').max(32, 'validation.tooLong');
const siteValue = z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong');

/**
 * Which lifts: every criterion given narrows the selection (kind AND firmware AND ...); within
 * one criterion any value matches. An organization matches a lift it operates or made. At
 * least one criterion; lifts out of the caller's scope are never selected.
 */
export const groupConfigSelectionSchema = z
  .strictObject({
    kinds: z.array(z.enum(DEVICE_KINDS)).max(DEVICE_KINDS.length).optional(),
    firmware: z.array(firmwareValue).max(50).optional(),
    orgIds: z.array(z.uuid()).max(100).optional(),
    sites: z.array(siteValue).max(100).optional(),
    liftIds: z.array(z.uuid()).max(GROUP_CONFIG_MAX_LIFTS).optional(),
    deviceNos: z.array(deviceNoSchema).max(GROUP_CONFIG_MAX_LIFTS).optional(),
  })
  .refine((s) => Object.values(s).some((v) => v !== undefined && v.length > 0), { message: 'groupConfig.noCriterion', path: ['kinds'] });
export type GroupConfigSelection = z.infer<typeof groupConfigSelectionSchema>;

/**
 * The fields to change and their new values, checked by the one configuration schema (each
 * value within its field's type and bounds; an unknown field is refused). Whether the whole
 * new configuration is valid for a lift (its floors, the relations between fields) is that
 * lift's own question: the preview answers it per lift.
 */
export const groupConfigChangesSchema = z
  .strictObject(Object.fromEntries(CONFIG_FIELDS.map((f) => [f.key, configFieldSchema(f).optional()])) as Record<string, z.ZodOptional<z.ZodType<ConfigValue>>>)
  .refine((c) => Object.values(c).some((v) => v !== undefined), { message: 'groupConfig.noChanges' });
export type GroupConfigChanges = Record<string, ConfigValue>;

export const groupConfigPreviewRequestSchema = z.strictObject({ selection: groupConfigSelectionSchema, changes: groupConfigChangesSchema });
export type GroupConfigPreviewRequest = z.infer<typeof groupConfigPreviewRequestSchema>;

const configValueSchema = z.union([z.number(), z.boolean(), z.string()]);

/** One selected lift as reviewed: its values of the changed fields before and after, and what stops it. */
export const groupConfigPreviewLiftSchema = z.strictObject({
  liftId: z.uuid(),
  deviceNo: z.string().nullable(),
  alias: z.string().nullable(),
  kind: z.enum(DEVICE_KINDS),
  firmware: z.string(),
  site: z.string().nullable(),
  online: z.boolean(),
  /** The configuration version the review saw: the send carries it back. */
  version: z.number().int().min(0),
  /** The lift's value of each changed field (null: the lift has no such field or no configuration yet). */
  current: z.record(z.string(), configValueSchema.nullable()),
  next: z.record(z.string(), configValueSchema),
  /** The fields whose value would really change on this lift. */
  changed: z.array(z.string()),
  /** Why the whole new configuration is not valid for this lift (field issues as i18n keys). */
  issues: z.array(configIssueSchema),
  /** Changed fields the caller's configuration role may not write on this lift. */
  forbidden: z.array(z.string()),
});
export type GroupConfigPreviewLift = z.infer<typeof groupConfigPreviewLiftSchema>;

export const groupConfigPreviewSchema = z.strictObject({ lifts: z.array(groupConfigPreviewLiftSchema) });
export type GroupConfigPreview = z.infer<typeof groupConfigPreviewSchema>;

/**
 * The send: the reviewed selection and changes, and per lift the configuration version the
 * review showed. A lift whose version differs now is skipped (never overwritten); a lift not
 * in `versions` is not sent. Strict: a command (`name`, `args`, ...) cannot ride along.
 */
export const groupConfigSendRequestSchema = z.strictObject({
  idempotencyKey: idempotencyKeySchema,
  selection: groupConfigSelectionSchema,
  changes: groupConfigChangesSchema,
  versions: z
    .record(z.uuid(), z.number().int().min(0))
    .refine((v) => Object.keys(v).length >= 1, { message: 'groupConfig.noLifts' })
    .refine((v) => Object.keys(v).length <= GROUP_CONFIG_MAX_LIFTS, { message: 'groupConfig.tooMany' }),
});
export type GroupConfigSendRequest = z.infer<typeof groupConfigSendRequestSchema>;

/**
 * A lift's state in a group send: `pending` (about to be sent), `sent` (waiting for its answer),
 * `done` (applied), `refused` (the lift refused, or did not answer in time: `reason`),
 * `offline` (not sent, and never sent later), `skipped` (not sent: `reason`).
 */
export const GROUP_CONFIG_LIFT_STATES = ['pending', 'sent', 'done', 'refused', 'offline', 'skipped'] as const;
export type GroupConfigLiftState = (typeof GROUP_CONFIG_LIFT_STATES)[number];

/** Why the cloud skipped a lift: its version changed since the review, the change is invalid or beyond the caller's role for it, it changes nothing, or the server was stopping before it went out. */
export const GROUP_CONFIG_SKIP_REASONS = ['versionChanged', 'invalid', 'forbidden', 'unchanged', 'stopped'] as const;
export type GroupConfigSkipReason = (typeof GROUP_CONFIG_SKIP_REASONS)[number];
export type GroupConfigReason = GroupConfigSkipReason | RefusalReason;
export const groupConfigReasonSchema = z.enum([...GROUP_CONFIG_SKIP_REASONS, ...REFUSAL_REASON_CODES] as [GroupConfigReason, ...GroupConfigReason[]]);

/** The state counts of a group send. */
export const groupConfigCountsSchema = z.strictObject(Object.fromEntries(GROUP_CONFIG_LIFT_STATES.map((s) => [s, z.number().int().min(0)])) as Record<GroupConfigLiftState, z.ZodNumber>);
export type GroupConfigCounts = z.infer<typeof groupConfigCountsSchema>;

export const groupConfigSendLiftSchema = z.strictObject({
  liftId: z.uuid(),
  deviceNo: z.string().nullable(),
  alias: z.string().nullable(),
  /** The version the review saw (the one sent as the base). */
  version: z.number().int().min(0),
  commandId: z.string().nullable(),
  state: z.enum(GROUP_CONFIG_LIFT_STATES),
  reason: groupConfigReasonSchema.nullable(),
  answeredAt: dateTimeSchema.nullable(),
});
export type GroupConfigSendLift = z.infer<typeof groupConfigSendLiftSchema>;

export const groupConfigSummarySchema = z.strictObject({
  id: z.uuid(),
  createdAt: dateTimeSchema,
  username: z.string(),
  changes: z.record(z.string(), configValueSchema),
  counts: groupConfigCountsSchema,
});
export type GroupConfigSummary = z.infer<typeof groupConfigSummarySchema>;

export const groupConfigSendSchema = groupConfigSummarySchema.extend({
  selection: z.record(z.string(), z.array(z.string())),
  lifts: z.array(groupConfigSendLiftSchema),
});
export type GroupConfigSend = z.infer<typeof groupConfigSendSchema>;

/** What the selection may name among the caller's lifts: kinds, firmware versions, sites and organizations present. */
export const groupConfigOptionsSchema = z.strictObject({
  kinds: z.array(z.enum(DEVICE_KINDS)),
  firmware: z.array(z.string()),
  sites: z.array(z.string()),
  orgs: z.array(z.strictObject({ id: z.uuid(), name: z.string() })),
});
export type GroupConfigOptions = z.infer<typeof groupConfigOptionsSchema>;

export const groupConfigGetQuerySchema = z.strictObject({ id: z.uuid() });
export const groupConfigListSchema = z.strictObject({ list: z.array(groupConfigSummarySchema) });
export type GroupConfigList = z.infer<typeof groupConfigListSchema>;

/** A final state: nothing more happens to the lift in this send. */
export function isFinalGroupConfigState(state: GroupConfigLiftState): boolean {
  return state !== 'pending' && state !== 'sent';
}
