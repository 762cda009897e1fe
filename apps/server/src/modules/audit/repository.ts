import type { AuditAction } from '@liftlink/protocol';
import type { Database } from '../../db/client.ts';

export interface AuditEntry {
  /** One of the audited actions of protocol's table, which names and summarizes it in every language. */
  action: AuditAction;
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
  await database.sql.query(
    `insert into audit_log (action, result, user_id, username, target_type, target_id, lift_id, ip, detail) values ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
    [entry.action, entry.result, entry.userId ?? null, entry.username ?? null, entry.targetType ?? null, entry.targetId ?? null, entry.liftId ?? null, entry.ip ?? null, JSON.stringify(entry.detail ?? {})],
  );
}
