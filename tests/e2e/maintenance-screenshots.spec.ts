import { mkdirSync } from 'node:fs';
import type { MaintenanceLift } from '@liftlink/protocol';
import { signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { ADMIN, expect, test, type LiftApi } from './lift-fixture.ts';

/**
 * Captures the maintenance screens (docs/service.md): the workplace's overdue card, the lift
 * page's Maintenance tab, the visit screen filled in (a value out of its limits) and recorded,
 * and the checklists per lift kind, in zh-CN, en-US and ru-RU at desktop and phone width into
 * screenshots/ (git-ignored), with long words of each language in findings and parts. Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test maintenance-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

const WORDS = {
  'zh-CN': {
    findings: '平台护栏锁定销磨损，已调整；建议下次保养时更换电池组',
    part: '锁定销 8×40 不锈钢',
    incident: '平台护栏无法锁定',
  },
  'en-US': {
    findings: 'Guard-arm locking pin worn and adjusted; replace the battery pack at the next visit',
    part: 'Locking pin 8×40 stainless',
    incident: 'Platform guard arm does not lock',
  },
  'ru-RU': {
    findings:
      'Стопорный палец ограждения изношен и отрегулирован; аккумуляторную батарею заменить при следующем обслуживании',
    part: 'Стопорный палец 8×40 нержавеющий',
    incident: 'Ограждение платформы не фиксируется',
  },
} as const;

const BASE = '/auth/access/lift/maintenance';
const DAY = 86_400_000;

/** A visit on the lift `daysAgo` days ago, every item passed but the first measured one. */
async function pastVisit(admin: LiftApi, liftId: string, daysAgo: number, findings: string) {
  const state = await admin.call<MaintenanceLift>('GET', `${BASE}?liftId=${liftId}`);
  expect(state.code).toBe('ok');
  let failedOne = false;
  const results = state.result.checklist.map((item) => {
    if (item.type === 'passFail') return { itemId: item.id, passed: true };
    const low = item.min ?? 0;
    const value = !failedOne ? low - 1 : (item.min ?? 0) + ((item.max ?? 1) - (item.min ?? 0)) / 2;
    failedOne = true;
    return { itemId: item.id, value };
  });
  const endedAt = new Date(Date.now() - daysAgo * DAY);
  const res = await admin.call('POST', `${BASE}/visits/record`, {
    liftId,
    startedAt: new Date(endedAt.getTime() - 3_600_000).toISOString(),
    endedAt: endedAt.toISOString(),
    results,
    findings,
    partsUsed: [],
  });
  expect(res.code).toBe('ok');
}

/** Plans on the demo lifts: DEMO-0001 overdue, DEMO-0002 due soon, DEMO-0003 fine; an open incident on DEMO-0001. */
async function seed(admin: LiftApi, language: keyof typeof WORDS): Promise<string> {
  const words = WORDS[language];
  const plan = async (deviceNo: string, intervalDays: number, intervalTrips: number | null) => {
    const lift = await admin.lift(deviceNo);
    const res = await admin.call('POST', `${BASE}/plan/set`, {
      liftId: lift.id,
      intervalDays,
      intervalTrips,
    });
    expect(res.code).toBe('ok');
    return lift.id;
  };
  const overdue = await plan('DEMO-0001', 30, 5000);
  await pastVisit(admin, overdue, 40, words.findings);
  const soon = await plan('DEMO-0002', 30, null);
  await pastVisit(admin, soon, 26, words.findings);
  await plan('DEMO-0003', 90, 20_000);
  const incident = await admin.call('POST', '/auth/access/incidents/create', {
    liftId: overdue,
    title: words.incident,
    priority: 'high',
  });
  expect(incident.code).toBe('ok');
  return overdue;
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    let liftId = '';
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(180_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        if (!liftId) liftId = await seed(liftServer.admin, language);
        const words = WORDS[language];
        const name = (what: string) =>
          `screenshots/maintenance-${language}-${viewport}-${what}.png`;

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        const card = page.getByTestId('maintenance-due-card');
        await expect(card.getByTestId('maintenance-due-item').first()).toBeVisible();
        await card.scrollIntoViewIfNeeded();
        await settle(page);
        await card.screenshot({ path: name('workplace-card') });

        await page.goto(`/lift/${liftId}`);
        await page.locator('.lift-detail-tabs [data-node-key="maintenance"]').click();
        await expect(page.getByTestId('maintenance-visit').first()).toBeVisible();
        await page.getByTestId('maintenance-visit').first().getByRole('button').click();
        await settle(page);
        await page.screenshot({ path: name('tab'), fullPage: true });

        await page.getByTestId('maintenance-plan-edit').click();
        await expect(page.getByTestId('maintenance-plan-days-input')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('plan') });
        await page.keyboard.press('Escape');

        await page.getByTestId('maintenance-record-visit').click();
        await expect(page.getByTestId('visit-checklist')).toBeVisible();
        const items = page.locator('[data-testid^="visit-item-"]');
        const count = await items.count();
        let measured = 0;
        for (let i = 0; i < count; i += 1) {
          const item = items.nth(i);
          const value = item.locator('[data-testid^="visit-value-"]');
          if ((await value.count()) > 0) {
            // The first measured value far out of its limits, the others within them.
            const limits = (await item.getByTestId('visit-limits').textContent()) ?? '';
            const numbers = [...limits.matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Number(m[0]));
            const inside =
              numbers.length >= 2 ? (numbers[0]! + numbers[1]!) / 2 : (numbers[0] ?? 1);
            await value.fill(measured === 0 ? String(inside * 10 + 100) : String(inside));
            measured += 1;
          } else {
            await item
              .locator('.ant-radio-button-wrapper')
              .nth(i === 1 ? 1 : 0)
              .click();
          }
        }
        await page.getByTestId('visit-findings-input').fill(words.findings);
        await page.getByTestId('visit-add-part').click();
        await page.getByTestId('visit-part-0').fill(words.part);
        await settle(page);
        await page.screenshot({ path: name('visit-form'), fullPage: true });
        await page.screenshot({ path: name('visit-form-screen') });

        // The last run of a language closes the open incident with the visit.
        if (viewport === 'phone') {
          await page.locator('[data-testid^="visit-incident-"]').first().click();
        }
        await page.getByTestId('visit-submit').click();
        await expect(page.getByTestId('visit-recorded')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('visit-recorded'), fullPage: true });

        await page.goto('/lift/maintenance');
        await expect(page.getByTestId('maintenance-due-list')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('due'), fullPage: true });
        await page.locator('.maintenance-tabs [data-node-key="checklists"]').click();
        await expect(page.getByTestId('template-inclinedStraightRack')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('checklists') });
        await page.getByTestId('template-edit-inclinedStraightRack').click();
        await expect(page.getByTestId('template-add-item')).toBeVisible();
        await page.getByTestId('template-add-item').click();
        const last = page.locator('[data-testid^="template-item-"]').last();
        await last.locator('[data-testid^="template-label-"]').fill(words.part);
        await last.locator('.ant-segmented-item').nth(1).click();
        await settle(page);
        await page.screenshot({ path: name('template-edit') });
        await page.keyboard.press('Escape');
      });
    }
  });
}
