import type { SqlExecutor } from '../../db/client.ts';
import { sha256 } from '../../lib/crypto.ts';

export type CodePurpose = 'sms' | 'activate' | 'reset';
/** A code is burnt after this many wrong guesses, so six digits cannot be walked. */
export const MAX_CODE_ATTEMPTS = 5;

export async function issueCode(sql: SqlExecutor, purpose: CodePurpose, subject: string, code: string, validMs: number): Promise<void> {
  // A new code replaces the older ones of the same purpose and subject.
  await sql.query(`update one_time_codes set used_at = now() where purpose = $1 and subject = $2 and used_at is null`, [purpose, subject]);
  await sql.query(
    `insert into one_time_codes (purpose, subject, code_hash, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))`,
    [purpose, subject, sha256(code), validMs],
  );
}

/** Milliseconds since the last code for this subject was issued, or null. */
export async function lastIssuedAgoMs(sql: SqlExecutor, purpose: CodePurpose, subject: string): Promise<number | null> {
  const [row] = await sql.query<{ ago: number }>(
    `select extract(epoch from now() - created_at) * 1000 as ago from one_time_codes where purpose = $1 and subject = $2 order by created_at desc limit 1`,
    [purpose, subject],
  );
  return row ? Number(row.ago) : null;
}

/** Consumes a code sent to a subject (SMS): single use, counted wrong attempts. */
export async function consumeSubjectCode(sql: SqlExecutor, purpose: CodePurpose, subject: string, code: string): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string; code_hash: string }>(
      `select id, code_hash from one_time_codes where purpose = $1 and subject = $2 and used_at is null and expires_at > now() and attempts < $3
        order by created_at desc limit 1 for update`,
      [purpose, subject, MAX_CODE_ATTEMPTS],
    );
    if (!row) return false;
    if (row.code_hash !== sha256(code)) {
      await tx.query('update one_time_codes set attempts = attempts + 1 where id = $1', [row.id]);
      return false;
    }
    await tx.query('update one_time_codes set used_at = now() where id = $1', [row.id]);
    return true;
  });
}

/** Consumes a link token (activation, reset) and returns its subject, or null. */
export async function consumeToken(sql: SqlExecutor, purpose: CodePurpose, token: string): Promise<string | null> {
  const [row] = await sql.query<{ subject: string }>(
    `update one_time_codes set used_at = now() where purpose = $1 and code_hash = $2 and used_at is null and expires_at > now() returning subject`,
    [purpose, sha256(token)],
  );
  return row?.subject ?? null;
}
