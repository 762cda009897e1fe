import { z } from 'zod';
import { dateTimeSchema, listOf } from './envelope.ts';
import { pageQuerySchema } from './admin.ts';
import { inviteCodeSchema } from './invite-code.ts';

/**
 * Organization invite codes and the accounts awaiting an organization (docs/product.md,
 * "Invite codes"). Messages are i18n keys (`validation.*`).
 */
const id = z.uuid('validation.id');

export const INVITE_MAX_DAYS = 365;
export const INVITE_MAX_USES = 1000;
export const INVITE_STATES = ['active', 'expired', 'usedUp', 'revoked'] as const;
export type InviteState = (typeof INVITE_STATES)[number];

/** `POST /auth/access/system/invites/create`. */
export const inviteCreateSchema = z.strictObject({
  orgId: id,
  roleId: id,
  days: z.coerce.number({ error: 'validation.required' }).int('validation.inviteDays').min(1, 'validation.inviteDays').max(INVITE_MAX_DAYS, 'validation.inviteDays'),
  maxUses: z.coerce.number({ error: 'validation.required' }).int('validation.inviteUses').min(1, 'validation.inviteUses').max(INVITE_MAX_USES, 'validation.inviteUses'),
});
export type InviteCreateRequest = z.infer<typeof inviteCreateSchema>;
export const inviteIdSchema = z.strictObject({ id });
/** `POST /auth/access/account/invite/redeem`: a signed-in user without organization joins one. */
export const inviteRedeemSchema = z.strictObject({ code: inviteCodeSchema });

/** An invite code as the list shows it: only its first characters. */
export const inviteViewSchema = z.strictObject({
  id: z.string(),
  prefix: z.string(),
  organization: z.strictObject({ id: z.string(), name: z.string() }),
  role: z.strictObject({ id: z.string(), name: z.string() }),
  maxUses: z.number(),
  uses: z.number(),
  expiresAt: dateTimeSchema,
  createdAt: dateTimeSchema,
  createdBy: z.string().nullable(),
  state: z.enum(INVITE_STATES),
});
export type InviteView = z.infer<typeof inviteViewSchema>;
export const inviteListSchema = listOf(inviteViewSchema);
/** The created code: the whole code, shown this once. */
export const inviteCreatedSchema = z.strictObject({ id: z.string(), code: z.string(), prefix: z.string(), expiresAt: dateTimeSchema });
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;
/** What redeeming a code gave the user. */
export const inviteRedeemedSchema = z.strictObject({
  organization: z.strictObject({ id: z.string(), name: z.string() }),
  role: z.strictObject({ id: z.string(), name: z.string() }),
});

/** `GET /auth/access/system/users`: `awaiting=true` lists only the accounts awaiting an organization. */
export const userListQuerySchema = pageQuerySchema.extend({
  awaiting: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
});
/** `POST /auth/access/system/users/assign`: an account awaiting an organization gets one and a role. */
export const userAssignSchema = z.strictObject({ id, orgId: id, roleId: id });
export type UserAssignRequest = z.infer<typeof userAssignSchema>;
