import { DEFAULT_LANGUAGE } from '@liftlink/protocol';
import type { FastifyInstance } from 'fastify';
import type { OidcProviderConfig } from '../../../config.ts';
import { newToken } from '../../../lib/crypto.ts';
import { hashPassword } from '../../../lib/passwords.ts';
import { findUserById, type UserRow } from '../../users/repository.ts';
import { roleIdByName } from '../../system/role-repository.ts';
import { OidcRefusal, type ProviderAccount } from './client.ts';
import { createLinkedUser, emailInUse, freeUsername, linkedUserId, markIdentityLogin, orgIdByName } from './repository.ts';

/**
 * The LiftLink user of a provider's account. A linked account is its user. An unknown one
 * gets a new active user only when the provider vouches for its e-mail (`email_verified`)
 * and the provider's OIDC_<ID>_DOMAINS maps the e-mail's domain to an organization and a
 * role; an e-mail a local account already has is never linked automatically (an
 * administrator decides). Anything else is refused and creates nothing.
 */
export async function userForAccount(app: FastifyInstance, provider: OidcProviderConfig, account: ProviderAccount, ip: string): Promise<UserRow> {
  const { sql } = app.database;
  const linked = await linkedUserId(sql, account.issuer, account.subject);
  if (linked) {
    await markIdentityLogin(sql, account.issuer, account.subject);
    return (await findUserById(sql, linked))!;
  }
  if (!account.email || !account.emailVerified) throw new OidcRefusal('emailNotVerified');
  const email = account.email.toLowerCase();
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const mapping = provider.domains.get(domain);
  if (!mapping) throw new OidcRefusal('domainNotMapped');
  if (await emailInUse(sql, email)) throw new OidcRefusal('localAccountExists');
  const orgId = await orgIdByName(sql, mapping.organization);
  const roleId = await roleIdByName(sql, mapping.role);
  if (!orgId || !roleId) {
    app.log.error(
      { provider: provider.id, domain },
      `${provider.domainsVariable}: ${!orgId ? `no organization is named "${mapping.organization}"` : `no role is named "${mapping.role}"`}; sign-ins of ${domain} are refused until it exists or the mapping changes`,
    );
    throw new OidcRefusal('notConfigured');
  }
  const passwordHash = await hashPassword(newToken()); // nobody knows it: this account signs in through its provider
  const username = await freeUsername(sql, usernameFrom(email));
  let userId: string;
  try {
    userId = await createLinkedUser(sql, { username, name: account.name ?? username, email, passwordHash, roleId, orgId, language: DEFAULT_LANGUAGE }, { issuer: account.issuer, subject: account.subject, provider: provider.id });
  } catch (err) {
    // Two first sign-ins of the same account at once: the other one created it.
    const other = await linkedUserId(sql, account.issuer, account.subject);
    if (!other) throw err;
    return (await findUserById(sql, other))!;
  }
  const user = { userId, username };
  await app.audit({ action: 'auth.oidcAccountCreated', result: 'ok', userId: user.userId, username: user.username, ip, detail: { provider: provider.id, organization: mapping.organization, role: mapping.role } });
  return (await findUserById(sql, user.userId))!;
}

/** A username from the e-mail's local part: the characters usernames allow, at most 56 (room for a number). */
export function usernameFrom(email: string): string {
  const local = email.slice(0, email.lastIndexOf('@')).replace(/[^\p{L}\p{N}._-]/gu, '').slice(0, 56);
  return local || 'user';
}
