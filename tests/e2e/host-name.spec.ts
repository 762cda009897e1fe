import type { Page } from '@playwright/test';
import config from '../../playwright.config.ts';
import { test, expect, ADMIN, serverUrl, signIn } from './fixtures.ts';

/**
 * A LAN trial as a new user makes it: the server reached by a host name that is not
 * localhost, over plain HTTP. Chromium resolves liftlink.test to the e2e server's address.
 */
test.use({
  launchOptions: {
    ...config.use?.launchOptions,
    args: [...(config.use?.launchOptions?.args ?? []), '--host-resolver-rules=MAP liftlink.test 127.0.0.1'],
  },
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = new URL(serverUrl());
    url.hostname = 'liftlink.test';
    await use(url.origin);
  },
});

/** Content-Security-Policy violations the page reports (a blocked script, style or socket). */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('over plain HTTP at http://liftlink.test:<port>: the page loads, sign-in works and the live socket connects', async ({ page, baseURL }) => {
  const origin = baseURL!;
  expect(origin).toMatch(/^http:\/\/liftlink\.test:\d+$/);
  const violations = await watchViolations(page);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const failed: string[] = [];
  // (A navigation may abort what the previous page still loaded: that is not a failure.)
  page.on('requestfailed', (r) => r.failure()?.errorText !== 'net::ERR_ABORTED' && failed.push(`${r.url()} ${r.failure()?.errorText}`));
  const live = page.waitForEvent('websocket', (ws) => ws.url().endsWith('/ws/live'));

  const response = await page.goto('/user/login');
  const headers = response!.headers();
  expect(headers['strict-transport-security']).toBeUndefined();
  expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  expect(headers['content-security-policy']).toContain("script-src 'self'");

  await signIn(page, ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(`${origin}/dashboard/workplace`);
  await expect(page.getByTestId('greeting')).toBeVisible();

  const socket = await live;
  expect(socket.url()).toBe(`ws://liftlink.test:${new URL(origin).port}/ws/live`);
  expect(socket.isClosed()).toBe(false);

  // Everything came from the address the user typed, over plain HTTP; nothing was blocked.
  expect(requested.length).toBeGreaterThan(3);
  for (const url of requested) expect(url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:'), url).toBe(true);
  expect(failed).toEqual([]);
  expect(await violations()).toEqual([]);
});
