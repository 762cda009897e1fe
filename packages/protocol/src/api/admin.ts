import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { permissionSchema } from '../access/permissions.ts';
import { emailSchema, mobileSchema, newPasswordSchema, usernameSchema } from './auth.ts';

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
  permissions: z.array(permissionSchema).max(50),
});
export const roleUpdateSchema = roleCreateSchema.partial().extend({ id });

export const orgCreateSchema = z.strictObject({ name, kind: z.enum(ORG_KINDS) });
export const orgUpdateSchema = z.strictObject({ id, name });
export const orgAssignLiftsSchema = z.strictObject({ orgId: id.nullable(), liftIds: z.array(id).min(1).max(1000) });

export interface UserView {
  id: string;
  username: string;
  name: string;
  email: string | null;
  mobile: string | null;
  status: UserStatus;
  language: string;
  twoStep: boolean;
  role: { id: string; name: string };
  organization: { id: string; name: string } | null;
  createdAt: string;
  lastLoginAt: string | null;
}
export interface RoleView {
  id: string;
  name: string;
  roleType: string;
  builtIn: boolean;
  permissions: { permissionId: string; actions: string[] }[];
  userCount: number;
}
export interface OrgView {
  id: string;
  name: string;
  kind: OrgKind;
  userCount: number;
  liftCount: number;
}
