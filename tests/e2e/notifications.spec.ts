import mqtt from 'mqtt';
import { signIn } from './fixtures.ts';
import { ADMIN, expect, registerBenchLift, test } from './lift-fixture.ts';

test('a lift fault reaches the header bell of a user who chose faults, live; opening it leads to the lift', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(120_000);
  const { admin } = liftServer;
  // A lift of its own (the simulated ones stay untouched), registered at the bench and
  // given credentials, speaking MQTT from this test.
  const { liftId, deviceNo, secret, mqttUrl } = await registerBenchLift(admin, 'ALERT');
  const choice = await admin.call('POST', '/auth/access/account/notifications/update', {
    mailFaults: true,
    mailHelp: false,
    mailOffline: false,
    offlineMinutes: 60,
    liftIds: [liftId],
  });
  expect(choice.status, choice.code).toBe(200);

  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);

  const lift = await mqtt.connectAsync(mqttUrl, {
    clientId: deviceNo,
    username: deviceNo,
    password: secret,
    reconnectPeriod: 0,
  });
  try {
    const ts = () => new Date().toISOString();
    const session = Date.now();
    await lift.publishAsync(
      `lifts/${deviceNo}/presence`,
      JSON.stringify({ seq: session, ts: ts(), online: true, session }),
      { qos: 1 },
    );
    await lift.publishAsync(
      `lifts/${deviceNo}/event`,
      JSON.stringify({ seq: session + 1, ts: ts(), code: 'EC' }),
      { qos: 1 },
    );

    // The count appears without a reload (the alert travels over the live socket).
    await expect(page.getByTestId('notification-count')).toHaveText('1', { timeout: 30_000 });
    await bell.click();
    const item = page.getByTestId('notification-item').filter({ hasText: deviceNo });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('data-read', 'false');
    await expect(item).toContainText('EC');
    await item.click();
    await page.waitForURL(new RegExp(`/lift/${liftId}$`));
    // Opened means read: the count is gone.
    await expect(page.getByTestId('notification-count')).toHaveCount(0);
  } finally {
    await lift.endAsync();
  }
});
