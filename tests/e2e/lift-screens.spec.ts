import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expectPageShows, signIn } from './fixtures.ts';
import { ADMIN, createMakerUser, expect, HEARTBEAT_SECONDS, LiftApi, test } from './lift-fixture.ts';

// One server with simulated lifts per worker: the tests of this file share it, each on a
// lift of its own, and run in order (the presence test pauses every simulated lift).
test.describe.configure({ mode: 'default' });

async function openLift(page: Page, liftId: string): Promise<void> {
  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  await page.goto(`/lift/${liftId}`);
  await expectPageShows(page, page.getByTestId('lift-header'));
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'open');
}

/** Takes the lift's remote control on this page (movement needs it); the same user may hold it already. */
async function takeControl(page: Page): Promise<void> {
  const holder = page.getByTestId('control-holder');
  await expect(holder).toHaveAttribute('data-holder', /^(me|nobody)$/);
  if ((await holder.getAttribute('data-holder')) === 'nobody') await page.getByTestId('control-take').click();
  await expect(holder).toHaveAttribute('data-holder', 'me');
}

/** Counts configuration writes the page sends: a wrong value must send none. */
function countConfigWrites(page: Page): () => number {
  let writes = 0;
  page.on('request', (request) => {
    if (request.url().includes('/lift/run/setting/update')) writes += 1;
  });
  return () => writes;
}

test('the list shows the simulated lifts with their state', async ({ page, liftServer }) => {
  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  await page.goto('/lift/list');
  const table = page.getByTestId('lift-table');
  for (const deviceNo of ['DEMO-0001', 'DEMO-0002', 'DEMO-0003', 'DEMO-0004'])
    await expect(table.getByRole('link', { name: deviceNo })).toBeVisible();
  const lift = await liftServer.admin.lift('DEMO-0002');
  await expect(page.getByTestId(`online-${lift.id}`)).toHaveAttribute('data-online', 'true');
  await expect(table).toContainText('Inclined two-dimensional rack lift');

  // Search and filter run on the server.
  await page.getByTestId('lift-search').locator('input').fill('DEMO-0003');
  await page.getByTestId('lift-search').locator('input').press('Enter');
  await expect(table.getByTestId('lift-link')).toHaveCount(1);
  await expect(table.getByRole('link', { name: 'DEMO-0003' })).toBeVisible();
});

test.describe('in Russian', () => {
  test.use({ uiLanguage: 'ru-RU' });

  test('summon to floor 2 moves the drawing and the run log shows RZY2 and RZD2', async ({
    page,
    liftServer,
  }) => {
    // A trip between two landings takes 35-45 s of simulated travel.
    test.setTimeout(300_000);
    const { admin } = liftServer;
    const lift = await admin.lift('DEMO-0001');
    const info = await admin.info(lift.id);
    if (info.status?.floor !== 1) {
      await admin.control(lift.id, 'summon', { floor: 1 });
      await admin.waitForStatus(
        lift.id,
        (i) => i.status?.floor === 1 && i.status.platform.movement === 'stop',
        150_000,
      );
    }

    await openLift(page, lift.id);
    // Open the run log once so it listens; what it shows later arrived live.
    await page.getByRole('tab', { name: 'Журнал работы' }).click();
    await expect(page.getByTestId('run-log-table')).toBeVisible();
    await page.getByRole('tab', { name: 'Мониторинг' }).click();

    const platform = page.getByTestId('shaft-platform');
    const start = Number(await platform.getAttribute('data-position'));
    await takeControl(page);
    await page.getByTestId('cmd-summon-2').click();
    const confirm = page.locator('.ant-modal-confirm');
    await expect(confirm).toContainText('Вызвать на этаж 2');
    await confirm.getByRole('button', { name: 'Отправить' }).click();

    const progress = page.getByTestId('command-progress').first();
    await expect(progress).toContainText('Вызвать на этаж 2');
    await expect(progress).toHaveAttribute('data-state', 'accepted', { timeout: 30_000 });
    await expect(progress).toContainText('Принята лифтом');
    await expect
      .poll(async () => Number(await platform.getAttribute('data-position')), { timeout: 30_000 })
      .toBeGreaterThan(start + 1_000);
    await expect(page.getByTestId('lift-movement')).toContainText('Вверх');

    await expect(progress).toHaveAttribute('data-state', 'done', { timeout: 180_000 });
    await expect(progress).toContainText('Выполнена');
    await expect(page.getByTestId('shaft-floor-2')).toHaveAttribute('data-current', 'true');
    await expect(page.getByTestId('platform-floor')).toHaveText('2');

    await page.getByRole('tab', { name: 'Журнал работы' }).click();
    const log = page.getByTestId('run-log-table');
    await expect(log.locator('tr[data-code="RZY2"]').first()).toContainText(
      'Целевой этаж 2 задан облачной командой',
    );
    await expect(log.locator('tr[data-code="RZD2"]').first()).toContainText('Прибытие на этаж 2');
  });
});

test('an overloaded lift refuses a summon and the page says why', async ({ page, liftServer }) => {
  test.setTimeout(120_000);
  const { admin } = liftServer;
  const lift = await admin.lift('DEMO-0002');
  // The lift's load cell reads load minus tare: with a tare of -200 kg and a rated load of
  // 50 kg the empty platform weighs in at 200 kg, over its rated load.
  expect(await admin.configure(lift.id, { tareValue: -200, ratedLoad: 50 })).toBe('ok');
  try {
    const info = await admin.waitForStatus(
      lift.id,
      (i) => i.status?.platform.overloaded === true,
      30_000,
    );
    await openLift(page, lift.id);
    await expect(page.getByTestId('lamp-overloaded')).toHaveAttribute('data-on', 'true');
    const target = info.status?.floor === 2 ? 3 : 2;
    await takeControl(page);
    await page.getByTestId(`cmd-summon-${target}`).click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Send' }).click();
    const progress = page.getByTestId('command-progress').first();
    await expect(progress).toHaveAttribute('data-state', 'rejected', { timeout: 30_000 });
    await expect(progress.getByTestId('command-reason')).toHaveText('The platform is overloaded');
  } finally {
    await admin.configure(lift.id, { tareValue: 0, ratedLoad: 250 });
  }
});

test('a locked lift refuses movement with its reason; lock and unlock need no confirmation', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(120_000);
  const lift = await liftServer.admin.lift('DEMO-0004');
  // The demo lifts make random local trips; a moving lift refuses the lock (rightly).
  await liftServer.admin.waitForStatus(
    lift.id,
    (i) => i.status?.platform.movement === 'stop',
    60_000,
  );
  await openLift(page, lift.id);
  try {
    await page.getByTestId('cmd-lock-true').click();
    const progress = page.getByTestId('command-progress');
    await expect(progress.first()).toHaveAttribute('data-command', 'lock');
    await expect(progress.first()).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
    await expect(page.getByTestId('lift-mode')).toContainText('Lockout');

    await takeControl(page);
    await page.getByTestId('cmd-summon-2').click();
    await page.locator('.ant-modal-confirm').getByRole('button', { name: 'Send' }).click();
    await expect(progress.first()).toHaveAttribute('data-state', 'rejected', { timeout: 30_000 });
    await expect(progress.first().getByTestId('command-reason')).toHaveText(
      'The lift is locked out',
    );

    await page.getByTestId('cmd-lock-false').click();
    await expect(progress.first()).toHaveAttribute('data-state', 'done', { timeout: 30_000 });
  } finally {
    await liftServer.admin.control(lift.id, 'lock', { on: false });
  }
});

test('a configuration change is sent after a review and read back from the lift', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(120_000);
  const { admin } = liftServer;
  const lift = await admin.lift('DEMO-0003');
  const before = (await admin.info(lift.id)).config?.voiceLanguage;
  const next =
    before === 'en' ? { value: 'zh', label: 'Chinese' } : { value: 'en', label: 'English' };
  await openLift(page, lift.id);
  await page.getByRole('tab', { name: 'Configuration' }).click();
  const flow = page.getByTestId('config-flow');
  await expect(flow).toHaveAttribute('data-flow', 'disabled');
  await expect(page.getByTestId('config-input-voiceLanguage')).toHaveClass(/disabled/);

  await page.getByTestId('config-edit').click();
  await expect(flow).toHaveAttribute('data-flow', 'enabled');
  await page.getByTestId('config-input-voiceLanguage').click();
  await page.locator(`.ant-select-item-option[title="${next.label}"]`).click();
  await page.getByTestId('config-review').click();

  const diff = page.getByTestId('config-diff');
  await expect(diff.locator('tr[data-key]')).toHaveCount(1);
  await expect(diff.locator('tr[data-key="voiceLanguage"]')).toContainText(next.label);
  await page.getByTestId('config-send').click();
  // A lift configured before asks whether to reconfigure.
  const reconfigure = page
    .locator('.ant-modal-confirm')
    .getByRole('button', { name: 'Reconfigure' });
  const saved = page.getByText('Modification successful');
  // Wait for whichever comes: the question (the modal may open a moment after the click) or the outcome.
  await expect(reconfigure.or(saved).first()).toBeVisible({ timeout: 30_000 });
  if (await reconfigure.isVisible()) await reconfigure.click();
  await expect(saved).toBeVisible({ timeout: 30_000 });
  await expect(flow).toHaveAttribute('data-flow', 'saved');

  await page.getByTestId('config-read').click();
  await expect(page.getByText(/Configuration read from the lift \(version \d+\)/)).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('config-input-voiceLanguage')).toContainText(next.label);
  expect((await admin.info(lift.id)).config?.voiceLanguage).toBe(next.value);
  await expect(
    page.getByTestId('config-history').locator('tbody tr.ant-table-row').first(),
  ).toContainText('admin');
});

test('wrong values in the form or in a file show the right message and nothing is sent', async ({
  page,
  liftServer,
}, testInfo) => {
  test.setTimeout(120_000);
  const { admin } = liftServer;
  const lift = await admin.lift('DEMO-0003');
  const info = await admin.info(lift.id);
  const writes = countConfigWrites(page);
  await openLift(page, lift.id);
  await page.getByRole('tab', { name: 'Configuration' }).click();
  await page.getByTestId('config-edit').click();

  const item = (key: string) =>
    page.locator('.ant-form-item').filter({ has: page.getByTestId(`config-input-${key}`) });
  await page.getByRole('tab', { name: 'Platform' }).click();
  await page.getByTestId('config-input-ratedLoad').fill('');
  await page.getByTestId('config-input-ratedLoad').blur();
  await expect(item('ratedLoad')).toContainText('Input cannot be empty');

  await page.getByRole('tab', { name: 'Housing' }).click();
  await page.getByTestId('config-input-rapidSpeed').fill('999');
  await expect(item('rapidSpeed')).toContainText('Must be at or below 150');
  const relative = Number(info.config?.parkingRelative1 ?? 0);
  await page.getByTestId('config-input-parkingRelative1').fill(String(relative + 600));
  await expect(item('parkingRelative1')).toContainText(
    'May change by at most ±500 from the current value',
  );
  await page.getByTestId('config-input-lowValue').fill('19999');
  await expect(item('lowValue')).toContainText('A configured value must be at least 20000');

  await page.getByTestId('config-review').click();
  await expect(page.getByTestId('config-diff')).toBeHidden();
  await page.getByTestId('config-cancel').click();

  // A file with wrong values: every problem is listed, nothing is sent.
  mkdirSync(testInfo.outputDir, { recursive: true });
  const file = path.join(testInfo.outputDir, 'bad-config.json');
  writeFileSync(
    file,
    JSON.stringify({
      type: 'liftlink-config',
      formatVersion: 1,
      deviceNo: 'DEMO-0003',
      kind: lift.kind,
      floors: lift.floors,
      configVersion: info.lift.configVersion,
      exportedAt: new Date().toISOString(),
      config: { ...info.config, rapidSpeed: 999, lowValue: 100 },
    }),
  );
  await page.getByTestId('config-panel').locator('input[type=file]').setInputFiles(file);
  const problem = page.getByTestId('config-import-problem');
  await expect(problem).toContainText('The configuration file has errors; nothing was sent');
  await expect(problem).toContainText('Rapid section speed: Must be at or below 150');
  await expect(problem).toContainText('Low value: A configured value must be at least 20000');
  await expect(page.getByTestId('config-flow')).toHaveAttribute('data-flow', 'disabled');

  const notJson = path.join(testInfo.outputDir, 'not-json.json');
  writeFileSync(notJson, '{ this is not json');
  await page.getByTestId('config-panel').locator('input[type=file]').setInputFiles(notJson);
  await expect(problem).toContainText('The file is not valid JSON');
  expect(writes()).toBe(0);
});

test('a viewer sees no command or edit control, and the server refuses the forced request', async ({
  page,
  liftServer,
}) => {
  const { admin } = liftServer;
  const { username, password } = await createMakerUser(admin, 'viewer', 'E2E viewer');
  const lift = await admin.lift('DEMO-0001');

  await signIn(page, username, password);
  await page.waitForURL(/\/dashboard\//);
  await page.goto('/lift/list');
  await expectPageShows(page, page.getByTestId('lift-table').getByRole('link', { name: 'DEMO-0001' }));
  await expect(page.locator('[data-testid^="edit-location-"]')).toHaveCount(0);
  await expect(page.locator('.ant-typography-edit')).toHaveCount(0);

  await page.goto(`/lift/${lift.id}`);
  await expect(page.getByTestId('panel-drawing')).toBeVisible();
  await expect(page.getByTestId('panel-platform')).toBeVisible();
  await expect(page.getByTestId('commands-panel')).toHaveCount(0);
  await expect(page.locator('[data-testid^="cmd-"]')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Run log' }).click();
  await expect(page.getByTestId('run-log-table')).toBeVisible();
  await expect(page.getByTestId('run-log-export')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Configuration' }).click();
  await expect(page.getByTestId('config-form')).toBeVisible();
  await expect(page.getByTestId('config-edit')).toHaveCount(0);
  await expect(page.getByTestId('config-import')).toHaveCount(0);

  const viewer = await LiftApi.on(liftServer.url, username, password);
  const forced = await viewer.control(lift.id, 'summon', { floor: 2 });
  expect([forced.status, forced.code]).toEqual([403, 'forbidden']);
  const info = await admin.info(lift.id);
  const write = await viewer.call('POST', '/auth/access/lift/run/setting/update', {
    liftId: lift.id,
    config: info.config,
    version: info.lift.configVersion,
    confirmReconfigure: true,
  });
  expect([write.status, write.code]).toEqual([403, 'forbidden']);
  const alias = await viewer.call('POST', '/auth/access/lift/alias/update', {
    liftId: lift.id,
    alias: 'x',
  });
  expect(alias.status).toBe(403);
});

test('a lift that stops talking turns offline within the heartbeat window, live', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(180_000);
  const lift = await liftServer.admin.lift('DEMO-0001');
  await openLift(page, lift.id);
  await expect(page.getByTestId('lift-online')).toHaveAttribute('data-online', 'true');
  // Pausing the simulator process silences every simulated lift at once (the same as a
  // lift losing power without a last will reaching the broker yet).
  liftServer.signalSimulator('SIGSTOP');
  try {
    const stoppedAt = Date.now();
    // The server sweeps every HEARTBEAT/3 s; the browser hears it over the live socket.
    await expect(page.getByTestId('lift-online')).toHaveAttribute('data-online', 'false', {
      timeout: (HEARTBEAT_SECONDS * 2 + 10) * 1_000,
    });
    expect(Date.now() - stoppedAt).toBeLessThan((HEARTBEAT_SECONDS * 2 + 10) * 1_000);
    // The note dates the status shown by when the lift was last heard, though a standing lift
    // repeats its status and the server pushes only changes (in the browser's time zone).
    const { lastSeenAt } = (await liftServer.admin.info(lift.id)).lift;
    const heard = new Date(lastSeenAt!).toLocaleString('sv-SE', { timeZone: 'Europe/Berlin' });
    await expect(page.getByTestId('lift-offline-note')).toContainText(heard);
    await expect(page.getByTestId('commands-offline')).toBeVisible();
    await expect(page.getByTestId('cmd-summon-2')).toBeDisabled();
  } finally {
    liftServer.signalSimulator('SIGCONT');
  }
  await expect(page.getByTestId('lift-online')).toHaveAttribute('data-online', 'true', {
    timeout: 60_000,
  });
});

test('a lift page is named by its alias, else its device number, in its tab and window title', async ({
  page,
  liftServer,
}) => {
  const { admin } = liftServer;
  const named = await admin.lift('DEMO-0003');
  const unnamed = await admin.lift('DEMO-0002');
  const alias = `Staircase B ${Date.now().toString(36)}`;
  const saved = await admin.call('POST', '/auth/access/lift/alias/update', {
    liftId: named.id,
    alias,
  });
  expect(saved.status).toBe(200);
  await admin.call('POST', '/auth/access/lift/alias/update', { liftId: unnamed.id, alias: '' });

  await openLift(page, named.id);
  const tabs = page.getByTestId('multi-tab');
  await expect(tabs.getByText(`Lift · ${alias}`)).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^Lift · ${alias} - `));
  await expect(tabs).not.toContainText(named.id.slice(0, 8));

  // In the app (as a link does), so both lifts have their tabs.
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/lift/${unnamed.id}`);
  await expect(tabs.getByText('Lift · DEMO-0002')).toBeVisible();
  await expect(page).toHaveTitle(/^Lift · DEMO-0002 - /);
  // The first lift's tab keeps its name.
  await expect(tabs.getByText(`Lift · ${alias}`)).toBeVisible();
  await expect(tabs).not.toContainText(unnamed.id.slice(0, 8));
});
