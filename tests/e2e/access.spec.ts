import { test, expect, ADMIN, createUser, signIn } from './fixtures.ts';

test('the administrator and a viewer see different menus and buttons; the server refuses the viewer', async ({
  browser,
  baseURL,
}) => {
  const viewer = await createUser('viewer');
  const adminPage = await browser.newPage({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.1' },
  });
  const viewerPage = await browser.newPage({
    baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.250.0.2' },
  });
  for (const page of [adminPage, viewerPage])
    await page.addInitScript(() => localStorage.setItem('liftlink.language', 'en-US'));

  await signIn(adminPage, ADMIN.username, ADMIN.password);
  await signIn(viewerPage, viewer.username, viewer.password);
  await expect(adminPage.getByTestId('greeting')).toBeVisible();
  await expect(viewerPage.getByTestId('greeting')).toBeVisible();

  // Menu: administration and equipment management only for the administrator.
  const adminMenu = adminPage.getByTestId('side-menu');
  const viewerMenu = viewerPage.getByTestId('side-menu');
  await expect(adminMenu.getByText('Administration')).toBeVisible();
  await expect(adminMenu.getByText('Equipment management')).toBeVisible();
  await expect(viewerMenu.getByText('Cloud interconnection')).toBeVisible();
  await expect(viewerMenu.getByText('Administration')).toHaveCount(0);
  await expect(viewerMenu.getByText('Equipment management')).toHaveCount(0);

  // A control guarded by `user.add` is absent for the viewer.
  await expect(adminPage.getByTestId('shortcut-add-user')).toBeVisible();
  await expect(viewerPage.getByTestId('shortcut-add-user')).toHaveCount(0);
  await expect(viewerPage.getByTestId('shortcut-provision')).toHaveCount(0);

  // The viewer typing the address gets the 403 page.
  await viewerPage.goto('/system/users');
  await expect(viewerPage.locator('.ant-result-403')).toBeVisible();
  await expect(viewerPage.getByText('Sorry, you are not allowed to see this page')).toBeVisible();

  // And the server refuses the viewer's call made by hand.
  const answer = await viewerPage.evaluate(async () => {
    const csrf =
      document.cookie
        .split('; ')
        .find((c) => c.startsWith('XSRF-TOKEN='))
        ?.split('=')[1] ?? '';
    const stored = JSON.parse(
      localStorage.getItem('liftlink.token') ?? sessionStorage.getItem('liftlink.token') ?? '{}',
    ) as { token?: string };
    const res = await fetch('/auth/access/system/users/create', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-xsrf-token': decodeURIComponent(csrf),
        'access-token': stored.token ?? '',
      },
      body: JSON.stringify({
        username: 'sneaky',
        name: 'Sneaky',
        password: 'Long-Enough-Pass-1',
        roleId: '00000000-0000-4000-8000-000000000000',
      }),
    });
    return { status: res.status, body: (await res.json()) as { code: string } };
  });
  expect(answer.status).toBe(403);
  expect(answer.body.code).toBe('forbidden');
  await adminPage.close();
  await viewerPage.close();
});
