import { mkdirSync } from 'node:fs';
import type { LiftListItem } from '@liftlink/protocol';
import { test as base, ADMIN, expect, signIn, startOwnServer } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS, settle } from './screenshot-kit.ts';
import { LiftApi } from './lift-fixture.ts';

/**
 * What a new customer sees on the first day, in zh-CN, en-US and ru-RU at desktop and phone
 * width, into screenshots/first-day-<language>-<device>-<name>.png (git-ignored): a first
 * start with demo lifts and their 30 days of history, a lift's IoT details, a sign-in
 * provider on the login page, the invite code at registration, an account waiting for its
 * organization and the administrator's side of it.
 * Opt-in: LIFTLINK_SCREENSHOTS=1 npx playwright test first-day-screenshots --workers=1
 */
const WAITING = { username: 'new.technician', password: 'Waiting-Pass-2026!' };

interface FirstDay {
  url: string;
  lift: LiftListItem;
}

const test = base.extend<object, { firstDay: FirstDay }>({
  firstDay: [
    // Playwright's fixture signature needs the (empty) destructuring.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startOwnServer(
        {
          SIMULATOR: '6',
          DEMO_HISTORY_DAYS: '30',
          DEMO_FAULT_SECONDS: '5',
          SITE_SERVICE_CONTACT: '+86 400 820 8820 · service@liftlink.example',
          // Only listed on the login page here; the sign-in itself has its own e2e test.
          OIDC_PROVIDERS: 'corp',
          OIDC_CORP_ISSUER: 'http://127.0.0.1:9',
          OIDC_CORP_CLIENT_ID: 'liftlink',
          OIDC_CORP_CLIENT_SECRET: 'liftlink-screenshots-secret-0123',
          OIDC_CORP_LABEL: 'Acme ID',
          OIDC_CORP_DOMAINS: 'acme.example=Acme Operators:operator',
        },
        180_000,
      );
      try {
        const admin = await LiftApi.on(server.url, ADMIN.username, ADMIN.password);
        const lift = await admin.lift('DEMO-0001');
        await admin.call('POST', '/auth/access/lift/iot/update', {
          liftId: lift.id,
          iotInfo: {
            iccid: '89860012345678901234',
            carrier: 'China Mobile',
            apn: 'cmiot',
            module: 'Quectel EC200N-CN',
            signal: -71,
            notes: 'SIM in the controller cabinet, left slot',
          },
        });
        await admin.call('POST', '/auth/access/system/orgs/create', {
          name: 'Acme Operators',
          kind: 'operator',
        });
        const roles = await admin.call<{ list: { id: string; name: string }[] }>(
          'GET',
          '/auth/access/system/roles?pageSize=50',
        );
        const viewer = roles.result.list.find((r) => r.name === 'viewer')!;
        const created = await admin.call('POST', '/auth/access/system/users/create', {
          username: WAITING.username,
          name: 'Wang Fang',
          password: WAITING.password,
          roleId: viewer.id,
          orgId: null,
          email: 'wang.fang@example.com',
        });
        if (created.status !== 200) throw new Error(`waiting user: ${created.code}`);
        await use({ url: server.url, lift });
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ firstDay }, use) => use(firstDay.url),
});

test.describe.configure({ mode: 'default' });
test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');

for (const language of SCREENSHOT_LANGUAGES) {
  test.describe(language, () => {
    test.use({ uiLanguage: language });
    for (const [device, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      test(`${language} ${device}`, async ({ page, firstDay }) => {
        test.setTimeout(240_000);
        mkdirSync('screenshots', { recursive: true });
        await page.setViewportSize(size);
        const shot = async (name: string, fullPage = true) => {
          await settle(page, '.ant-spin-spinning, .page-loading');
          await page.screenshot({
            path: `screenshots/first-day-${language}-${device}-${name}.png`,
            fullPage,
          });
        };

        await page.goto('/user/login');
        await expect(page.getByText('Acme ID')).toBeVisible();
        await shot('login-provider');
        await page.goto('/user/login?ssoError=domainNotMapped');
        await shot('login-provider-refused');
        await page.goto('/user/register');
        await shot('register-invite');

        await signIn(page, WAITING.username, WAITING.password);
        await expect(page.getByTestId('join-page')).toBeVisible();
        await shot('join');
        await page.goto('/account/center');
        await shot('account-center');
        await page.evaluate(() => {
          localStorage.removeItem('liftlink.token');
          sessionStorage.removeItem('liftlink.token');
        });
        await page.context().clearCookies();

        await signIn(page, ADMIN.username, ADMIN.password);
        await page.waitForURL(/\/dashboard\//);
        await expect(page.getByTestId('fleet-overview')).toBeVisible();
        await shot('workplace');
        await page.goto('/dashboard/analysis');
        await shot('analysis');
        await page.goto('/lift/operation-log');
        await shot('operation-log');
        await page.goto('/lift/alerts');
        await shot('alerts');
        await page.goto(`/lift/${firstDay.lift.id}`);
        await expect(page.getByTestId('panel-iot')).toBeVisible();
        await page.getByTestId('panel-iot').scrollIntoViewIfNeeded();
        await shot('lift-iot');

        await page.goto('/system/users');
        await page.getByTestId('user-filter').getByText(/./).nth(1).click();
        await expect(page.getByText(WAITING.username)).toBeVisible();
        await shot('users-awaiting');
        await page.getByTestId('user-assign').first().click();
        await shot('assign-dialog', false);
        await page.keyboard.press('Escape');
        await page.getByTestId('invites-open').click();
        for (const select of ['invite-org', 'invite-role']) {
          await page.getByTestId(select).click();
          await page
            .locator('.ant-select-dropdown:visible .ant-select-item-option')
            .first()
            .click();
          await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
        }
        await page.getByTestId('invite-create').click();
        await expect(page.getByTestId('invite-created-code')).toBeVisible();
        await shot('invite-created', false);
      });
    }
  });
}
