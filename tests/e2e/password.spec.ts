import { test, expect, closeWelcome, createUser, signIn } from './fixtures.ts';

test('change password: each validation message, server message, reset on open, closes on success', async ({
  page,
}) => {
  const user = await createUser('viewer');
  await signIn(page, user.username, user.password);
  await expect(page.getByTestId('greeting')).toBeVisible();
  await closeWelcome(page);
  const dialog = page.getByTestId('change-password-modal');
  const open = async () => {
    await page.getByTestId('avatar-menu').click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    await expect(dialog.getByTestId('old-password')).toBeVisible();
  };
  const errors = () => dialog.locator('.ant-form-item-explain-error').allTextContents();

  await open();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(errors)
    .toEqual(['Input cannot be empty', 'Input cannot be empty', 'Input cannot be empty']);

  await dialog.getByTestId('old-password').fill('whatever');
  await dialog.getByTestId('new-password').fill('short');
  await dialog.getByTestId('confirm-password').fill('different');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect
    .poll(errors)
    .toEqual([
      'Password is shorter than 8, please re-enter',
      'Passwords entered twice do not match',
    ]);

  // Cancel closes; opening again shows empty fields.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.locator('.ant-modal')).toBeHidden();
  await open();
  await expect(dialog.getByTestId('old-password')).toHaveValue('');
  await expect(dialog.getByTestId('new-password')).toHaveValue('');

  // The server's answer is shown: wrong old password.
  const next = 'Quiet-Meadow-Falcon-77';
  await dialog.getByTestId('old-password').fill('not-my-password');
  await dialog.getByTestId('new-password').fill(next);
  await dialog.getByTestId('confirm-password').fill(next);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.locator('.ant-message-notice').filter({ hasText: 'The old password is wrong' }),
  ).toBeVisible();
  await expect(dialog.locator('.ant-form-item-explain-error')).toHaveText(
    'The old password is wrong',
  );

  await dialog.getByTestId('old-password').fill(user.password);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.locator('.ant-message-notice').filter({ hasText: 'The password has been changed' }),
  ).toBeVisible();
  await expect(dialog.locator('.ant-modal')).toBeHidden();

  // The new password signs in.
  await page.getByTestId('avatar-menu').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await signIn(page, user.username, next);
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
});
