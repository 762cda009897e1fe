import { test, expect, ADMIN, signIn } from './fixtures.ts';

test('smoke: admin signs in and sees the workplace', async ({ page }) => {
  await signIn(page, ADMIN.username, ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard\/workplace/);
  await expect(page.getByTestId('greeting')).toBeVisible();
  await page.screenshot({ path: 'screenshots/smoke-workplace.png' });
});
