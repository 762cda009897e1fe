import type { Database } from '../../db/client.ts';
import { auditLog } from '../../db/schema.ts';

export interface AuditEntry {
  action: string;
  /** ok, denied, failed, or a command's final state. */
  result: string;
  userId?: string | null;
  username?: string | null;
  targetType?: string;
  targetId?: string;
  liftId?: string | null;
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/** Writes one audit row. Callers never pass secrets: passwords, tokens and codes stay out. */
export async function writeAudit(database: Database, entry: AuditEntry): Promise<void> {
  await database.db.insert(auditLog).values({
    action: entry.action,
    result: entry.result,
    userId: entry.userId ?? null,
    username: entry.username ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    liftId: entry.liftId ?? null,
    ip: entry.ip ?? null,
    detail: entry.detail ?? {},
  });
}
