import * as oidc from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import type { OidcProviderConfig } from '../../../config.ts';

/** Seconds a call to the provider (discovery, token, userinfo) may take. */
const PROVIDER_TIMEOUT_S = 10;

/** Why a sign-in did not come back from the provider as an account: the login page's `ssoError`. */
export class OidcRefusal extends Error {
  constructor(readonly code: string, readonly detail?: string) {
    super(code);
  }
}

export interface ProviderAccount {
  /** The issuer as the provider names itself (discovery), with `subject` the account's key. */
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/**
 * One provider: its metadata is discovered from the issuer URL at the first sign-in and
 * kept; a failed discovery is tried again at the next one.
 */
export class OidcClient {
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(readonly provider: OidcProviderConfig, private readonly publicUrl: string, private readonly log: FastifyBaseLogger) {}

  get redirectUri(): string {
    return `${this.publicUrl.replace(/\/$/, '')}/auth/oidc/${this.provider.id}/callback`;
  }

  private config(): Promise<oidc.Configuration> {
    this.configuration ??= oidc
      .discovery(new URL(this.provider.issuer), this.provider.clientId, { redirect_uris: [this.redirectUri] }, oidc.ClientSecretBasic(this.provider.clientSecret), {
        // Only a loopback issuer may be plain http (config.ts refuses others).
        ...(new URL(this.provider.issuer).protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : {}),
        timeout: PROVIDER_TIMEOUT_S,
      })
      .then((configuration) => {
        configuration.timeout = PROVIDER_TIMEOUT_S;
        return configuration;
      })
      .catch((err: unknown) => {
        this.configuration = null;
        this.log.error({ provider: this.provider.id, issuer: this.provider.issuer, err: describe(err) }, 'OpenID Connect discovery failed');
        throw new OidcRefusal('providerUnavailable');
      });
    return this.configuration;
  }

  /** The provider's authorization address for a code flow with PKCE (S256), state and nonce. */
  async authorizationUrl(checks: { state: string; nonce: string; codeVerifier: string }): Promise<URL> {
    const config = await this.config();
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Redeems the code of the callback address (`currentUrl`: its query as the provider sent
   * it) against state, PKCE verifier and nonce; checks the ID token and reads e-mail and
   * name from it or, when it lacks them, from the userinfo endpoint.
   */
  async redeem(currentUrl: URL, checks: { state: string; nonce: string; codeVerifier: string }): Promise<ProviderAccount> {
    const config = await this.config();
    try {
      const tokens = await oidc.authorizationCodeGrant(config, currentUrl, { pkceCodeVerifier: checks.codeVerifier, expectedState: checks.state, expectedNonce: checks.nonce, idTokenExpected: true });
      const claims = tokens.claims()!;
      let info: Record<string, unknown> = claims;
      if (typeof claims.email !== 'string') info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      return {
        issuer: claims.iss,
        subject: claims.sub,
        email: typeof info.email === 'string' ? info.email.trim() : null,
        emailVerified: info.email_verified === true,
        name: typeof info.name === 'string' && info.name.trim() ? info.name.trim().slice(0, 100) : null,
      };
    } catch (err) {
      // The error's name and code only: never a token, a code or a response body in the log.
      this.log.warn({ provider: this.provider.id, err: describe(err) }, 'OpenID Connect sign-in refused');
      throw new OidcRefusal('providerFailed', err instanceof oidc.AuthorizationResponseError ? err.error : undefined);
    }
  }
}

function describe(err: unknown): { name: string; code?: string } {
  if (!(err instanceof Error)) return { name: typeof err };
  const code = (err as { code?: unknown }).code;
  return { name: err.name, ...(typeof code === 'string' ? { code } : {}) };
}
