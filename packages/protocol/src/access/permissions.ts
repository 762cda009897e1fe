import { z } from 'zod';
import { ACTIONS, PERMISSION_IDS, SCOPES, defaultScope, scopesFor, type Permission, type PermissionId, type Scope } from './permission-rules.ts';

export * from './permission-rules.ts';

export const actionSchema = z.enum(ACTIONS);
export const permissionIdSchema = z.enum(PERMISSION_IDS);
export const scopeSchema = z.enum(SCOPES, 'validation.invalid');

const scopeFits = (p: { permissionId: PermissionId; scope?: Scope | undefined }) => p.scope === undefined || scopesFor(p.permissionId).includes(p.scope);

/** One grant of a role as stored and sent: actions on a resource within a scope (see permission-rules.ts). */
export const permissionSchema = z
  .strictObject({
    permissionId: permissionIdSchema,
    actions: z.array(actionSchema).max(ACTIONS.length),
    scope: scopeSchema,
  })
  .refine(scopeFits, { path: ['scope'], message: 'validation.invalid' }) satisfies z.ZodType<Permission>;

/** A grant in a request: without a scope it gets `defaultScope` (what roles reached before scopes). */
export const permissionInputSchema = z
  .strictObject({
    permissionId: permissionIdSchema,
    actions: z.array(actionSchema).max(ACTIONS.length),
    scope: scopeSchema.optional(),
  })
  .refine(scopeFits, { path: ['scope'], message: 'validation.invalid' })
  .transform((p): Permission => ({ permissionId: p.permissionId, actions: p.actions, scope: p.scope ?? defaultScope(p.permissionId) }));
