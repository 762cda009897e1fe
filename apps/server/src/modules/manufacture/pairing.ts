import { randomInt } from 'node:crypto';
import { PAIRING_CODE_ALPHABET, PAIRING_CODE_TTL_MS, hasPermission, pairingCodeSchema, type PairingCode, type Permission } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { sha256 } from '../../lib/crypto.ts';

/** Unverified codes a user may hold at once; asking for another drops the oldest. */
const OPEN_CODES_PER_USER = 3;

/**
 * One-time pairing codes of the serial bridge. A signed-in user asks for one and types it
 * into the bridge; the bridge verifies it here once (so it pairs only with a page of a
 * user who holds the manufacture permission), then hands a token of its own to the page
 * that presents the same code. 8 symbols of 31 (about 40 bits), 10 minutes, one use, and
 * the verify endpoint is rate-limited, so guessing is hopeless.
 */
export async function createPairingCode(sql: SqlExecutor, user: { userId: string; username: string }): Promise<PairingCode> {
  const code = Array.from({ length: 8 }, () => PAIRING_CODE_ALPHABET[randomInt(PAIRING_CODE_ALPHABET.length)]).join('');
  const expiresAt = new Date(Date.now() + PAIRING_CODE_TTL_MS);
  await sql.transaction(async (tx) => {
    await tx.query(`delete from bridge_pairings where expires_at < now() - interval '1 day'`);
    await tx.query(
      `delete from bridge_pairings where id in (select id from bridge_pairings where user_id = $1 and verified_at is null order by created_at desc offset $2)`,
      [user.userId, OPEN_CODES_PER_USER - 1],
    );
    await tx.query(`insert into bridge_pairings (code_hash, user_id, username, expires_at) values ($1, $2, $3, $4)`, [sha256(code), user.userId, user.username, expiresAt]);
  });
  return { code, expiresAt: expiresAt.toISOString() };
}

/** Spends a code: the user it was issued to, or null when it is unknown, used or expired. */
export async function verifyPairingCode(sql: SqlExecutor, given: string, ip: string): Promise<{ userId: string; username: string } | null> {
  const parsed = pairingCodeSchema.safeParse(given);
  if (!parsed.success) return null;
  const [row] = await sql.query<{ user_id: string; username: string }>(
    `update bridge_pairings set verified_at = now(), verified_ip = $2
      where code_hash = $1 and verified_at is null and expires_at > now()
      returning user_id, username`,
    [sha256(parsed.data), ip],
  );
  if (!row) return null;
  // The user must still be active and still hold the manufacture permission.
  const [user] = await sql.query<{ status: string; permissions: Permission[] }>(
    `select u.status, r.permissions from users u join roles r on r.id = u.role_id where u.id = $1`,
    [row.user_id],
  );
  if (user?.status !== 'active' || !hasPermission(user.permissions, 'manufacture.query')) return null;
  return { userId: row.user_id, username: row.username };
}
