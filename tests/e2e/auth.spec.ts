import { FORCED_LOGOUT_MS } from '@liftlink/protocol';
import {
  test,
  expect,
  ADMIN,
  asAdmin,
  closeWelcome,
  createUser,
  signIn,
  uniqueMobile,
  uniqueName,
  waitForMail,
  waitForSmsCode,
} from './fixtures.ts';

test.describe('sign-in', () => {
  test('account and password: greeting, workplace, name', async ({ page }) => {
    const user = await createUser('operator');
    await signIn(page, user.username, user.password);
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await expect(page.locator('.ant-notification-notice').getByText(/welcome back/)).toBeVisible();
    await expect(page.getByTestId('greeting')).toContainText('E2E operator');
    await expect(page.getByTestId('greeting')).toContainText(
      /Good (morning|day|afternoon|evening)/,
    );
  });

  test('wrong password shows the spec text', async ({ page }) => {
    const user = await createUser('viewer');
    await signIn(page, user.username, 'not-the-password');
    await expect(page.getByTestId('login-error')).toHaveText('Wrong account or password');
    await expect(page).toHaveURL(/\/user\/login/);
  });

  test('wrong password in Chinese', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('liftlink.language', 'zh-CN'));
    const user = await createUser('viewer');
    await signIn(page, user.username, 'not-the-password');
    await expect(page.getByTestId('login-error')).toHaveText('账户或密码错误');
  });

  test('mobile number and texted code, with the resend countdown', async ({ page }) => {
    const mobile = uniqueMobile();
    const user = await createUser('viewer', { mobile });
    await page.goto('/user/login');
    await page.getByRole('tab', { name: 'Mobile number' }).click();
    await page.getByTestId('get-captcha').click();
    await expect(page.getByRole('textbox', { name: 'Mobile number' })).toHaveAccessibleDescription(
      'Input cannot be empty',
    );
    await page.locator('#mobile').fill(mobile);
    await page.getByTestId('get-captcha').click();
    await expect(page.getByTestId('get-captcha')).toHaveText(/^\d+ s$/);
    await expect(page.getByTestId('get-captcha')).toBeDisabled();
    await page.locator('#captcha').fill('000000');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveText('Wrong verification code');
    const code = await waitForSmsCode(mobile);
    // A wrong code does not use the right one up.
    await page.locator('#captcha').fill(code);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await expect(page.getByTestId('greeting')).toContainText('E2E viewer');
    expect(user.username).toBeTruthy();
  });

  test('a visitor is sent to login with the full target and comes back to it', async ({ page }) => {
    await page.goto('/system/roles?tab=x#top');
    await expect(page).toHaveURL(/\/user\/login\?redirect=%2Fsystem%2Froles%3Ftab%3Dx%23top$/);
    await page.locator('#username').fill(ADMIN.username);
    await page.locator('#password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/system\/roles\?tab=x#top$/);
    await expect(page.getByTestId('role-create')).toBeVisible();
    // Signed in, the login page leads to the workplace; /user leads to the login page.
    await page.goto('/user/login');
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
  });

  test('public routes: /user and /qrcode redirect', async ({ page }) => {
    await page.goto('/user');
    await expect(page).toHaveURL(/\/user\/login$/);
    await page.goto('/qrcode?deviceNo=NOPE-1');
    await expect(page).toHaveURL(/\/qrcode\/qrcode\?deviceNo=NOPE-1$/);
  });

  test('logout asks first', async ({ page }) => {
    const user = await createUser('viewer');
    await signIn(page, user.username, user.password);
    await closeWelcome(page);
    await page.getByTestId('avatar-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    const dialog = page.locator('.ant-modal-confirm');
    await expect(dialog).toContainText('Are you sure you would like to logout?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await page.getByTestId('avatar-menu').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
    await expect(page).toHaveURL(/\/user\/login$/);
    // The session is over on the server too: the workplace needs a new sign-in.
    await page.goto('/dashboard/workplace');
    await expect(page).toHaveURL(/\/user\/login\?redirect=/);
  });

  test('a 401 logs out and reloads after 1.5 s', async ({ page }) => {
    const user = await createUser('viewer');
    await signIn(page, user.username, user.password);
    await expect(page.getByTestId('greeting')).toBeVisible();
    // The workplace is left first: one of its own calls meeting the 401 would log out a
    // page the test is about to leave, and the page opened next would find no session.
    await page.goto('about:blank');
    const admin = await asAdmin();
    const ended = await admin.call('POST', '/auth/access/system/users/end-sessions', {
      id: user.id,
    });
    expect(ended.status).toBe(200);
    // The notice shows for 1.5 s before the reload. A slow machine can let a polling
    // locator miss so short a window, so the page reports each notice as it appears.
    const notices: string[] = [];
    await page.exposeFunction('reportNotices', (text: string) => notices.push(text));
    await page.addInitScript(() => {
      let last = '';
      new MutationObserver(() => {
        const text = [...document.querySelectorAll('.ant-notification-notice')]
          .map((notice) => notice.textContent ?? '')
          .join('\n');
        if (text === last) return;
        last = text;
        (window as unknown as { reportNotices: (t: string) => void }).reportNotices(text);
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    // Opening a page asks for the user info again: that call now answers 401.
    // Only the navigation's start is awaited: the forced reload may come before 'load'.
    await page.goto('/lift/list', { waitUntil: 'commit' });
    await expect
      .poll(() =>
        notices.some(
          (text) =>
            text.includes('Unauthorized') && text.includes('Authorization verification failed'),
        ),
      )
      .toBe(true);
    await expect(page).toHaveURL(/\/user\/login\?redirect=/);
  });

  test('forced logout 8 hours after the user info loads (fake clock)', async ({ page }) => {
    await page.clock.install();
    // Time flows as usual (React needs its timers) until the test jumps ahead.
    await page.clock.resume();
    const user = await createUser('viewer');
    await signIn(page, user.username, user.password);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.clock.fastForward(FORCED_LOGOUT_MS - 60_000);
    await expect(page).toHaveURL(/\/dashboard\/workplace$/);
    await page.clock.fastForward(61_000);
    await expect(page).toHaveURL(/\/user\/login$/);
    await expect(
      page.locator('.ant-notification-notice').filter({ hasText: 'Session ended' }),
    ).toBeVisible();
  });
});

test('register, receive the activation mail, activate, sign in', async ({ page }) => {
  const username = uniqueName('reg');
  const email = `${username}@example.com`;
  const mobile = uniqueMobile();
  const password = 'Blue-Harbour-Lantern-42';
  await page.goto('/user/login');
  await page.getByTestId('register-link').click();
  await expect(page).toHaveURL(/\/user\/register$/);
  await page.getByTestId('register-submit').click();
  await expect(page.locator('.ant-form-item-explain-error').first()).toHaveText(
    'Input cannot be empty',
  );
  await page.locator('#email').fill('not-an-email');
  await page.locator('#username').fill(username);
  await page.locator('#password').fill('abc');
  await expect(page.getByTestId('password-strength')).toHaveAttribute('data-level', 'tooShort');
  await page.locator('#password').fill('password1');
  await expect(page.getByTestId('password-strength')).toHaveAttribute('data-level', 'low');
  await page.locator('#password').fill(password);
  await expect(page.getByTestId('password-strength')).toHaveAttribute('data-level', 'strong');
  await page.locator('#confirm').fill(`${password}x`);
  await page.locator('#mobile').fill(mobile);
  await page.getByTestId('register-submit').click();
  await expect(page.getByText('The email address is in the wrong format!')).toBeVisible();
  await expect(page.getByText('Passwords entered twice do not match')).toBeVisible();
  await page.locator('#email').fill(email);
  await page.locator('#confirm').fill(password);
  await page.getByTestId('get-captcha').click();
  await page.locator('#captcha').fill(await waitForSmsCode(mobile));
  await page.getByTestId('register-submit').click();
  await expect(page).toHaveURL(/\/user\/register-result\?email=/);
  await expect(page.getByTestId('register-result')).toContainText(email);
  await expect(page.getByTestId('register-result')).toContainText('valid for 24 hours');

  // Not active yet: the failure result page.
  await page.goto('/user/login');
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/result\/fail\?reason=pending/);

  const mail = await waitForMail(email);
  const link = mail.match(/https?:\/\/[^\s"<>]+\/user\/activate\?token=[A-Za-z0-9_-]+/)?.[0];
  expect(link, mail).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  await expect(page.getByTestId('activate-result')).toContainText('Your account is active');
  await signIn(page, username, password);
  // Without an invite code the account has no organization yet: it lands on the join page.
  await expect(page).toHaveURL(/\/account\/join$/);
  await expect(page.getByTestId('join-page')).toContainText(
    "Ask your organization's administrator for an invite code",
  );
});

test('forgot password: reset mail, new password, sign in', async ({ page }) => {
  const email = `${uniqueName('rst')}@example.com`;
  const user = await createUser('viewer', { email });
  await page.goto('/user/login');
  await page.getByRole('link', { name: 'Forgot password' }).click();
  await expect(page).toHaveURL(/\/user\/recover$/);
  await page.locator('#email').fill(email);
  await page.getByRole('button', { name: 'Send the reset link' }).click();
  await expect(page.getByTestId('recover-sent')).toBeVisible();
  const mail = await waitForMail(email);
  const link = mail.match(/https?:\/\/[^\s"<>]+\/user\/reset-password\?token=[A-Za-z0-9_-]+/)?.[0];
  expect(link, mail).toBeTruthy();
  await page.goto(new URL(link!).pathname + new URL(link!).search);
  const next = 'Copper-Kettle-Orchard-91';
  await page.locator('#password').fill(next);
  await page.locator('#confirm').fill(next);
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await expect(
    page.getByText('The password has been reset; sign in with the new one'),
  ).toBeVisible();
  await signIn(page, user.username, next);
  await expect(page).toHaveURL(/\/dashboard\/workplace$/);
});
