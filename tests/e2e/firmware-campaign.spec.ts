import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import type { FirmwareCampaign, FirmwareCampaignLift } from '@liftlink/protocol';
import { until } from '../../apps/server/test/support/ports.ts';
import { nextAddress, signIn, test as base } from './fixtures.ts';
import { createMakerUser, createOperatorOf, expect, LiftApi, liftServerFixture, type LiftServer } from './lift-fixture.ts';

/**
 * A firmware campaign (docs/firmware.md, "Campaigns") on a lift server of its own with the
 * four demo lifts, which trust their maker's key: one engineer creates it in the page and
 * cannot approve it, a second approves it in another browser; the canary goes first, then
 * the wave; DEMO-0002's download is cut and resumes, DEMO-0003's image arrives corrupted and
 * fails, DEMO-0004 is on a trip (an aging test) and waits until it stands; the others run
 * the new version, which the fleet list shows.
 */
const test = base.extend<object, { ownLiftServer: LiftServer }>({
  ownLiftServer: liftServerFixture,
  baseURL: async ({ ownLiftServer }, use) => use(ownLiftServer.url),
});

async function secondBrowser(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': nextAddress() } });
  await context.addInitScript(() => localStorage.setItem('liftlink.language', 'en-US'));
  return context.newPage();
}

/** An update's row on the operator's page Firmware updates. */
const updateRow = (page: Page, liftId: string) => page.getByTestId(`firmware-update-row-${liftId}`);

async function openCampaigns(page: Page, username: string, password: string): Promise<void> {
  await signIn(page, username, password);
  await page.waitForURL(/\/(dashboard|lift)\//);
  await page.goto('/manufacture/firmware?tab=campaigns');
}

test('two people start a campaign; the canary goes first, a lift on a trip waits, a cut download resumes, a corrupted image fails, the others run the new version', async ({ page, browser, ownLiftServer }) => {
  // The aging lift finishes the leg it is on before it stands (its slow sprocket drive), then
  // waits out its retry: about three minutes on a quiet machine.
  test.setTimeout(600_000);
  const { admin, url } = ownLiftServer;
  const anna = await createMakerUser(admin, 'manufacturerEngineer', 'Anna Engineer');
  const boris = await createMakerUser(admin, 'manufacturerEngineer', 'Boris Engineer');
  const annaApi = await LiftApi.on(url, anna.username, anna.password);
  const version = 'SIM-1.1.0';
  // The demo lifts' operator: it holds no firmware right, yet sees what will happen to its lifts.
  const liftIds = Object.fromEntries((await admin.lifts()).map((l) => [l.deviceNo!, l.id]));
  const olga = await createOperatorOf(admin, 'Riverside Accessibility Services', Object.values(liftIds));

  // Anna uploads the package in the page: for the four kinds of the demo lifts, over SIM-1.0.0.
  await openCampaigns(page, anna.username, anna.password);
  await page.goto('/manufacture/firmware');
  await page.getByRole('button', { name: 'New package' }).click();
  const packageDialog = page.getByRole('dialog');
  await packageDialog.getByLabel('Lift kinds').click();
  for (const kind of ['Inclined straight rack lift', 'Inclined two-dimensional rack lift', 'Inclined two-dimensional sprocket lift', 'Inclined three-dimensional sprocket lift'])
    await page.locator(`.ant-select-dropdown:visible [title="${kind}"]`).click();
  await page.keyboard.press('Escape');
  await packageDialog.getByLabel('Version', { exact: true }).fill(version);
  await packageDialog.getByLabel('Minimum version').fill('SIM-1.0.0');
  await packageDialog.getByLabel('Release notes (English)').fill('Gentler stop at the landings');
  await packageDialog.locator('input[type="file"]').setInputFiles({ name: 'sim-1.1.0.bin', mimeType: 'application/octet-stream', buffer: randomBytes(800_000) });
  await packageDialog.getByRole('button', { name: 'Create and upload' }).click();
  await expect(packageDialog).toBeHidden({ timeout: 30_000 });
  await expect(page.locator('tr', { hasText: version }).getByTestId('firmware-state-ready')).toBeVisible();

  // Anna creates the campaign in the page: a canary, then one wave of three, any time.
  await page.goto('/manufacture/firmware?tab=campaigns');
  await expect(page.getByTestId('campaign-empty')).toBeVisible();
  await page.getByRole('button', { name: 'New campaign' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Gentler stop');
  await dialog.getByLabel('Package').click();
  await page.locator(`.ant-select-dropdown:visible [title^="${version}"]`).click();
  await dialog.getByLabel('Canary lifts').fill('1');
  await dialog.getByLabel('Wave size').fill('3');
  await dialog.getByLabel('Pause between stages (min)').fill('0');
  await dialog.getByLabel('Failure threshold (%)').fill('50');
  await dialog.getByTestId('campaign-any-time').click();
  await dialog.getByTestId('campaign-preview-button').click();
  await expect(dialog.getByTestId('campaign-preview')).toContainText('DEMO-0001');
  await dialog.getByTestId('campaign-create').click();
  await expect(dialog).toBeHidden();

  const campaigns = async () => (await annaApi.call<{ list: FirmwareCampaign[] }>('GET', '/auth/access/firmware/campaigns')).result.list;
  const [created] = await campaigns();
  expect(created).toMatchObject({ name: 'Gentler stop', state: 'awaitingApproval', packageVersion: version });
  expect(created!.stages.map((s) => s.size)).toEqual([1, 3]);
  // Its author cannot approve it, and is told why.
  await page.getByTestId(`campaign-open-${created!.id}`).click();
  const drawer = page.getByTestId('campaign-drawer');
  await expect(drawer.getByTestId('campaign-approve')).toBeDisabled();
  await expect(drawer.getByTestId('campaign-approve-own')).toBeVisible();

  // DEMO-0004 runs an aging test (on a trip all the time) when the wave reaches it. The
  // organizations let aging run without a second person here, so the story needs no approval for it.
  const orgs = await admin.call<{ list: { id: string }[] }>('GET', '/auth/access/system/orgs');
  for (const org of orgs.result.list)
    await admin.call('POST', '/auth/access/system/orgs/approval-classes/update', { orgId: org.id, approvalClasses: ['deformation', 'selfLearning'] });
  const busy = await admin.lift('DEMO-0004');
  expect((await admin.control(busy.id, 'aging', { target: 'overall' })).status).toBe(200);
  await admin.waitForStatus(busy.id, (info) => info.status?.aging?.target === 'overall', 30_000);

  // The operator sees it planned for its lifts, waiting for the maker's approval; the campaigns themselves stay the maker's.
  const olgaPage = await secondBrowser(browser, url);
  await signIn(olgaPage, olga.username, olga.password);
  await olgaPage.waitForURL(/\/(dashboard|lift)\//);
  await olgaPage.goto('/lift/firmware-updates');
  const planned = updateRow(olgaPage, liftIds['DEMO-0001']!);
  await expect(planned.getByTestId('firmware-update-outlook-awaitingApproval')).toBeVisible();
  await expect(planned.getByTestId('firmware-update-version')).toContainText(version);
  await expect(planned.getByTestId('firmware-update-when')).toContainText("Waits for the maker's approval");
  expect((await (await LiftApi.on(url, olga.username, olga.password)).call('GET', '/auth/access/firmware/campaigns')).status).toBe(403);

  // Boris approves it in his browser.
  const borisPage = await secondBrowser(browser, url);
  await openCampaigns(borisPage, boris.username, boris.password);
  await borisPage.getByTestId(`campaign-open-${created!.id}`).click();
  await borisPage.getByTestId('campaign-drawer').getByTestId('campaign-approve').click();
  await expect(borisPage.getByTestId('campaign-drawer').getByTestId('campaign-state-running')).toBeVisible();

  // The canary alone first: the wave waits until it has ended.
  const liftsOf = async () => (await annaApi.call<{ list: FirmwareCampaignLift[] }>('GET', `/auth/access/firmware/campaigns/lifts?id=${created!.id}`)).result.list;
  const canaryDone = await until('the canary done', async () => {
    const lifts = await liftsOf();
    if (lifts.slice(1).some((l) => l.state !== 'waiting') && lifts[0]!.state !== 'done') throw new Error(`the wave started before the canary ended: ${JSON.stringify(lifts)}`);
    return lifts[0]!.state === 'done' ? lifts : null;
  }, 120_000, 250);
  expect(canaryDone[0]).toMatchObject({ deviceNo: 'DEMO-0001', stage: 0, runningVersion: version });

  // The lift on its trips waits for a safe moment, and the page says why; once it stands, it installs.
  const deferred = await until('DEMO-0004 deferred while on its trips', async () => {
    const l = (await liftsOf()).find((x) => x.deviceNo === 'DEMO-0004');
    return l?.state === 'deferred' ? l : null;
  }, 120_000, 250);
  expect(deferred.reason).toBe('inTrip');
  await expect(drawer.getByTestId(`campaign-reason-${deferred.liftId}`)).toContainText('The lift is on a trip or running a test');
  // The operator's page says so too (it asks again every few seconds).
  await expect(updateRow(olgaPage, deferred.liftId)).toContainText('The lift is on a trip or running a test', { timeout: 20_000 });
  expect((await admin.control(busy.id, 'aging', { target: 'stop' })).status).toBe(200);

  const ended = await until('the campaign done', async () => {
    const [c] = (await campaigns()).filter((x) => x.id === created!.id);
    return c!.state === 'done' ? c : null;
  }, 420_000, 1_000);
  expect(ended.stages.map((s) => [s.done, s.failed])).toEqual([[1, 0], [2, 1]]);
  const lifts = await liftsOf();
  expect(lifts.map((l) => [l.deviceNo, l.state])).toEqual([
    ['DEMO-0001', 'done'],
    ['DEMO-0002', 'done'],
    ['DEMO-0003', 'failed'],
    ['DEMO-0004', 'done'],
  ]);

  // Anna's open campaign shows it done, with the failed lift's reason in words.
  await expect(drawer.getByTestId('campaign-state-done')).toBeVisible({ timeout: 15_000 });
  const failed = lifts.find((l) => l.deviceNo === 'DEMO-0003')!;
  await expect(drawer.getByTestId(`campaign-reason-${failed.liftId}`)).toContainText('The image is corrupted (SHA-256 mismatch)');

  // The operator sees how it ended for each of its lifts, and each lift's logbook has it.
  await olgaPage.getByTestId('firmware-updates-show-all').click();
  await expect(updateRow(olgaPage, failed.liftId).getByTestId('firmware-update-outlook-failed')).toBeVisible({ timeout: 15_000 });
  await expect(updateRow(olgaPage, failed.liftId)).toContainText('The image is corrupted (SHA-256 mismatch)');
  await expect(updateRow(olgaPage, liftIds['DEMO-0001']!).getByTestId('firmware-update-outlook-done')).toBeVisible();
  const logbook = await admin.call<{ list: { kind: string; data: Record<string, unknown> }[] }>('POST', '/auth/access/lift/logbook/page', { liftId: failed.liftId });
  expect(logbook.result.list.filter((e) => e.kind === 'firmware').map((e) => [e.data.version, e.data.state, e.data.reason, e.data.campaignName])).toEqual([[version, 'failed', 'hashMismatch', 'Gentler stop']]);

  // The fleet list shows what each lift runs now.
  const fleet = await admin.lifts();
  expect(Object.fromEntries(fleet.map((l) => [l.deviceNo, l.firmware]))).toMatchObject({
    'DEMO-0001': version,
    'DEMO-0002': version,
    'DEMO-0003': 'SIM-1.0.0',
    'DEMO-0004': version,
  });
  // (a wide screen: narrower ones leave the firmware column to the lift's page)
  await page.setViewportSize({ width: 1680, height: 900 });
  await page.goto('/lift/list');
  await expect(page.locator('tr', { hasText: 'DEMO-0004' })).toContainText(version);
  await borisPage.context().close();
  await olgaPage.context().close();
});
