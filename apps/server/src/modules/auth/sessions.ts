import { TOKEN_LIFETIME_MS } from '@liftlink/protocol';
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
