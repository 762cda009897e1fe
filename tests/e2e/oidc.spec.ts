import { freePort } from '../../apps/server/test/support/ports.ts';
import {
  startOidcProvider,
  type OidcProviderProcess,
} from '../../apps/server/test/support/oidc-provider.ts';
import type { Page } from '@playwright/test';
import { test as base, ADMIN, expect, startOwnServer } from './fixtures.ts';
import { LiftApi } from './lift-fixture.ts';

/**
 * Sign-in with another provider, end to end: a LiftLink server of its own configured with a
 * real OpenID Connect provider (oidc-provider and its login form), in Chromium.
 */
interface SsoWorld {
  url: string;
  provider: OidcProviderProcess;
}

const test = base.extend<object, { sso: SsoWorld }>({
  sso: [
    // Playwright's fixture signature needs the (empty) destructuring.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const providerPort = await freePort();
      const server = await startOwnServer({
        OIDC_PROVIDERS: 'corp',
        OIDC_CORP_ISSUER: `http://127.0.0.1:${providerPort}`,
        OIDC_CORP_CLIENT_ID: 'liftlink-e2e',
        OIDC_CORP_CLIENT_SECRET: 'liftlink-e2e-secret-0123456789',
        OIDC_CORP_LABEL: 'Corp ID',
        OIDC_CORP_DOMAINS: 'example.com=E2E Operators:operator',
      });
      let provider: OidcProviderProcess | undefined;
      try {
        provider = await startOidcProvider({
          port: providerPort,
          redirectUri: `${server.url}/auth/oidc/corp/callback`,
          clientId: 'liftlink-e2e',
          clientSecret: 'liftlink-e2e-secret-0123456789',
          accounts: {
            'ann-sub': { email: 'ann@example.com', emailVerified: true, name: 'Ann Lee' },
            'bob-sub': { email: 'bob@elsewhere.org', emailVerified: true, name: 'Bob Roe' },
          },
        });
        const admin = await LiftApi.on(server.url, ADMIN.username, ADMIN.password);
        const org = await admin.call('POST', '/auth/access/system/orgs/create', {
          name: 'E2E Operators',
          kind: 'operator',
        });
        if (org.status !== 200) throw new Error(`organization: ${org.code}`);
        await use({ url: server.url, provider });
      } finally {
        await provider?.stop();
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ sso }, use) => use(sso.url),
});

/** The provider's development login form: the login names the account, any password. */
async function logInAtProvider(page: Page, issuer: string, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test.describe('sign in with another provider', () => {
  test('a user of a mapped domain signs in through the provider and lands in LiftLink with the mapped role', async ({
    page,
    sso,
  }) => {
    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
    await logInAtProvider(page, sso.provider.issuer, 'ann-sub');
    await expect(page).not.toHaveURL(/\/user\/login/);
    await expect(page.getByTestId('avatar-menu')).toContainText('Ann Lee');
    // The session is the web client's own, as after a password sign-in.
    const info = await page.evaluate(async () => {
      const stored = JSON.parse(
        localStorage.getItem('liftlink.token') ??
          sessionStorage.getItem('liftlink.token') ??
          'null',
      ) as { token: string } | null;
      const res = await fetch('/auth/access/info', {
        headers: { 'access-token': stored?.token ?? '' },
      });
      return (
        (await res.json()) as {
          result: {
            username: string;
            organization: { name: string } | null;
            role: { name: string };
          };
        }
      ).result;
    });
    expect({
      username: info.username,
      organization: info.organization?.name,
      role: info.role.name,
    }).toEqual({ username: 'ann', organization: 'E2E Operators', role: 'operator' });
  });

  test('a user of an unmapped domain comes back to the login page with the reason, in their language', async ({
    page,
    sso,
  }) => {
    await page.goto('/user/login');
    await page.getByRole('link', { name: 'Sign in with Corp ID' }).click();
    await logInAtProvider(page, sso.provider.issuer, 'bob-sub');
    await expect(page).toHaveURL(/\/user\/login\?ssoError=domainNotMapped$/);
    await expect(page.getByTestId('login-error')).toHaveText(
      'Your e-mail domain is not admitted to this system, please ask an administrator',
    );
    // The same refusal reads in Russian after a language switch.
    await page.evaluate(() => localStorage.setItem('liftlink.language', 'ru-RU'));
    await page.reload();
    await expect(page.getByTestId('login-error')).toHaveText(
      'Домен вашей почты не допущен в эту систему, обратитесь к администратору',
    );
  });
});
