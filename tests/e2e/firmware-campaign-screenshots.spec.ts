import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FirmwareCampaign } from '@liftlink/protocol';
import { until } from '../../apps/server/test/support/ports.ts';
import { signIn } from './fixtures.ts';
import { ADMIN, createMakerUser, expect, LiftApi, test, type LiftServer } from './lift-fixture.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';

/**
 * Captures the firmware campaigns (docs/firmware.md, "Campaigns") on a lift server with the
 * demo lifts: the list with a finished campaign (one lift failed) and one awaiting approval,
 * the finished one's stages and lifts, the new-campaign dialog with its preview, and the
 * organizations with their time zone (list and new-organization dialog), in zh-CN,
 * en-US and ru-RU at desktop and phone width into screenshots/ (git-ignored). Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test firmware-campaign-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

let finished: FirmwareCampaign | null = null;

/** Two packages; a campaign of the first run to its end, one of the second awaiting approval. */
async function campaigns(server: LiftServer): Promise<FirmwareCampaign> {
  if (finished) return finished;
  const anna = await createMakerUser(server.admin, 'manufacturerEngineer', 'Anna Engineer');
  const boris = await createMakerUser(server.admin, 'manufacturerEngineer', 'Boris Engineer');
  const annaApi = await LiftApi.on(server.url, anna.username, anna.password);
  const borisApi = await LiftApi.on(server.url, boris.username, boris.password);
  const kinds = ['inclinedStraightRack', 'inclined2dRack', 'inclined2dSprocket', 'inclined3dSprocket'];
  const plan = { canaryCount: 1, waveSize: 3, wavePauseMinutes: 0, failureThresholdPercent: 50, window: null };
  const start = async (version: string, name: string) => {
    const pkg = await annaApi.call<{ id: string }>('POST', '/auth/access/firmware/packages/create', { kinds, version, minVersion: 'SIM-1.0.0', releaseNotes: {} });
    await annaApi.upload(`/auth/access/firmware/packages/upload?id=${pkg.result.id}`, randomBytes(600_000));
    const c = await annaApi.call<FirmwareCampaign>('POST', '/auth/access/firmware/campaigns/create', { name, packageId: pkg.result.id, selection: {}, plan });
    expect(c.status).toBe(200);
    return c.result;
  };
  const first = await start('SIM-1.1.0', 'Gentler stop — all lifts');
  await borisApi.call('POST', '/auth/access/firmware/campaigns/approve', { id: first.id });
  finished = await until('the campaign done', async () => {
    const c = await annaApi.call<FirmwareCampaign>('GET', `/auth/access/firmware/campaigns/get?id=${first.id}`);
    return c.result.state === 'done' ? c.result : null;
  }, 180_000, 1_000);
  await start('SIM-1.2.0', 'Battery warning — spring');
  return finished;
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(300_000);
        mkdirSync('screenshots', { recursive: true });
        const done = await campaigns(liftServer);
        await page.setViewportSize(size);
        const name = (what: string) => `screenshots/campaigns-${language}-${viewport}-${what}.png`;
        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto('/manufacture/firmware?tab=campaigns');
        await expect(page.getByTestId(`campaign-open-${done.id}`)).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('1-list'), fullPage: true });

        await page.getByTestId(`campaign-open-${done.id}`).click();
        await expect(page.getByTestId('campaign-drawer').getByTestId('campaign-state-done')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('2-detail'), fullPage: true });
        await page.keyboard.press('Escape');

        await page.locator('main button.ant-btn-primary').first().click();
        const dialog = page.getByRole('dialog');
        await expect(dialog).toBeVisible();
        await dialog.getByTestId('campaign-preview-button').click();
        await settle(page);
        await page.screenshot({ path: name('3-new-checks'), fullPage: true });
        await page.keyboard.press('Escape');

        // Organizations: the time zone their lifts' installation windows are in.
        await page.goto('/system/orgs');
        await expect(page.getByTestId('org-escalation-open').first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('4-orgs'), fullPage: true });
        await page.locator('main button.ant-btn-primary').first().click();
        await expect(page.getByTestId('org-time-zone')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('5-org-time-zone'), fullPage: true });
      });
    }
  });
}
