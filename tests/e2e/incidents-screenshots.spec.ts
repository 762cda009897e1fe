import { mkdirSync } from 'node:fs';
import { signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { ADMIN, createMakerOperator, expect, test, type LiftApi } from './lift-fixture.ts';

/**
 * Captures the incidents list and one incident (docs/service.md) in zh-CN, en-US and ru-RU
 * at desktop and phone width into screenshots/ (git-ignored), with long words of each
 * language in titles and names. Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test incidents-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

const WORDS = {
  'zh-CN': {
    title: '平台安全带撕裂，乘客无法使用，需要尽快更换',
    person: '王晓明',
    note: '已通知物业，现场已放置警示牌',
  },
  'en-US': {
    title: 'Seat belt torn on the platform; passengers cannot ride until it is replaced',
    person: 'Olga Operator',
    note: 'Building manager informed; warning sign placed on site',
  },
  'ru-RU': {
    title: 'Порван ремень безопасности платформы, пассажиры не могут пользоваться подъёмником',
    person: 'Констанция Преображенская',
    note: 'Управляющая компания уведомлена, на месте установлена предупреждающая табличка',
  },
} as const;

type View = { id: number };

/** Incidents in several states and priorities on the demo lifts; returns the one to open. */
async function seed(admin: LiftApi, language: keyof typeof WORDS): Promise<number> {
  const words = WORDS[language];
  const person = await createMakerOperator(admin, words.person);
  const open = async (deviceNo: string, title: string, priority: string) => {
    const lift = await admin.lift(deviceNo);
    const res = await admin.call<View>('POST', '/auth/access/incidents/create', {
      liftId: lift.id,
      title,
      priority,
    });
    expect(res.code).toBe('ok');
    return res.result.id;
  };
  const step = (id: number, to: string, extra: object = {}) =>
    admin.call('POST', '/auth/access/incidents/transition', { id, to, ...extra });
  const users = await admin.call<{ list: { id: string; username: string }[] }>(
    'GET',
    '/auth/access/system/users?pageSize=100',
  );
  const assignee = users.result.list.find((u) => u.username === person.username);

  const critical = await open('DEMO-0001', words.title, 'critical');
  await step(critical, 'acknowledged');
  if (assignee)
    await admin.call('POST', '/auth/access/incidents/assign', {
      id: critical,
      userId: assignee.id,
    });
  await admin.call('POST', '/auth/access/incidents/notes/add', { id: critical, text: words.note });
  await open('DEMO-0002', words.note, 'high');
  await open('DEMO-0003', words.title, 'low');
  const done = await open('DEMO-0004', words.note, 'normal');
  await step(done, 'acknowledged');
  await step(done, 'resolved', {
    rootCause: 'chainSprocket',
    resolutionText: words.note,
    partsUsed: ['Chain 08B-1'],
  });
  return critical;
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    let incidentId = 0;
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(180_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        if (!incidentId) incidentId = await seed(liftServer.admin, language);
        const name = (what: string) => `screenshots/incidents-${language}-${viewport}-${what}.png`;

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto('/lift/incidents');
        await expect(page.getByTestId('incident-card').first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('list'), fullPage: true });
        await page.getByTestId('incident-create').click();
        await expect(page.getByTestId('incident-create-title')).toBeVisible();
        await page.getByTestId('incident-create-modal').getByRole('button').last().click();
        await settle(page);
        await page.screenshot({ path: name('create') });
        await page.keyboard.press('Escape');

        await page.goto(`/lift/incidents/${incidentId}`);
        await expect(page.getByTestId('incident-subject')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('detail'), fullPage: true });

        await page.getByTestId('incident-step-resolved').click();
        await page.getByTestId('incident-resolve-modal').getByRole('button').last().click();
        await page.getByTestId('incident-add-part').click();
        await settle(page);
        await page.screenshot({ path: name('resolve') });
        if (viewport !== 'phone') return;

        // The phone, last: resolve it for real, and the next step is closing it.
        const dialog = page.getByTestId('incident-resolve-modal');
        await dialog.getByTestId('incident-root-cause').click();
        await page.locator('.ant-select-item-option').first().click();
        await dialog.getByTestId('incident-part-0').fill('Seat belt 1.2 m');
        await dialog.getByRole('button').last().click();
        await expect(page.getByTestId('incident-state')).toHaveAttribute('data-state', 'resolved');
        await expect(page.getByTestId('incident-step-closed')).toBeVisible();
        await expect(page.getByTestId('incident-resolution')).toContainText('Seat belt 1.2 m');
        await settle(page);
        await page.screenshot({ path: name('resolved'), fullPage: true });
      });
    }
  });
}
