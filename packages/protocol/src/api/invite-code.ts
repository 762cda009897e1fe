import { z } from 'zod';

/**
 * Organization invite codes (docs/product.md, "Invite codes"): 10 characters from an
 * alphabet without look-alikes (no 0/O, 1/I), shown grouped as `K7QM-3XPA-9D`. Typed codes
 * are normalised first: case, spaces and dashes do not matter.
 */
export const INVITE_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const INVITE_CODE_LENGTH = 10;
/** How many characters of a code the list shows once it was created. */
export const INVITE_PREFIX_LENGTH = 4;

/** Upper case, without spaces and dashes. */
export function normalizeInviteCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** `K7QM3XPA9D` as `K7QM-3XPA-9D`. */
export function formatInviteCode(code: string): string {
  return normalizeInviteCode(code).replace(/(.{4})(?=.)/g, '$1-');
}

const CODE_PATTERN = new RegExp(`^[${INVITE_CODE_ALPHABET}]{${INVITE_CODE_LENGTH}}$`);

/** A typed invite code, normalised; a code of the wrong shape reads `validation.inviteCode`. */
export const inviteCodeSchema = z
  .string({ error: 'validation.required' })
  .max(40, 'validation.inviteCode')
  .transform(normalizeInviteCode)
  .pipe(z.string().min(1, 'validation.required').regex(CODE_PATTERN, 'validation.inviteCode'));
