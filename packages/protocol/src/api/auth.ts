import { z } from 'zod';
import { LANGUAGES, PASSWORD_MAX, PASSWORD_MIN } from '../constants.ts';
import { actionSchema, permissionIdSchema, scopeSchema } from '../access/permissions.ts';
import type { RouteEntry } from '../access/routes.ts';
import { inviteCodeSchema } from './invite-code.ts';

/**
 * Request schemas of the auth API. Messages are i18n keys (`validation.*`) that the web
 * client translates; the server returns them per field in `result.issues`.
 * Every object is strict: an unknown field is a validation error.
 */
const required = (max: number) => z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(max, 'validation.tooLong');

export const usernameSchema = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, 'validation.required')
  .max(64, 'validation.tooLong')
  .regex(/^[\p{L}\p{N}._@-]+$/u, 'validation.username');
export const emailSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(254, 'validation.tooLong').pipe(z.email('validation.email'));
export const mobileSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').regex(/^\+?[0-9]{7,15}$/, 'validation.mobile');
export const captchaSchema = z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').regex(/^[0-9]{6}$/, 'validation.captcha');
/** A new password: length rules of spec section 5; the common-password check is server-side. */
export const newPasswordSchema = z
  .string({ error: 'validation.required' })
  .min(1, 'validation.required')
  .min(PASSWORD_MIN, 'validation.passwordShort')
  .max(PASSWORD_MAX, 'validation.passwordLong');
const anyPassword = z.string({ error: 'validation.required' }).min(1, 'validation.required').max(PASSWORD_MAX, 'validation.passwordLong');

export const loginPasswordSchema = z.strictObject({
  type: z.literal('account'),
  username: required(254),
  password: anyPassword,
  /** The SMS code, for accounts that need a second step (see `/auth/2step-code`). */
  captcha: captchaSchema.optional(),
  remember: z.boolean().optional(),
});
export const loginMobileSchema = z.strictObject({
  type: z.literal('mobile'),
  mobile: mobileSchema,
  captcha: captchaSchema,
  remember: z.boolean().optional(),
});
/** `type` may be left out for the account form; the branch that matches reports its own field errors. */
export const loginSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && !('type' in v) ? { ...v, type: 'account' } : v),
  z.discriminatedUnion('type', [loginPasswordSchema, loginMobileSchema], { error: 'validation.invalid' }),
);
export type LoginRequest = z.infer<typeof loginSchema>;

export const smsRequestSchema = z.strictObject({ mobile: mobileSchema });

export const passwordUpdateSchema = z.strictObject({
  oldPassword: anyPassword,
  password: newPasswordSchema,
});
/** The change-password form adds the confirmation, checked in the browser and never sent. */
export const passwordChangeFormSchema = z
  .object({ oldPassword: anyPassword, password: newPasswordSchema, confirm: z.string().min(1, 'validation.required') })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'validation.passwordMismatch' });

export const registerSchema = z.strictObject({
  email: emailSchema,
  username: usernameSchema,
  password: newPasswordSchema,
  mobile: mobileSchema,
  captcha: captchaSchema,
  language: z.enum(LANGUAGES).optional(),
  /** An organization's invite code: the new account joins it (docs/product.md, "Invite codes"). */
  inviteCode: inviteCodeSchema.optional(),
});
export const registerFormSchema = registerSchema
  .extend({ confirm: z.string().min(1, 'validation.required') })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], message: 'validation.passwordMismatch' });

export const activateSchema = z.strictObject({ token: z.string().min(20).max(200) });
export const forgePasswordSchema = z.strictObject({ email: emailSchema });
export const resetPasswordSchema = z.strictObject({ token: z.string().min(20).max(200), password: newPasswordSchema });
export const twoStepQuerySchema = z.strictObject({ username: required(254) });

export const loginResultSchema = z.strictObject({ token: z.string(), expiresAt: z.string() });
export type LoginResult = z.infer<typeof loginResultSchema>;

export const userInfoPermissionSchema = z.strictObject({
  permissionId: permissionIdSchema,
  actionEntitySet: z.array(z.strictObject({ action: actionSchema })),
  actionList: z.array(actionSchema),
  /** How far the entry reaches (own, served, all). */
  scope: scopeSchema,
});
export type UserInfoPermission = z.infer<typeof userInfoPermissionSchema>;

/** A route of the logged-in area (see APP_ROUTES); children nest. */
export const routeEntrySchema: z.ZodType<RouteEntry> = z.strictObject({
  path: z.string(),
  name: z.string(),
  component: z.string().optional(),
  redirect: z.string().optional(),
  meta: z
    .strictObject({ title: z.string(), icon: z.string().optional(), permission: z.array(permissionIdSchema).optional(), hideInMenu: z.boolean().optional() })
    .optional(),
  get children() {
    return z.array(routeEntrySchema).optional();
  },
});

/** `GET /auth/access/info` result. */
export const userInfoSchema = z.strictObject({
  id: z.string(),
  username: z.string(),
  name: z.string(),
  avatar: z.string(),
  email: z.string().nullable(),
  mobile: z.string().nullable(),
  language: z.string(),
  /** The role's type as a label (shown, never used to decide access). */
  roleType: z.string(),
  organization: z.strictObject({ id: z.string(), name: z.string(), kind: z.enum(['manufacturer', 'operator']) }).nullable(),
  role: z.strictObject({ id: z.string(), name: z.string(), permissions: z.array(userInfoPermissionSchema) }),
  routes: z.array(routeEntrySchema),
  settings: z.record(z.string(), z.unknown()),
  /** No organization and no grant of scope `all` but the documents: the user sees no lift until they join one (an invite code, or an administrator assigns them). */
  awaitingOrganization: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** `GET /auth/Hi`: sets the CSRF cookie. */
export const hiResultSchema = z.strictObject({ hi: z.boolean() });
/** `POST /account/sms`: the code is on its way (the same answer for any number). */
export const smsSentSchema = z.strictObject({ resendAfterSeconds: z.number() });
/** `POST /auth/register`: where the activation mail went. */
export const registeredSchema = z.strictObject({ email: z.string() });
/** `GET /auth/2step-code`: whether the account confirms a password sign-in with an SMS code. */
export const twoStepResultSchema = z.strictObject({ stepCode: z.boolean() });

/** An OpenID Connect provider the login page offers: "Sign in with <label>" (`GET /auth/oidc/<id>/start`). */
export const signInProviderSchema = z.strictObject({ id: z.string(), label: z.string() });
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/** `GET /auth/public/site`: the product's name and footer texts, and the other sign-in providers (OIDC_PROVIDERS; none when unset). */
export const siteInfoSchema = z.strictObject({
  productName: z.string(),
  maker: z.string(),
  version: z.string(),
  copyright: z.string(),
  filingNumber: z.string(),
  serviceContact: z.string(),
  providers: z.array(signInProviderSchema),
});

/** Why a sign-in with another provider came back without a session: `/user/login?ssoError=<code>`. */
export const SSO_ERRORS = ['unknownProvider', 'providerUnavailable', 'providerRefused', 'providerFailed', 'stateInvalid', 'emailNotVerified', 'domainNotMapped', 'localAccountExists', 'notConfigured', 'frozen', 'pending', 'tooManyAttempts'] as const;
export type SsoError = (typeof SSO_ERRORS)[number];

/** `GET /auth/oidc/:provider/start`: where to go after the sign-in (a same-origin path) and whether to stay signed in. */
export const oidcStartQuerySchema = z.strictObject({
  redirect: z.string().max(2000).optional(),
  remember: z.enum(['0', '1']).optional(),
});
/** `GET /auth/oidc/:provider/callback`: the provider's answer; other parameters a provider adds (session_state, scope) are let through. */
export const oidcCallbackQuerySchema = z.looseObject({
  code: z.string().max(4000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
});
export const oidcProviderParamsSchema = z.strictObject({ provider: z.string().max(40) });
/** `POST /auth/oidc/session`: the one-time code the callback put into the login page's address. */
export const oidcHandoffSchema = z.strictObject({ code: z.string().min(1).max(200) });
/** The session the callback opened, for the web client to keep like a password sign-in's. */
export const oidcHandoffResultSchema = z.strictObject({ token: z.string(), expiresAt: z.string(), remember: z.boolean() });
export type OidcHandoffResult = z.infer<typeof oidcHandoffResultSchema>;
export type SiteInfo = z.infer<typeof siteInfoSchema>;
