import type { SqlExecutor } from '../../../db/client.ts';
import { sha256 } from '../../../lib/crypto.ts';

/** How long a sign-in may stay at the provider before its state is refused. */
export const OIDC_LOGIN_VALID_MS = 10 * 60_000;
/** How long the web client has to take over a finished sign-in. */
export const OIDC_HANDOFF_VALID_MS = 60_000;

export interface PendingLogin {
  provider: string;
  nonce: string;
  codeVerifier: string;
  redirect: string;
  remember: boolean;
}

export async function savePendingLogin(sql: SqlExecutor, state: string, browser: string, login: PendingLogin): Promise<void> {
  // Old rows go with each new one: a sign-in left at the provider is dead after OIDC_LOGIN_VALID_MS.
  await sql.query(`delete from oidc_logins where expires_at < now() - interval '1 hour'`);
  await sql.query(
    `insert into oidc_logins (state_hash, browser_hash, provider, nonce, code_verifier, redirect, remember, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, now() + make_interval(secs => $8::double precision / 1000))`,
    [sha256(state), sha256(browser), login.provider, login.nonce, login.codeVerifier, login.redirect, login.remember, OIDC_LOGIN_VALID_MS],
  );
}

/** Takes the sign-in of this state, provider and browser, once; null when there is none (used, expired, another browser). */
export async function takePendingLogin(sql: SqlExecutor, state: string, browser: string, provider: string): Promise<PendingLogin | null> {
  const [row] = await sql.query<{ provider: string; nonce: string; code_verifier: string; redirect: string; remember: boolean }>(
    `update oidc_logins set used_at = now()
      where state_hash = $1 and browser_hash = $2 and provider = $3 and used_at is null and expires_at > now()
      returning provider, nonce, code_verifier, redirect, remember`,
    [sha256(state), sha256(browser), provider],
  );
  return row ? { provider: row.provider, nonce: row.nonce, codeVerifier: row.code_verifier, redirect: row.redirect, remember: row.remember } : null;
}

/** The user linked to the provider's account, or null. */
export async function linkedUserId(sql: SqlExecutor, issuer: string, subject: string): Promise<string | null> {
  const [row] = await sql.query<{ user_id: string }>(`select user_id from oidc_identities where issuer = $1 and subject = $2`, [issuer, subject]);
  return row?.user_id ?? null;
}

/** A new active user and its link to the provider's account, in one statement (both or neither). */
export async function createLinkedUser(
  sql: SqlExecutor,
  u: { username: string; name: string; email: string; passwordHash: string; roleId: string; orgId: string; language: string },
  link: { issuer: string; subject: string; provider: string },
): Promise<string> {
  const [row] = await sql.query<{ user_id: string }>(
    `with created as (
       insert into users (username, name, email, password_hash, role_id, org_id, language, status)
       values ($1, $2, $3, $4, $5, $6, $7, 'active') returning id
     )
     insert into oidc_identities (issuer, subject, user_id, provider, email, last_login_at)
     select $8, $9, id, $10, $3, now() from created returning user_id`,
    [u.username, u.name, u.email, u.passwordHash, u.roleId, u.orgId, u.language, link.issuer, link.subject, link.provider],
  );
  return row!.user_id;
}

export async function markIdentityLogin(sql: SqlExecutor, issuer: string, subject: string): Promise<void> {
  await sql.query(`update oidc_identities set last_login_at = now() where issuer = $1 and subject = $2`, [issuer, subject]);
}

export async function orgIdByName(sql: SqlExecutor, name: string): Promise<string | null> {
  const [row] = await sql.query<{ id: string }>(`select id from organizations where name = $1`, [name]);
  return row?.id ?? null;
}

/** Whether a user has this e-mail address (any case). */
export async function emailInUse(sql: SqlExecutor, email: string): Promise<boolean> {
  const rows = await sql.query(`select 1 from users where lower(email) = lower($1)`, [email]);
  return rows.length > 0;
}

/** The first of `base`, `base2`, `base3`, ... no user has (usernames compare without case). */
export async function freeUsername(sql: SqlExecutor, base: string): Promise<string> {
  const rows = await sql.query<{ name: string }>(`select lower(username) as name from users where lower(username) like lower($1) || '%'`, [base.replace(/[\\%_]/g, (c) => `\\${c}`)]);
  const taken = new Set(rows.map((r) => r.name));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}${n}`.toLowerCase())) return `${base}${n}`;
}

export async function saveHandoff(sql: SqlExecutor, code: string, sessionId: string, remember: boolean): Promise<void> {
  await sql.query(`delete from oidc_handoffs where expires_at < now() - interval '1 hour'`);
  await sql.query(
    `insert into oidc_handoffs (code_hash, session_id, remember, expires_at) values ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))`,
    [sha256(code), sessionId, remember, OIDC_HANDOFF_VALID_MS],
  );
}

/** Takes the hand-over of this code, once, for the session the browser's cookie names. */
export async function takeHandoff(sql: SqlExecutor, code: string, sessionId: string): Promise<{ remember: boolean; expiresAt: Date } | null> {
  const [row] = await sql.query<{ remember: boolean; expires_at: Date }>(
    `update oidc_handoffs h set used_at = now() from sessions s
      where h.code_hash = $1 and h.session_id = $2 and s.id = h.session_id and h.used_at is null and h.expires_at > now()
      returning h.remember, s.expires_at`,
    [sha256(code), sessionId],
  );
  return row ? { remember: row.remember, expiresAt: new Date(row.expires_at) } : null;
}

/** The id of the session a token opens (just created by createSession). */
export async function sessionIdOfToken(sql: SqlExecutor, token: string): Promise<string> {
  const [row] = await sql.query<{ id: string }>(`select id from sessions where token_hash = $1`, [sha256(token)]);
  return row!.id;
}
