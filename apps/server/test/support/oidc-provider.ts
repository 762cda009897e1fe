import type { Server } from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from './ports.ts';

/** An account of the test identity provider; its login (in the provider's form) is its subject. */
export interface ProviderAccount {
  email: string;
  emailVerified: boolean;
  name?: string;
}

export interface OidcProviderProcess {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces an account while the provider runs. */
  accounts: Map<string, ProviderAccount>;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the certified `oidc-provider` package) on a free loopback
 * port, with one confidential client for `redirectUri` (client_secret_basic, code flow) and
 * the package's development login form: any password, the login names the account. Consent
 * is granted to the client beforehand, as for a first-party application.
 */
export async function startOidcProvider(opts: {
  redirectUri: string | string[];
  accounts?: Record<string, ProviderAccount>;
  clientId?: string;
  clientSecret?: string;
  /** A port chosen beforehand (freePort), when the client's configuration must name the issuer first. */
  port?: number;
}): Promise<OidcProviderProcess> {
  const port = opts.port ?? (await freePort());
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = opts.clientId ?? 'liftlink';
  const clientSecret = opts.clientSecret ?? 'liftlink-test-secret-0123456789';
  const accounts = new Map(Object.entries(opts.accounts ?? {}));
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: Array.isArray(opts.redirectUri) ? opts.redirectUri : [opts.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['liftlink-test-provider-cookie-key'] },
    ttl: {
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    findAccount: (_ctx, id) => {
      const account = accounts.get(id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: account.email,
          email_verified: account.emailVerified,
          ...(account.name ? { name: account.name } : {}),
        }),
      };
    },
    // The client is first-party: its grant exists before the first sign-in (no consent page).
    loadExistingGrant: async (ctx) => {
      const existing = ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (existing) return ctx.oidc.provider.Grant.find(existing);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = provider.listen(port, '127.0.0.1', () => resolve(s)).once('error', reject);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Plays the browser at the provider with fetch: follows the authorization address to the
 * development login form, submits `login`, and returns the address the provider sends the
 * browser back to (the client's redirect URI with code and state).
 */
export async function completeProviderLogin(authorizationUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  let url = new URL(authorizationUrl);
  const origin = url.origin;
  let submitted = false;
  for (let hop = 0; hop < 10; hop++) {
    if (url.origin !== origin) return url;
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookie() } });
    keep(res);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url);
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || submitted)
      throw new Error(`the provider answered ${res.status}: ${html.slice(0, 300)}`);
    submitted = true;
    const post = await fetch(new URL(action.replace(/&amp;/g, '&'), url), {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
    });
    keep(post);
    if (post.status < 300 || post.status >= 400)
      throw new Error(
        `the login form answered ${post.status}: ${(await post.text()).slice(0, 300)}`,
      );
    url = new URL(post.headers.get('location')!, url);
  }
  throw new Error('too many redirects at the provider');
}
