import { z } from 'zod';
import { commandNameSchema, commandStateSchema, refusalReasonSchema } from '../device/commands.ts';
import { approvalClassesSchema, commandClassSchema, idempotencyKeySchema } from '../device/control.ts';
import { dateTimeSchema } from './envelope.ts';

/**
 * Safe remote control over HTTP (docs/remote-control.md): the control lease, cancelling a
 * command in its cancel window, two-person approval. Routes under `/auth/access/lift/`.
 */
const liftId = z.uuid('validation.id');

/** Why a lease ended; the live `lease` message names it so the former holder's page can say so. */
export const LEASE_END_REASONS = ['released', 'expired', 'takenOver', 'localControl'] as const;
export type LeaseEndReason = (typeof LEASE_END_REASONS)[number];

/** A lift's control lease as everyone watching the lift sees it. */
export const leaseViewSchema = z.strictObject({
  liftId: z.string(),
  epoch: z.number().int(),
  holderId: z.string(),
  holderName: z.string(),
  acquiredAt: dateTimeSchema,
  expiresAt: dateTimeSchema,
});
export type LeaseView = z.infer<typeof leaseViewSchema>;

/**
 * `GET /auth/access/lift/lease?liftId=` and the answer of every lease route: the lease (null
 * when nobody holds it) and, after local use, until when remote control is paused.
 */
export const leaseStateSchema = z.strictObject({
  lease: leaseViewSchema.nullable(),
  localUntil: dateTimeSchema.nullable(),
});
export type LeaseState = z.infer<typeof leaseStateSchema>;

export const leaseQuerySchema = z.strictObject({ liftId });
/** `POST lease/take`: `takeOver` takes it from another holder (needs `liftControl.edit`; the holder is told). */
export const leaseTakeSchema = z.strictObject({ liftId, takeOver: z.boolean().default(false) });
/** `POST lease/renew` and `lease/release`: only the holder of that epoch may. */
export const leaseHolderSchema = z.strictObject({ liftId, epoch: z.number().int().positive() });

/**
 * `POST /auth/access/lift/control` takes `idempotencyKey`: the same key from the same user
 * answers with the first command's outcome and never sends a second one.
 * `POST command/cancel`: cancels a command still in its cancel window (only its sender), named
 * by the idempotency key of its click: the page knows it before the command's id exists.
 */
export const commandCancelSchema = z.strictObject({ liftId, idempotencyKey: idempotencyKeySchema });

export const APPROVAL_STATES = ['pending', 'approved', 'rejected', 'withdrawn', 'expired'] as const;
export type ApprovalState = (typeof APPROVAL_STATES)[number];

/** A request for two-person approval of one command. */
export const approvalViewSchema = z.strictObject({
  id: z.string(),
  liftId: z.string(),
  command: commandNameSchema,
  args: z.record(z.string(), z.unknown()),
  commandClass: commandClassSchema,
  reason: z.string(),
  state: z.enum(APPROVAL_STATES),
  requesterId: z.string(),
  requesterName: z.string(),
  requestedAt: dateTimeSchema,
  expiresAt: dateTimeSchema,
  deciderId: z.string().nullable(),
  deciderName: z.string().nullable(),
  decidedAt: dateTimeSchema.nullable(),
  /** The command it ran, once approved, and how that went. */
  commandId: z.string().nullable(),
  commandState: commandStateSchema.nullable(),
  commandReason: refusalReasonSchema.nullable(),
});
export type ApprovalView = z.infer<typeof approvalViewSchema>;

/** `POST approval/request`: the command as for `control`, and why (shown to the approver, kept in the audit). */
export const approvalRequestSchema = z.strictObject({
  liftId,
  command: commandNameSchema,
  args: z.record(z.string().max(32), z.unknown()).default({}),
  reason: z.string().trim().min(1, 'validation.required').max(300, 'validation.tooLong'),
  idempotencyKey: idempotencyKeySchema,
});
/** `POST approval/approve`, `approval/reject` (another user), `approval/withdraw` (the requester). */
export const approvalDecisionSchema = z.strictObject({ approvalId: z.uuid('validation.id') });
/** `GET approval/list?liftId=`: the lift's pending requests and those decided in the last hour. */
export const approvalListQuerySchema = z.strictObject({ liftId });

/** An organization's choice of the classes under two-person approval (`org` edit). */
export const approvalClassesUpdateSchema = z.strictObject({ orgId: z.uuid('validation.id'), approvalClasses: approvalClassesSchema });
