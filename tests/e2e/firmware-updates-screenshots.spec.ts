import { mkdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { FirmwareCampaign, LiftFirmwareUpdate } from '@liftlink/protocol';
import { until } from '../../apps/server/test/support/ports.ts';
import { signIn } from './fixtures.ts';
import { createMakerUser, createOperatorOf, expect, LiftApi, test, type LiftServer } from './lift-fixture.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';

/**
 * Captures what operators see of their makers' firmware updates (docs/firmware.md, "What
 * operators see") on a lift server with the demo lifts, given to an operator organization in
 * Moscow: the page with a mix of updates — a finished campaign (DEMO-0003 failed: the demo
 * fleet corrupts its image), one awaiting approval with a 02–05 window, one running whose
 * canary waits for its window and whose second stage is scheduled — open ones and all, the
 * release notes, the lift page's card, and the page of an operator without updates, in zh-CN,
 * en-US and ru-RU at desktop and phone width into screenshots/ (git-ignored). Signed in as an
 * operator of that organization: no firmware permission. Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test firmware-updates-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

interface Account {
  username: string;
  password: string;
}
interface Scene {
  operator: Account;
  /** An operator of an organization without lifts: the empty page. */
  nobody: Account;
  lifts: Record<string, string>;
}
let scene: Scene | null = null;

const NOTES = {
  'zh-CN': '低电量提醒提前到 30%；\n修正了雨天门传感器的误报。',
  'en-US': 'Low-battery warning now at 30 %;\nfixes false door-sensor alarms in the rain.',
  'ru-RU': 'Предупреждение о разряде батареи теперь при 30 %;\nисправлены ложные срабатывания датчика двери в дождь.',
};

/** The hours of a window that is closed now in Moscow (UTC+3): it opens in three hours. */
function closedWindow(): { startHour: number; endHour: number } {
  const moscowHour = (new Date().getUTCHours() + 3) % 24;
  return { startHour: (moscowHour + 3) % 24, endHour: (moscowHour + 6) % 24 };
}

async function setUp(server: LiftServer): Promise<Scene> {
  if (scene) return scene;
  const lifts = Object.fromEntries((await server.admin.lifts()).map((l) => [l.deviceNo!, l.id]));
  const operator = await createOperatorOf(server.admin, 'Riverside Accessibility Services', Object.values(lifts));
  const nobody = await createOperatorOf(server.admin, 'Hillside Care Homes', []);
  const operatorApi = await LiftApi.on(server.url, operator.username, operator.password);

  const anna = await createMakerUser(server.admin, 'manufacturerEngineer', 'Anna Engineer');
  const boris = await createMakerUser(server.admin, 'manufacturerEngineer', 'Boris Engineer');
  const annaApi = await LiftApi.on(server.url, anna.username, anna.password);
  const borisApi = await LiftApi.on(server.url, boris.username, boris.password);
  const kinds = ['inclinedStraightRack', 'inclined2dRack', 'inclined2dSprocket', 'inclined3dSprocket'];
  const pkg = async (version: string, releaseNotes: Partial<typeof NOTES>) => {
    const created = await annaApi.call<{ id: string }>('POST', '/auth/access/firmware/packages/create', { kinds, version, minVersion: 'SIM-1.0.0', releaseNotes });
    expect(created.status, JSON.stringify(created)).toBe(200);
    await annaApi.upload(`/auth/access/firmware/packages/upload?id=${created.result.id}`, randomBytes(600_000));
    return created.result.id;
  };
  const campaign = async (name: string, packageId: string, liftIds: string[] | null, plan: Record<string, unknown>) => {
    const c = await annaApi.call<FirmwareCampaign>('POST', '/auth/access/firmware/campaigns/create', {
      name,
      packageId,
      selection: liftIds ? { liftIds } : {},
      plan: { canaryCount: 1, waveSize: 3, wavePauseMinutes: 0, failureThresholdPercent: 50, ...plan },
    });
    expect(c.status, JSON.stringify(c)).toBe(200);
    return c.result;
  };
  const updates = async () =>
    (await operatorApi.call<{ list: LiftFirmwareUpdate[] }>('GET', '/auth/access/lift/firmware-updates')).result.list;

  // Finished: every lift but DEMO-0003, whose image arrives corrupted.
  const first = await campaign('Gentler stop — all lifts', await pkg('SIM-1.1.0', { 'en-US': 'Gentler stop at the landings.' }), null, { window: null });
  await borisApi.call('POST', '/auth/access/firmware/campaigns/approve', { id: first.id });
  await until('the first campaign done', async () => {
    const c = await annaApi.call<FirmwareCampaign>('GET', `/auth/access/firmware/campaigns/get?id=${first.id}`);
    return c.result.state === 'done' ? c.result : null;
  }, 180_000, 1_000);

  const spring = await pkg('SIM-1.2.0', NOTES);
  // Awaiting approval, to install between 02:00 and 05:00 Moscow time.
  await campaign('Battery warning — spring', spring, [lifts['DEMO-0001']!, lifts['DEMO-0003']!], { window: { startHour: 2, endHour: 5 } });
  // Running: the canary (DEMO-0002) waits for a window that is closed now; DEMO-0004 comes after it.
  const night = await campaign('Battery warning — night rollout', spring, [lifts['DEMO-0002']!, lifts['DEMO-0004']!], { waveSize: 1, window: closedWindow() });
  await borisApi.call('POST', '/auth/access/firmware/campaigns/approve', { id: night.id });
  await until('the canary waits for its window', async () => {
    const canary = (await updates()).find((u) => u.campaignId === night.id && u.deviceNo === 'DEMO-0002');
    return canary?.state === 'deferred' ? canary : null;
  }, 120_000, 1_000);

  scene = { operator, nobody, lifts };
  return scene;
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(420_000);
        mkdirSync('screenshots', { recursive: true });
        const { operator, nobody, lifts } = await setUp(liftServer);
        await page.setViewportSize(size);
        const name = (what: string) => `screenshots/firmware-updates-${language}-${viewport}-${what}.png`;
        await signIn(page, operator.username, operator.password);
        await page.waitForURL(/\/dashboard\//);

        // Open updates (the default): awaiting approval, in progress, scheduled.
        await page.goto('/lift/firmware-updates');
        await expect(page.getByTestId(`firmware-update-row-${lifts['DEMO-0002']}`).getByTestId('firmware-update-outlook-inProgress')).toBeVisible();
        await expect(page.getByTestId(`firmware-update-row-${lifts['DEMO-0004']}`).getByTestId('firmware-update-outlook-scheduled')).toBeVisible();
        await expect(page.getByTestId('firmware-update-outlook-awaitingApproval')).toHaveCount(2);
        await settle(page);
        await page.screenshot({ path: name('1-open'), fullPage: true });

        // With those that ended: three installed, DEMO-0003 failed.
        await page.getByTestId('firmware-updates-show-all').click();
        await expect(page.getByTestId('firmware-update-outlook-failed')).toBeVisible();
        await expect(page.getByTestId('firmware-update-outlook-done')).toHaveCount(3);
        await settle(page);
        await page.screenshot({ path: name('2-all'), fullPage: true });

        // The release notes of the spring package.
        const row = page.getByTestId(`firmware-update-row-${lifts['DEMO-0001']}`).first();
        await row.locator('.firmware-update-notes-button').click();
        await expect(page.getByTestId('firmware-update-notes')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('3-notes') });
        await page.keyboard.press('Escape');

        // The lift page's card: the canary waiting for its window; DEMO-0003 awaiting approval.
        for (const [deviceNo, what] of [['DEMO-0002', '4-lift-in-progress'], ['DEMO-0003', '5-lift-awaiting']] as const) {
          await page.goto(`/lift/${lifts[deviceNo]}`);
          const card = page.getByTestId('lift-firmware-update-card');
          await expect(card).toBeVisible();
          await settle(page);
          await card.scrollIntoViewIfNeeded();
          await page.screenshot({ path: name(what) });
          await card.screenshot({ path: name(`${what}-card`) });
        }

        // DEMO-0003's logbook: the finished campaign's failed update, in words.
        await page.locator('.lift-detail-tabs [data-node-key="logbook"]').click();
        const entry = page.getByTestId('logbook').locator('[data-kind="firmware"]').first();
        await expect(entry).toBeVisible();
        await settle(page);
        await entry.scrollIntoViewIfNeeded();
        await page.screenshot({ path: name('7-logbook') });

        // An operator whose lifts have no update.
        await page.evaluate(() => {
          localStorage.removeItem('liftlink.token');
          sessionStorage.removeItem('liftlink.token');
        });
        await page.context().clearCookies();
        await signIn(page, nobody.username, nobody.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto('/lift/firmware-updates');
        await expect(page.getByTestId('firmware-updates-empty-none')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('6-empty'), fullPage: true });
      });
    }
  });
}
