import { mkdirSync } from 'node:fs';
import { currentMonth, type ReportTargets } from '@liftlink/protocol';
import { signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { ADMIN, expect, test } from './lift-fixture.ts';

/**
 * Captures the fleet-insight screens (docs/insight.md, docs/condition.md, docs/reports.md): the
 * analysis page's availability drill-down (organizations, one organization's sites, one site's
 * lifts), the Lift health list, a worn demo lift's condition card and the Reports page with a
 * report generated for this month, in zh-CN, en-US and ru-RU at desktop and phone width into
 * screenshots/ (git-ignored). Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test insight-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(180_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        const name = (what: string) => `screenshots/insight-${language}-${viewport}-${what}.png`;
        const { admin } = liftServer;

        // One stored report per language, so the Reports page has a row to show.
        const targets = await admin.call<ReportTargets>('GET', '/auth/access/dashboard/reports/targets');
        expect(targets.code).toBe('ok');
        const org = targets.result.list[0]!;
        const generated = await admin.call('POST', '/auth/access/dashboard/reports/generate', {
          orgId: org.orgId,
          month: currentMonth(),
          language,
        });
        expect(generated.code, JSON.stringify(generated)).toBe('ok');

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);

        await page.goto('/dashboard/analysis');
        const section = page.getByTestId('availability-section');
        const open = section.locator('tbody .ant-btn-link');
        await expect(open.first()).toBeVisible();
        await section.scrollIntoViewIfNeeded();
        await settle(page);
        await section.screenshot({ path: name('availability-orgs') });
        await open.first().click();
        await expect(section.getByTestId('availability-breadcrumb')).toContainText(/\S+\s*\/\s*\S+/);
        await expect(open.first()).toBeVisible();
        await settle(page);
        await section.screenshot({ path: name('availability-sites') });
        await open.first().click();
        await settle(page);
        await section.screenshot({ path: name('availability-lifts') });

        await page.goto('/dashboard/condition');
        await settle(page);
        await page.screenshot({ path: name('condition-list'), fullPage: true });

        const worn = await admin.lift('DEMO-0002');
        await page.goto(`/lift/${worn.id}`);
        const card = page.getByTestId('panel-condition');
        await expect(card).toBeVisible();
        await card.scrollIntoViewIfNeeded();
        await settle(page);
        await card.screenshot({ path: name('condition-card') });

        await page.goto('/dashboard/reports');
        await expect(page.getByRole('row').nth(1)).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('reports'), fullPage: true });
      });
    }
  });
}
