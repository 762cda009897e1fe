import { bigint, boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Permission } from '@liftlink/protocol';

/** Drizzle view of the tables that `migrations/*.sql` create (the SQL files are the truth). */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  kind: text('kind').$type<'manufacturer' | 'operator'>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const roles = pgTable('roles', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  roleType: text('role_type').notNull(),
  builtIn: boolean('built_in').notNull().default(false),
  permissions: jsonb('permissions').$type<Permission[]>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  username: text('username').notNull(),
  email: text('email'),
  mobile: text('mobile'),
  name: text('name').notNull(),
  avatar: text('avatar').notNull().default(''),
  language: text('language').notNull().default('zh-CN'),
  status: text('status').$type<'active' | 'frozen' | 'pending'>().notNull(),
  passwordHash: text('password_hash').notNull(),
  twoStep: boolean('two_step').notNull().default(false),
  roleId: uuid('role_id').notNull(),
  orgId: uuid('org_id'),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
  notifications: jsonb('notifications').$type<Record<string, unknown>>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  lastLoginAt: ts('last_login_at'),
});

export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id').notNull(),
  tokenHash: text('token_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  ip: text('ip'),
  userAgent: text('user_agent'),
});

export const oneTimeCodes = pgTable('one_time_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  purpose: text('purpose').$type<'sms' | 'activate' | 'reset'>().notNull(),
  subject: text('subject').notNull(),
  codeHash: text('code_hash').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
  usedAt: ts('used_at'),
});

export const authThrottle = pgTable('auth_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  firstFailureAt: ts('first_failure_at').notNull(),
  blockedUntil: ts('blocked_until'),
});

export const auditLog = pgTable('audit_log', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  ts: ts('ts').notNull().defaultNow(),
  userId: uuid('user_id'),
  username: text('username'),
  action: text('action').notNull(),
  targetType: text('target_type'),
  targetId: text('target_id'),
  liftId: uuid('lift_id'),
  ip: text('ip'),
  result: text('result').notNull(),
  detail: jsonb('detail').$type<Record<string, unknown>>().notNull(),
});

export interface LiftLocation {
  address?: string;
  site?: string;
  latitude?: number;
  longitude?: number;
  contact?: string;
  notes?: string;
}

export const lifts = pgTable('lifts', {
  id: uuid('id').primaryKey().defaultRandom(),
  deviceNo: text('device_no'),
  alias: text('alias').notNull().default(''),
  kind: text('kind').notNull(),
  floors: integer('floors').notNull(),
  firmware: text('firmware').notNull().default(''),
  controllerSerial: text('controller_serial'),
  manufacturerOrgId: uuid('manufacturer_org_id').notNull(),
  operatorOrgId: uuid('operator_org_id'),
  location: jsonb('location').$type<LiftLocation>().notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
