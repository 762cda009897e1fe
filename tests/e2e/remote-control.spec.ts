import type { Browser, Page } from '@playwright/test';
import type { CommandRecord } from '@liftlink/protocol';
import { expectPageShows, nextAddress, signIn, test as base, watchRequests } from './fixtures.ts';
import { ADMIN, createMakerOperator, expect, liftServerFixture, type LiftServer } from './lift-fixture.ts';

/**
 * Safe remote control (docs/remote-control.md) with two people in two browsers on one lift.
 * The story presses a button on every simulated lift (local use pauses remote control of
 * all of them for 30 s), so it runs on a lift server of its own.
 */
const test = base.extend<object, { ownLiftServer: LiftServer }>({
  ownLiftServer: liftServerFixture,
  baseURL: async ({ ownLiftServer }, use) => use(ownLiftServer.url),
});

async function openLift(page: Page, username: string, password: string, liftId: string): Promise<void> {
  await signIn(page, username, password);
  await page.waitForURL(/\/(dashboard|lift)\//);
  await page.goto(`/lift/${liftId}`);
  await expectPageShows(page, page.getByTestId('lift-header'));
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'open');
}

/** A second person: a browser context of their own (own cookies, own client address), in English. */
async function secondBrowser(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': nextAddress() } });
  await context.addInitScript(() => localStorage.setItem('liftlink.language', 'en-US'));
  const page = await context.newPage();
  watchRequests(page);
  return page;
}

async function send(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Send' }).click();
}

test('one controller at a time, take-over, cancel, no double summon, approval, local use wins', async ({ page, browser, ownLiftServer }) => {
  test.setTimeout(240_000);
  const { admin } = ownLiftServer;
  const lift = await admin.lift('DEMO-0002');
  const olga = await createMakerOperator(admin, 'Olga Operator');
  const summons = async () => (await admin.call<{ list: CommandRecord[] }>('GET', `/auth/access/lift/commands?liftId=${lift.id}`)).result.list.filter((c) => c.name === 'summon');

  // Olga in this browser, the administrator (who may take control over) in another.
  await openLift(page, olga.username, olga.password, lift.id);
  const adminPage = await secondBrowser(browser, ownLiftServer.url);
  await openLift(adminPage, ADMIN.username, ADMIN.password, lift.id);

  // Olga takes control; the administrator sees who holds it and the movement controls disabled.
  await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'nobody');
  await page.getByTestId('control-take').click();
  await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'me');
  await expect(adminPage.getByTestId('control-holder')).toHaveAttribute('data-holder', 'other');
  await expect(adminPage.getByTestId('control-holder')).toContainText(olga.name);
  await expect(adminPage.getByTestId('cmd-summon-2')).toBeDisabled();
  // Stopping stays open to everyone allowed to control the lift.
  await expect(adminPage.getByTestId('cmd-pause')).toBeEnabled();
  // The server refuses what the page hides: a forced summon names the holder.
  const forced = await admin.control(lift.id, 'summon', { floor: 2 });
  expect(forced.code).toBe('lease.held');
  expect(JSON.stringify(forced.result)).toContain(olga.name);

  // The administrator takes over; Olga's page says who took it.
  await adminPage.getByTestId('control-takeover').click();
  await adminPage.getByTestId('control-takeover-confirm').click();
  await expect(adminPage.getByTestId('control-holder')).toHaveAttribute('data-holder', 'me');
  await expect(page.getByTestId('control-notice')).toHaveAttribute('data-reason', 'takenOver');
  await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'other');
  await expect(page.getByTestId('cmd-summon-2')).toBeDisabled();
  await adminPage.getByTestId('control-release').click();
  await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'nobody');

  // A summon cancelled in its first seconds never reaches the lift.
  await page.getByTestId('control-take').click();
  await expect(page.getByTestId('control-holder')).toHaveAttribute('data-holder', 'me');
  const before = (await summons()).length;
  await send(page, 'cmd-summon-2');
  const cancelled = page.getByTestId('command-progress').first();
  await cancelled.getByTestId('command-cancel').click();
  await expect(cancelled.getByTestId('command-state')).toHaveText('Cancelled');
  expect((await summons()).map((c) => c.state).slice(0, 1)).toEqual(['cancelled']);

  // A double-clicked summon runs once (the click that sends it is the confirmation's).
  await page.getByTestId('cmd-summon-2').click();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Send' }).dblclick();
  const accepted = page.getByTestId('command-progress').first();
  await expect(accepted).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
  const after = await summons();
  expect(after.length - before).toBe(2);
  expect(after.map((c) => c.state).slice(0, 2)).toEqual([expect.stringMatching(/^(accepted|done)$/), 'cancelled']);
  // Anyone allowed to control it may stop it.
  await adminPage.getByTestId('cmd-pause').click();
  await admin.waitForStatus(lift.id, (info) => info.status?.platform.movement === 'stop', 30_000);

  // An aging test waits for a second person's approval, then runs.
  // The lift's organization keeps aging under approval (the default): the click asks for a reason.
  await page.getByTestId('cmd-aging-overall').click();
  const dialog = page.getByTestId('approval-request-modal');
  await dialog.getByTestId('approval-reason').fill('Yearly endurance check after the motor was replaced');
  await page.getByTestId('approval-submit').click();
  await expect(page.getByTestId('approvals-list')).toContainText('Yearly endurance check');
  await expect(page.getByTestId('approval-approve')).toHaveCount(0);
  const pending = adminPage.getByTestId('approvals-list');
  await expect(pending).toContainText(olga.name);
  await pending.getByTestId('approval-approve').click();
  await adminPage.getByTestId('approval-approve-confirm').click();
  await expect(page.getByTestId('approval-state').first()).toHaveText('Approved', { timeout: 30_000 });
  await admin.waitForStatus(lift.id, (info) => info.status?.aging?.target === 'overall', 30_000);
  // Stopping the aging loop needs neither the lease nor an approval, nor a confirmation.
  await adminPage.getByTestId('cmd-aging-stop').click();
  await admin.waitForStatus(lift.id, (info) => info.status?.aging === null, 30_000);

  // Someone presses a button on the platform: the lease ends at once and the page says why.
  ownLiftServer.signalSimulator('SIGUSR2');
  await expect(page.getByTestId('control-notice')).toHaveAttribute('data-reason', 'localControl', { timeout: 20_000 });
  await expect(page.getByTestId('control-local')).toBeVisible();
  await expect(page.getByTestId('control-take')).toBeDisabled();
  await expect(adminPage.getByTestId('control-local')).toBeVisible();
  await adminPage.context().close();
});
