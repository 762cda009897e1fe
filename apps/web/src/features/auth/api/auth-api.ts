import type { LoginRequest, LoginResult, OidcHandoffResult } from '@liftlink/protocol';
import { http } from '../../../lib/http.ts';

/** The public auth calls; every one shows its own errors (quiet). */
export const authApi = {
  login: (body: LoginRequest) =>
    http.post<LoginResult>('/auth/access/login', body, { quiet: true }),
  register: (body: {
    email: string;
    username: string;
    password: string;
    mobile: string;
    captcha: string;
    language?: string;
    inviteCode?: string;
  }) => http.post<unknown>('/auth/register', body, { quiet: true }),
  activate: (token: string) => http.post<unknown>('/auth/activate', { token }, { quiet: true }),
  forgePassword: (email: string) =>
    http.post<unknown>('/auth/forge-password', { email }, { quiet: true }),
  twoStep: (username: string) =>
    http.get<{ stepCode: boolean }>('/auth/2step-code', { username }, { quiet: true }),
  resetPassword: (token: string, password: string) =>
    http.post<unknown>('/auth/reset-password', { token, password }, { quiet: true }),
  /** Takes over the session a sign-in with another provider opened (the one-time code of `?sso=`). */
  oidcSession: (code: string) =>
    http.post<OidcHandoffResult>('/auth/oidc/session', { code }, { quiet: true }),
};
