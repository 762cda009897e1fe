import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { test, expect, ADMIN, asAdmin, signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';

/**
 * Captures the firmware packages page (docs/firmware.md): the list with a ready, a withdrawn
 * and a package awaiting its image, a package's release notes, and the New package dialog
 * with its checks, in zh-CN, en-US and ru-RU at desktop and phone width into screenshots/
 * (git-ignored). Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test firmware-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

let made = false;

/** Three packages in the three states, made once through the API. */
async function packages() {
  if (made) return;
  made = true;
  const api = await asAdmin();
  const stamp = Date.now() % 10_000;
  const create = (minor: number, notes: Record<string, string>) =>
    api.call<{ id: string }>('POST', '/auth/access/firmware/packages/create', {
      kinds: ['inclinedStraightRack', 'inclined3dSprocket'],
      version: `FW-4.${stamp}.${minor}`,
      minVersion: 'FW-1.2.0',
      releaseNotes: notes,
    });
  const notes = {
    'zh-CN': '平台到站时停得更柔和；电池电压低时提前报警。',
    'en-US': 'Gentler stop at the landings; an earlier warning when the battery runs low.',
    'ru-RU':
      'Более плавная остановка на этажных площадках; раннее предупреждение о разряде аккумулятора.',
  };
  for (const minor of [1, 2]) {
    const pkg = await create(minor, notes);
    expect(pkg.status).toBe(200);
    const up = await api.upload(
      `/auth/access/firmware/packages/upload?id=${pkg.result.id}`,
      randomBytes(1_500_000),
    );
    expect(up.status).toBe(200);
    if (minor === 1)
      await api.call('POST', '/auth/access/firmware/packages/withdraw', { id: pkg.result.id });
  }
  expect((await create(3, notes)).status).toBe(200);
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page }) => {
        test.setTimeout(120_000);
        mkdirSync('screenshots', { recursive: true });
        await packages();
        await page.setViewportSize(size);
        const name = (what: string) => `screenshots/firmware-${language}-${viewport}-${what}.png`;
        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto('/manufacture/firmware');
        await expect(page.getByTestId('firmware-key-id')).toBeVisible();
        await expect(page.getByTestId('firmware-state-ready').first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('1-list'), fullPage: true });

        await page.locator('.ant-table-row-expand-icon').first().click();
        await settle(page);
        await page.screenshot({ path: name('2-notes'), fullPage: true });

        await page.locator('main button.ant-btn-primary').first().click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toBeVisible();
        await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
        await settle(page);
        await page.screenshot({ path: name('3-new-checks'), fullPage: true });
      });
    }
  });
}
