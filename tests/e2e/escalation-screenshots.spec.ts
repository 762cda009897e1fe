import { mkdirSync } from 'node:fs';
import { signIn } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { ADMIN, expect, test, type LiftApi } from './lift-fixture.ts';

/**
 * Captures escalation (docs/service.md): an organization's on-call settings, the bell of the
 * on-call technician asked about an incident nobody acknowledged, and the incident's timeline,
 * in zh-CN, en-US and ru-RU at desktop and phone width into screenshots/ (git-ignored). Opt-in:
 * LIFTLINK_SCREENSHOTS=1 npx playwright test escalation-screenshots --workers=1
 */
test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

const NAMES = {
  'zh-CN': { tech: '王晓明', title: '平台安全带撕裂，乘客无法使用' },
  'en-US': { tech: 'Olga Technician', title: 'Seat belt torn on the platform' },
  'ru-RU': { tech: 'Констанция Преображенская', title: 'Порван ремень безопасности платформы' },
} as const;

/** A technician of the lifts' maker on call, the administrator as manager, an incident asked about. */
async function seed(admin: LiftApi, language: keyof typeof NAMES) {
  const orgs = await admin.call<{ list: { id: string; kind: string }[] }>('GET', '/auth/access/system/orgs');
  const maker = orgs.result.list.find((o) => o.kind === 'manufacturer')!;
  const roles = await admin.call<{ list: { id: string; name: string }[] }>('GET', '/auth/access/system/roles');
  const technician = roles.result.list.find((r) => r.name === 'technician')!;
  const username = `tech${Date.now().toString(36)}`;
  const password = 'Tr1cky-Passw0rd-e2e';
  const created = await admin.call<{ id: string }>('POST', '/auth/access/system/users/create', { username, name: NAMES[language].tech, password, roleId: technician.id, orgId: maker.id });
  expect(created.code).toBe('ok');
  const me = await admin.call<{ list: { id: string; username: string }[] }>('GET', '/auth/access/system/users?pageSize=100');
  const adminId = me.result.list.find((u) => u.username === ADMIN.username)!.id;
  const saved = await admin.call('POST', '/auth/access/system/orgs/escalation/update', { orgId: maker.id, onCall: [created.result.id], managerId: adminId, ackMinutes: 10, ackMinutesByPriority: { critical: 2 } });
  expect(saved.code).toBe('ok');
  const lift = await admin.lift('DEMO-0001');
  const incident = await admin.call<{ id: number }>('POST', '/auth/access/incidents/create', { liftId: lift.id, title: NAMES[language].title, priority: 'critical' });
  expect(incident.code).toBe('ok');
  return { username, password, incidentId: incident.result.id };
}

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    let seeded: Awaited<ReturnType<typeof seed>> | null = null;
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${viewport}`, async ({ page, liftServer }) => {
        test.setTimeout(180_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        seeded ??= await seed(liftServer.admin, language);
        const name = (what: string) => `screenshots/escalation-${language}-${viewport}-${what}.png`;

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await page.goto('/system/orgs');
        await page.getByTestId('org-escalation-open').first().click();
        await expect(page.getByTestId('org-escalation-person').first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('settings') });

        // The technician: the bell shows the incident once the job asked them (every 15 s).
        await page.evaluate(() => localStorage.clear());
        await page.context().clearCookies();
        await signIn(page, seeded.username, seeded.password);
        await page.waitForURL(/\/dashboard\//);
        await expect(page.getByTestId('notification-count')).toBeVisible({ timeout: 40_000 });
        await page.getByTestId('notification-bell').click();
        await expect(page.getByTestId('notification-incident').first()).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('bell') });

        await page.goto(`/lift/incidents/${seeded.incidentId}`);
        await expect(page.getByTestId('incident-timeline')).toBeVisible();
        await settle(page);
        await page.screenshot({ path: name('timeline'), fullPage: true });
      });
    }
  });
}
