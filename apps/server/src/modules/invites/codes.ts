import { randomInt } from 'node:crypto';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, INVITE_PREFIX_LENGTH } from '@liftlink/protocol';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * A new invite code: 10 characters drawn uniformly from 32 (50 bits), normalised (upper
 * case, no dashes). Only its hash is stored; wrong guesses count in the sign-in throttle.
 */
export function newInviteCode(): { code: string; hash: string; prefix: string } {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  return { code, hash: inviteHash(code), prefix: code.slice(0, INVITE_PREFIX_LENGTH) };
}

/** The stored hash of a normalised code. */
export function inviteHash(normalizedCode: string): string {
  return sha256(`invite:${normalizedCode}`);
}

/** The field error of a code that is wrong, expired, used up or revoked (one answer for all). */
export function inviteInvalid(field: string): AppError {
  return new AppError('validation.failed', { issues: [{ path: field, message: 'validation.inviteCodeInvalid' }] });
}

/** What an audit entry keeps of a redeemed code: which one, for which organization and role (never the code). */
export function inviteDetail(i: { id: string; prefix: string; orgId: string; orgName: string; roleId: string; roleName: string }) {
  return { id: i.id, prefix: i.prefix, orgId: i.orgId, orgName: i.orgName, roleId: i.roleId, roleName: i.roleName };
}
