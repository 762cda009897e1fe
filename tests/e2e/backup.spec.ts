import { readFileSync } from 'node:fs';
import { test, expect, ADMIN, signIn } from './fixtures.ts';

const LANGUAGES = ['zh-CN', 'en-US', 'ru-RU'] as const;
const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

test.describe('Administration → Backup', () => {
  test('the administrator downloads a backup of the running server', async ({ page }) => {
    await signIn(page, ADMIN.username, ADMIN.password);
    await page.waitForURL(/dashboard\/workplace/);
    await page.goto('/system/backup');
    await expect(page.getByText('Embedded (PGlite)')).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download backup' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^liftlink-backup-\d{8}-\d{4}\.llbackup$/);
    const file = await download.path();
    expect(readFileSync(file).subarray(0, 16).toString()).toBe('LIFTLINK-BACKUP ');
    await expect(page.getByText('Backup downloaded')).toBeVisible();
  });

  test.describe('in every language', () => {
    test.use({ uiLanguage: null });
    for (const language of LANGUAGES) {
      test(`${language}: the page at desktop and phone width`, async ({ page }, testInfo) => {
        await page.addInitScript((lng) => localStorage.setItem('liftlink.language', lng), language);
        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/dashboard\/workplace/);
        for (const [device, viewport] of Object.entries(VIEWPORTS)) {
          await page.setViewportSize(viewport);
          await page.goto('/system/backup');
          await expect(page.locator('.ant-descriptions')).toBeVisible();
          await expect(
            page.locator('.ant-btn-primary').filter({ has: page.locator('.anticon-download') }),
          ).toBeVisible();
          await page.screenshot({
            path: testInfo.outputPath(`backup-${language}-${device}.png`),
            fullPage: true,
          });
        }
      });
    }
  });
});
