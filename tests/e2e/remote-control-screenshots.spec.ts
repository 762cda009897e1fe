import { mkdirSync } from 'node:fs';
import { signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { ADMIN, createMakerOperator, expect, LiftApi, test } from './lift-fixture.ts';

/**
 * Captures the remote-control states of the lift page (docs/remote-control.md) in zh-CN,
 * en-US and ru-RU at desktop and phone width into screenshots/ (git-ignored): another user
 * holds control, a request awaiting approval, a command in its cancel window, the lift in use
 * on site. Opt-in: LIFTLINK_SCREENSHOTS=1 npx playwright test remote-control-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(240_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        const panel = page.getByTestId('commands-panel');
        const shot = async (name: string) => {
          await settle(page);
          await panel.screenshot({ path: `screenshots/control-${language}-${viewport}-${name}.png` });
        };
        const { admin } = liftServer;
        const lift = await admin.lift('DEMO-0002');
        const person = await createMakerOperator(admin, language === 'ru-RU' ? 'Констанция Преображенская' : language === 'zh-CN' ? '王晓明' : 'Olga Operator');
        const other = await LiftApi.on(liftServer.url, person.username, person.password);
        // A press on site before (another screenshot test) pauses remote control for 30 s.
        const taken = async () => (await other.call('POST', '/auth/access/lift/lease/take', { liftId: lift.id, takeOver: false })).code === 'ok';
        await expect.poll(taken, { timeout: 45_000, intervals: [1_000] }).toBe(true);

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto(`/lift/${lift.id}`);
        await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'open');
        await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'other');
        await shot('held-by-other');

        const key = `shot${Date.now()}${language.replace('-', '')}${viewport}`.padEnd(20, 'x');
        const reason = language === 'ru-RU' ? 'Ежегодная проверка износостойкости после замены двигателя' : language === 'zh-CN' ? '更换电机后的年度耐久性检查' : 'Yearly endurance check after the motor was replaced';
        const requested = await other.call('POST', '/auth/access/lift/approval/request', { liftId: lift.id, command: 'aging', args: { target: 'overall' }, reason, idempotencyKey: key });
        expect(requested.code).toBe('ok');
        await expect(page.getByTestId('approval-approve')).toBeVisible();
        await settle(page);
        await page.getByTestId('approvals-list').screenshot({ path: `screenshots/control-${language}-${viewport}-approval-pending.png` });
        await other.call('POST', '/auth/access/lift/approval/withdraw', { approvalId: (requested.result as { id: string }).id });

        await page.getByTestId('control-takeover').click();
        await page.getByTestId('control-takeover-confirm').click();
        await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'me');
        await page.getByTestId('cmd-summon-3').click();
        await page.locator('.ant-modal-confirm .ant-btn-primary').click();
        await expect(page.getByTestId('command-cancel')).toBeVisible();
        await expect(page.locator('.ant-modal-confirm')).toHaveCount(0);
        await panel.screenshot({ path: `screenshots/control-${language}-${viewport}-cancel-window.png` });
        await page.getByTestId('command-cancel').click();
        await expect(page.getByTestId('command-progress').first()).toHaveAttribute('data-state', 'cancelled');
        await shot('cancelled');

        liftServer.signalSimulator('SIGUSR2');
        await expect(page.getByTestId('control-local')).toBeVisible({ timeout: 20_000 });
        await shot('local-use');

        // Where an organization chooses the classes under two-person approval.
        await page.goto('/system/orgs');
        await page.getByTestId('org-approval-open').first().click();
        const dialog = page.getByTestId('org-approval-modal');
        await expect(dialog.getByTestId('org-approval-classes')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: `screenshots/control-${language}-${viewport}-org-approval.png` });
        await page.keyboard.press('Escape');
      });
    }
  });
}
