import type { Page } from '@playwright/test';

/** The languages and sizes every screenshot spec captures (opt-in: LIFTLINK_SCREENSHOTS=1). */
export const SCREENSHOT_LANGUAGES = ['zh-CN', 'en-US', 'ru-RU'] as const;
export const SCREENSHOT_VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

/** Waits until the page has loaded and stopped spinning, so a screenshot shows content. */
export async function settle(page: Page, spinners = '.ant-spin-spinning'): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page
    .locator(spinners)
    .first()
    .waitFor({ state: 'detached', timeout: 8_000 })
    .catch(() => undefined);
  await page.waitForTimeout(400);
}
