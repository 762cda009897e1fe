import { test, expect, ADMIN, asAdmin, createUser, signIn } from './fixtures.ts';

test.use({ uiLanguage: null });

test('zh-CN by default; switching language changes texts, antd and the stored choice', async ({
  page,
}) => {
  await page.goto('/user/login');
  await expect(page.getByTestId('login-submit')).toHaveText(/登\s*录/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  await page.getByTestId('language-switch').getByRole('button', { name: 'Русский' }).click();
  await expect(page.getByTestId('login-submit')).toHaveText('Войти');
  await expect(page.getByRole('tab', { name: 'По номеру телефона' })).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('login-submit')).toHaveText('Войти');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru-RU');

  const user = await createUser('operator');
  await signIn(page, user.username, user.password);
  await expect(page.getByTestId('greeting')).toContainText('Хорошего дня');
  // antd's own texts follow: the pagination of a table, the OK of a confirmation.
  await page.getByTestId('avatar-menu').click();
  await page.getByRole('menuitem', { name: 'Выйти' }).click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('Вы уверены, что хотите выйти?');
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Отмена' }).click();

  // Switch in the shell: English everywhere, and the profile keeps it.
  await page.getByTestId('language-select').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByTestId('greeting')).toContainText('Have a good day');
  await expect
    .poll(async () => {
      const admin = await asAdmin();
      const users = await admin.call<{ list: { username: string; language: string }[] }>(
        'GET',
        `/auth/access/system/users?keyword=${user.username}`,
      );
      return users.result.list[0]?.language;
    })
    .toBe('en-US');
});

test('antd components are translated (Russian pagination and empty table)', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('liftlink.language', 'ru-RU'));
  await signIn(page, ADMIN.username, ADMIN.password);
  // Signed in (the token is kept) before the next page load, which would cut the call short.
  await expect(page.getByTestId('greeting')).toBeVisible();
  await page.goto('/system/users');
  await expect(page.locator('.ant-pagination')).toContainText('Всего');
  await expect(
    page
      .locator('.ant-select-content, .ant-select-selection-item')
      .filter({ hasText: '/ стр.' })
      .first(),
  ).toBeVisible();
  await page.getByTestId('user-search').locator('input').fill('no-such-user-anywhere');
  await page.getByTestId('user-search').locator('input').press('Enter');
  await expect(page.locator('.ant-empty-description')).toHaveText('Нет данных');
});
