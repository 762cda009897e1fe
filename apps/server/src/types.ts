import type { Permission, PermissionCheck } from '@liftlink/protocol';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Grant } from './modules/access/policy.ts';
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
  /** Informational (shown in user info); grants nothing — privileges come from `permissions`. */
  roleType: string;
  permissions: Permission[];
  viaCookie: boolean;
  /** The grant the route was admitted under (its declared `permissionId.action` and scope). */
  grant?: Grant;
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
