import type { Page } from '@playwright/test';
import { signIn } from './fixtures.ts';
import { ADMIN, expect, registerBenchLift, test, type LiftApi } from './lift-fixture.ts';

/**
 * Group configuration (docs/group-config.md) in Chromium against a server with simulated
 * lifts: DEMO-0001 and DEMO-0002 take the change, DEMO-0004 is on its way to floor 2 and
 * refuses (a moving lift takes no configuration), a lift registered at the bench never
 * connected and is offline (never sent). The results arrive live: after the page's first
 * read of the send, every further read is refused, so only the live socket can move them.
 */
test.describe.configure({ mode: 'default' });

/** Starts DEMO-0004's trip to floor 2 (about 90 s): it is busy while the group change arrives. */
async function startTrip(admin: LiftApi): Promise<void> {
  const lift = await admin.lift('DEMO-0004');
  const info = await admin.info(lift.id);
  const target = info.status?.floor === 2 ? 1 : 2;
  const res = await admin.control(lift.id, 'summon', { floor: target });
  expect(['accepted', 'done']).toContain(res.result.state);
  await admin.waitForStatus(lift.id, (i) => i.status?.targetFloor === target, 30_000);
}

async function chooseOption(page: Page, testId: string, search: string, title: string) {
  const select = page.getByTestId(testId);
  await select.click();
  await page.keyboard.type(search);
  await page.locator(`.ant-select-dropdown:visible [title="${title}"]`).click();
}

test('select lifts, change a field, review, send: done, refused and offline arrive live', async ({ page, liftServer }) => {
  test.setTimeout(180_000);
  const admin = liftServer.admin;
  const bench = await registerBenchLift(admin, 'GRP');

  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  await page.goto('/lift/group-config');
  await expect(page.getByText('No group change sent yet')).toBeVisible();

  await page.getByTestId('group-select-deviceNos').fill(`DEMO-0001\nDEMO-0002, DEMO-0004\n${bench.deviceNo.toLowerCase()}`);
  await page.getByTestId('group-next-changes').click();
  await chooseOption(page, 'group-fields', 'Voice', 'Voice system language');
  await page.keyboard.press('Escape');
  await chooseOption(page, 'group-input-voiceLanguage', '', 'English');

  await startTrip(admin);
  await page.getByTestId('group-review').click();
  await expect(page.getByTestId('group-review-summary')).toContainText('4 lifts selected: 3 will be sent, 1 will not');
  await expect(page.getByTestId(`group-outcome-${bench.deviceNo}`)).toHaveText('Offline: not sent');
  await expect(page.getByTestId('group-review-table')).toContainText('Chinese');

  let reads = 0;
  await page.route('**/auth/access/lift/group-config/get**', async (route) => {
    reads += 1;
    if (reads === 1) await route.continue();
    else await route.abort();
  });
  const sends: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/group-config/send')) sends.push(r.postData() ?? '');
  });
  await page.getByTestId('group-send').click();
  await page.getByTestId('group-send-confirm').click();
  await expect(page.getByTestId('group-results')).toBeVisible();

  await expect(page.getByTestId('group-state-DEMO-0001')).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(page.getByTestId('group-state-DEMO-0002')).toHaveAttribute('data-state', 'done');
  const refused = page.getByTestId('group-state-DEMO-0004');
  await expect(refused).toHaveAttribute('data-state', 'refused');
  await expect(refused).toContainText('The lift is busy with another operation');
  await expect(page.getByTestId(`group-state-${bench.deviceNo}`)).toHaveAttribute('data-state', 'offline');
  await expect(page.getByText('Every lift has its outcome')).toBeVisible();
  expect(sends).toHaveLength(1);

  // What the page showed is what the lifts run.
  const one = await admin.info((await admin.lift('DEMO-0001')).id);
  expect(one.config?.voiceLanguage).toBe('en');
  const four = await admin.info((await admin.lift('DEMO-0004')).id);
  expect(four.config?.voiceLanguage).toBe('zh');
  await expect(page.getByTestId('group-recent')).toContainText('Voice system language');
});
