import type { Page, Request } from '@playwright/test';
import { ADMIN, expect, signIn, test } from './fixtures.ts';

const CSRF_COOKIE = 'XSRF-TOKEN';

/** The documents the page loads and its calls to GET /auth/Hi, as the browser sends them. */
function watch(page: Page): { documents: string[]; hi: string[] } {
  const seen = { documents: [] as string[], hi: [] as string[] };
  page.on('request', (request: Request) => {
    if (request.resourceType() === 'document' && request.frame() === page.mainFrame())
      seen.documents.push(request.url());
    if (new URL(request.url()).pathname === '/auth/Hi') seen.hi.push(request.url());
  });
  return seen;
}

async function csrfCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === CSRF_COOKIE)?.value;
}

test('a first visit loads the page once: the CSRF cookie comes with it, no /auth/Hi, and signing in works', async ({
  page,
}) => {
  expect(await page.context().cookies()).toEqual([]);
  const seen = watch(page);
  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  await expect(page.getByTestId('greeting')).toBeVisible();
  expect(seen.documents).toHaveLength(1);
  expect(seen.hi).toEqual([]);
  expect(await csrfCookie(page)).toMatch(/^[\w-]{16,}$/);
});

test('a page whose cookie was lost signs in through GET /auth/Hi', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/user/login');
  await page.getByTestId('login-form').waitFor();
  // The cookie is gone (the browser dropped it, or the user cleared it) while the page stays open.
  await page.context().clearCookies({ name: CSRF_COOKIE });
  await page.locator('#username').fill(ADMIN.username);
  await page.locator('#password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard\//);
  await expect(page.getByTestId('greeting')).toBeVisible();
  expect(seen.hi).toHaveLength(1);
  expect(seen.documents).toHaveLength(1);
  expect(await csrfCookie(page)).toMatch(/^[\w-]{16,}$/);
});

test('a page that arrives without the cookie gets it through GET /auth/Hi and one reload, then signs in', async ({
  page,
}) => {
  // A cache in front of the server that drops Set-Cookie from pages: the HTML comes without the cookie.
  await page.route(
    (url) => !url.pathname.startsWith('/auth/') && !url.pathname.startsWith('/assets/'),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      // Fetched outside the browser, so that its Set-Cookie never reaches the browser's jar.
      const response = await fetch(route.request().url(), { headers: await route.request().allHeaders() });
      const headers = Object.fromEntries(
        [...response.headers].filter(([name]) => !['set-cookie', 'content-encoding', 'content-length'].includes(name)),
      );
      await route.fulfill({ status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) });
    },
  );
  const seen = watch(page);
  await page.goto('/user/login');
  await page.getByTestId('login-form').waitFor();
  expect(seen.hi).toHaveLength(1);
  expect(seen.documents).toHaveLength(2);
  expect(await csrfCookie(page)).toMatch(/^[\w-]{16,}$/);
  await page.locator('#username').fill(ADMIN.username);
  await page.locator('#password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard\//);
  await expect(page.getByTestId('greeting')).toBeVisible();
});
