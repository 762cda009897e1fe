import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX, PASSWORD_MIN } from '@liftlink/protocol';
import { AppError } from './errors.ts';

/**
 * argon2id with the OWASP / ASVS v4 (2.4.4) minimum parameters: 19 MiB memory, 2 passes,
 * 1 lane. Passwords arrive in clear over TLS and are hashed only here, so the hash cannot
 * be replayed as a password (a hash computed in the browser would become the password).
 */
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A valid hash of a random value, verified against when the user does not exist, so timing does not reveal accounts. */
let dummyHash: Promise<string> | undefined;
export function dummyVerify(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('not-a-real-password-' + Math.random());
  return dummyHash.then((h) => verifyPassword(h, password));
}

/** The zxcvbn-ts list of about 49,000 most common passwords (maintained upstream). */
const COMMON = new Set((dictionary['passwords-common']).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

/** Server-side rules for a new password (spec section 5), whatever the browser checked. */
export function assertAcceptablePassword(password: string, username?: string): void {
  if (password.length < PASSWORD_MIN) throw new AppError('auth.passwordTooShort');
  if (password.length > PASSWORD_MAX) throw new AppError('auth.passwordTooLong');
  if (isCommonPassword(password) || (username && password.toLowerCase() === username.toLowerCase())) {
    throw new AppError('auth.passwordCommon');
  }
}
