import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { permissionInputSchema, permissionSchema } from '../access/permissions.ts';
import { emailSchema, mobileSchema, newPasswordSchema, usernameSchema } from './auth.ts';
import { pageOf } from './envelope.ts';
import { timeZoneSchema } from '../time-zone.ts';

const name = z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong');
const id = z.uuid('validation.id');

export const USER_STATUSES = ['active', 'frozen', 'pending'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const ORG_KINDS = ['manufacturer', 'operator'] as const;
export type OrgKind = (typeof ORG_KINDS)[number];

export const pageQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
  keyword: z.string().trim().max(100).optional(),
});

export const userCreateSchema = z.strictObject({
  username: usernameSchema,
  name,
  email: emailSchema.optional(),
  mobile: mobileSchema.optional(),
  password: newPasswordSchema,
  roleId: id,
  orgId: id.nullable().optional(),
  language: z.enum(LANGUAGES).optional(),
});
export const userUpdateSchema = z.strictObject({
  id,
  name: name.optional(),
  email: emailSchema.nullable().optional(),
  mobile: mobileSchema.nullable().optional(),
  roleId: id.optional(),
  orgId: id.nullable().optional(),
  language: z.enum(LANGUAGES).optional(),
  /** The account must confirm each password sign-in with an SMS code. */
  twoStep: z.boolean().optional(),
});
export const userIdSchema = z.strictObject({ id });
export const userResetPasswordSchema = z.strictObject({ id, password: newPasswordSchema });

export const roleCreateSchema = z.strictObject({
  name,
  roleType: z.string().trim().min(1).max(40).optional(),
  permissions: z.array(permissionInputSchema).max(50),
});
export const roleUpdateSchema = roleCreateSchema.partial().extend({ id });

/** `timeZone`: where the organization's lifts are, for their installation windows (default UTC). */
export const orgCreateSchema = z.strictObject({ name, kind: z.enum(ORG_KINDS), timeZone: timeZoneSchema.optional() });
export const orgUpdateSchema = z.strictObject({ id, name, timeZone: timeZoneSchema.optional() });
export const orgAssignLiftsSchema = z.strictObject({ orgId: id.nullable(), liftIds: z.array(id).min(1).max(1000) });

export const userViewSchema = z.strictObject({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  status: z.enum(USER_STATUSES),
  language: z.string(),
  twoStep: z.boolean(),
  role: z.strictObject({ id: z.string(), name: z.string() }),
  organization: z.strictObject({ id: z.string(), name: z.string() }).nullable(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type UserView = z.infer<typeof userViewSchema>;
export const userPageSchema = pageOf(userViewSchema);

export const roleViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  roleType: z.string(),
  builtIn: z.boolean(),
  permissions: z.array(permissionSchema),
  userCount: z.number(),
});
export type RoleView = z.infer<typeof roleViewSchema>;

export const orgViewSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(ORG_KINDS),
  timeZone: z.string(),
  userCount: z.number(),
  liftCount: z.number(),
});
export type OrgView = z.infer<typeof orgViewSchema>;

/** A lift an organization holds (`GET /auth/access/system/orgs/lifts`). */
export const orgLiftSchema = z.strictObject({ id: z.string(), deviceNo: z.string().nullable(), alias: z.string(), kind: z.string(), assigned: z.boolean() });

/** The id of what a `create` made. */
export const createdIdSchema = z.strictObject({ id: z.string() });
/** `POST .../orgs/assign-lifts`: how many lifts changed hands. */
export const assignedCountSchema = z.strictObject({ assigned: z.number() });
/** `POST .../users/end-sessions`: how many sessions were ended. */
export const endedSessionsSchema = z.strictObject({ ended: z.number() });
