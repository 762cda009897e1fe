import { describe, expect, it } from 'vitest';
import { formatInviteCode, inviteCodeSchema, normalizeInviteCode } from './invite-code.ts';
import { registerSchema } from './auth.ts';

describe('invite codes as typed', () => {
  it('ignores case, spaces and dashes', () => {
    expect(inviteCodeSchema.parse(' k7qm-3xpa 9d ')).toBe('K7QM3XPA9D');
    expect(normalizeInviteCode('k7qm 3xpa-9d')).toBe('K7QM3XPA9D');
    expect(formatInviteCode('k7qm3xpa9d')).toBe('K7QM-3XPA-9D');
  });

  it('refuses a code of the wrong length or with look-alike characters (0, O, 1, I)', () => {
    for (const bad of ['K7QM-3XPA', 'K7QM-3XPA-9D7', 'K7QM-3XPA-0D', 'K7QM-3XPA-OD', 'K7QM-3XPA-1D', 'K7QM-3XPA-ID']) {
      const result = inviteCodeSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('validation.inviteCode');
    }
  });

  it('is optional at registration, and checked when given', () => {
    const form = { email: 'a@example.test', username: 'anna', password: 'Strong-Pass-42', mobile: '+79161234567', captcha: '123456' };
    expect(registerSchema.safeParse(form).success).toBe(true);
    expect(registerSchema.parse({ ...form, inviteCode: 'k7qm-3xpa-9d' }).inviteCode).toBe('K7QM3XPA9D');
    expect(registerSchema.safeParse({ ...form, inviteCode: 'nope' }).error?.issues[0]).toMatchObject({ path: ['inviteCode'], message: 'validation.inviteCode' });
  });
});
