import type { Action, Permission, PermissionCheck, PermissionId } from '@liftlink/protocol';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { AuditEntry } from './modules/audit/repository.ts';
import type { Mailer, SmsSender } from './plugins/messaging.ts';

/** Who is calling: resolved once per request from the Access-Token header or cookie. */
export interface AuthContext {
  sessionId: string;
  userId: string;
  username: string;
  /** The user's language (zh-CN, en-US, ru-RU) for texts in answers. */
  language: string;
  orgId: string | null;
  orgKind: 'manufacturer' | 'operator' | null;
  roleType: string;
  permissions: Permission[];
  viaCookie: boolean;
}

/** What a route needs: nobody, any signed-in user, or one `permissionId.action`. */
export type RouteAccess = 'public' | 'authenticated' | PermissionCheck;

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    audit(entry: AuditEntry): Promise<void>;
    mailer: Mailer;
    sms: SmsSender;
    /** Health checks by name; plugins add theirs (db, broker). */
    healthChecks: Map<string, () => Promise<void>>;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export function can(auth: AuthContext | null, permissionId: PermissionId, action: Action): boolean {
  return !!auth?.permissions.some((p) => p.permissionId === permissionId && p.actions.includes(action));
}
