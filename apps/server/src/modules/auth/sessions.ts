import { TOKEN_LIFETIME_MS, type SessionView } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { newToken, sha256 } from '../../lib/crypto.ts';

export async function createSession(sql: SqlExecutor, userId: string, ip: string, userAgent: string | undefined): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_MS);
  await sql.query(`insert into sessions (user_id, token_hash, expires_at, ip, user_agent) values ($1, $2, $3, $4, $5)`, [
    userId,
    sha256(token),
    expiresAt,
    ip,
    userAgent?.slice(0, 300) ?? null,
  ]);
  return { token, expiresAt };
}

export async function revokeSession(sql: SqlExecutor, sessionId: string): Promise<void> {
  await sql.query('update sessions set revoked_at = now() where id = $1 and revoked_at is null', [sessionId]);
}

/** Ends every session of a user, or every one but `keep`. */
export async function revokeUserSessions(sql: SqlExecutor, userId: string, keep?: string): Promise<number> {
  const rows = await sql.query(
    `update sessions set revoked_at = now() where user_id = $1 and revoked_at is null and ($2::uuid is null or id <> $2::uuid) returning id`,
    [userId, keep ?? null],
  );
  return rows.length;
}

/** A user's live sessions, the last used first; `current` marks the one asking. */
export async function liveSessions(sql: SqlExecutor, userId: string, currentSessionId: string): Promise<SessionView[]> {
  const rows = await sql.query<{ id: string; created_at: Date; last_seen_at: Date; expires_at: Date; ip: string | null; user_agent: string | null }>(
    `select id, created_at, last_seen_at, expires_at, ip, user_agent from sessions
      where user_id = $1 and revoked_at is null and expires_at > now() order by last_seen_at desc`,
    [userId],
  );
  return rows.map((r) => ({
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
    ip: r.ip,
    userAgent: r.user_agent,
    current: r.id === currentSessionId,
  }));
}

/** Whether the session is the user's and not signed out. */
export async function isOpenSessionOf(sql: SqlExecutor, sessionId: string, userId: string): Promise<boolean> {
  const rows = await sql.query(`select 1 from sessions where id = $1 and user_id = $2 and revoked_at is null`, [sessionId, userId]);
  return rows.length > 0;
}
