import { test, expect, asAdmin, signIn, testOrgId, uniqueName } from './fixtures.ts';

/** A user of a custom role holding exactly `permissions`, created through the admin API. */
async function userWithRole(permissions: { permissionId: string; actions: string[] }[]) {
  const api = await asAdmin();
  const role = await api.call<{ id: string }>('POST', '/auth/access/system/roles/create', {
    name: uniqueName('role'),
    permissions,
  });
  expect(role.status, JSON.stringify(role)).toBe(200);
  const username = uniqueName('land');
  const password = 'Tr1cky-Passw0rd-e2e';
  const user = await api.call<{ id: string }>('POST', '/auth/access/system/users/create', {
    username,
    name: 'E2E landing',
    password,
    roleId: role.result.id,
    // A member of an organization: one without awaits it and lands on the join page (invites.spec.ts).
    orgId: await testOrgId(),
  });
  expect(user.status, JSON.stringify(user)).toBe(200);
  return { username, password, roleId: role.result.id };
}

test('a user without the dashboard lands on the first page of their menu, not on a 403', async ({
  page,
}) => {
  const user = await userWithRole([{ permissionId: 'lift', actions: ['query', 'get'] }]);
  await signIn(page, user.username, user.password);
  await expect(page).toHaveURL(/\/lift\/list$/);
  await expect(page.getByTestId('side-menu').getByText('Lift list')).toBeVisible();
  await expect(page.locator('.ant-result-403')).toHaveCount(0);
  // The welcome follows a successful sign-in.
  await expect(page.locator('.ant-notification-notice').getByText(/welcome back/)).toBeVisible();

  // The login page of a signed-in user leads to the same first page.
  await page.goto('/user/login');
  await expect(page).toHaveURL(/\/lift\/list$/);
});

test('a redirect target wins when the user may see it', async ({ page }) => {
  const user = await userWithRole([
    { permissionId: 'lift', actions: ['query', 'get'] },
    { permissionId: 'alert', actions: ['query'] },
  ]);
  await signIn(page, user.username, user.password, '/user/login?redirect=%2Flift%2Falerts');
  await expect(page).toHaveURL(/\/lift\/alerts$/);
});

test('a redirect target the user may not see yields to their first page', async ({ page }) => {
  const user = await userWithRole([{ permissionId: 'lift', actions: ['query', 'get'] }]);
  await signIn(page, user.username, user.password, '/user/login?redirect=%2Fsystem%2Fusers');
  await expect(page).toHaveURL(/\/lift\/list$/);
  await expect(page.getByTestId('side-menu').getByText('Lift list')).toBeVisible();
  // No tab was opened for the refused target: nothing of it lingers, not even hidden.
  await expect(page.getByTestId('multi-tab').getByText('No access')).toHaveCount(0);
  await expect(page.locator('.ant-result-403')).toHaveCount(0);
  // Typed by hand afterwards, the same address still shows the 403 page.
  await page.goto('/system/users');
  await expect(page.locator('.ant-result-403')).toBeVisible();
});

test('when the user info fails, the one required notice shows: no welcome, no Forbidden', async ({
  page,
}) => {
  // A role without any permission: the server refuses the user info ('roles must be a non-null array').
  const user = await userWithRole([]);
  await signIn(page, user.username, user.password);
  const notices = page.locator('.ant-notification-notice');
  await expect(notices.getByText('Request for user info failed, please retry')).toBeVisible();
  await expect(page).toHaveURL(/\/user\/login/);
  await expect(notices).toHaveCount(1);
  await expect(page.getByText(/welcome back/)).toHaveCount(0);
  await expect(page.getByText('Forbidden', { exact: true })).toHaveCount(0);
});
