import mqtt, { type MqttClient } from 'mqtt';
import { signIn } from './fixtures.ts';
import { ADMIN, expect, registerBenchLift, test, type LiftApi } from './lift-fixture.ts';

/** A lift of its own (the simulated ones stay untouched) whose faults the admin chose to be told of. */
async function liftWhoseFaultsAdminFollows(admin: LiftApi, prefix: string) {
  const lift = await registerBenchLift(admin, prefix);
  const choice = await admin.call('POST', '/auth/access/account/notifications/update', {
    mailFaults: true,
    mailHelp: false,
    mailOffline: false,
    offlineMinutes: 60,
    liftIds: [lift.liftId],
  });
  expect(choice.status, choice.code).toBe(200);
  return lift;
}

/** Speaks MQTT as the lift, with its own credentials. */
function connectAs(lift: { deviceNo: string; secret: string; mqttUrl: string }) {
  return mqtt.connectAsync(lift.mqttUrl, {
    clientId: lift.deviceNo,
    username: lift.deviceNo,
    password: lift.secret,
    reconnectPeriod: 0,
  });
}

/** The lift comes online and reports the fault EC, speaking MQTT from the test. */
async function reportFault(client: MqttClient, deviceNo: string): Promise<void> {
  const ts = () => new Date().toISOString();
  const session = Date.now();
  await client.publishAsync(
    `lifts/${deviceNo}/presence`,
    JSON.stringify({ seq: session, ts: ts(), online: true, session }),
    { qos: 1 },
  );
  await client.publishAsync(
    `lifts/${deviceNo}/event`,
    JSON.stringify({ seq: session + 1, ts: ts(), code: 'EC' }),
    { qos: 1 },
  );
}

test('a lift fault reaches the header bell of a user who chose faults, live; opening it leads to the lift', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(120_000);
  const { liftId, deviceNo, secret, mqttUrl } = await liftWhoseFaultsAdminFollows(
    liftServer.admin,
    'ALERT',
  );

  await signIn(page, ADMIN.username, ADMIN.password);
  await page.waitForURL(/\/dashboard\//);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toBeVisible();
  await expect(page.getByTestId('notification-count')).toHaveCount(0);

  const lift = await connectAs({ deviceNo, secret, mqttUrl });
  try {
    await reportFault(lift, deviceNo);

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

test('an alert stored while the bell is still subscribing to the fleet reaches the bell at once, not at its next minute', async ({
  page,
  liftServer,
}) => {
  test.setTimeout(120_000);
  const { admin } = liftServer;
  const { deviceNo, secret, mqttUrl } = await liftWhoseFaultsAdminFollows(admin, 'GAP');
  const unread = async () =>
    (await admin.call<{ unread: number }>('GET', '/auth/access/notifications')).result.unread;
  const before = await unread();

  // Hold the page's fleet subscription on its way to the server: whatever is stored
  // meanwhile comes without a live message, as when a fault lands in the moment between
  // the bell's first read and the server taking its subscription.
  await page.addInitScript(() => {
    const send = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'send')!.value as (
      this: WebSocket,
      data: unknown,
    ) => void;
    const held: { socket: WebSocket; data: string }[] = [];
    const page = window as unknown as { fleetHeld: boolean; releaseFleet: () => void };
    page.fleetHeld = false;
    page.releaseFleet = () => held.splice(0).forEach(({ socket, data }) => send.call(socket, data));
    WebSocket.prototype.send = function (data) {
      if (typeof data === 'string' && data.includes('"subscribeFleet"')) {
        held.push({ socket: this, data });
        page.fleetHeld = true;
      } else send.call(this, data);
    };
  });
  const firstRead = page.waitForResponse((r) => r.url().endsWith('/auth/access/notifications'));

  await signIn(page, ADMIN.username, ADMIN.password);
  await firstRead;
  await page.waitForFunction(() => (window as unknown as { fleetHeld: boolean }).fleetHeld);

  const lift = await connectAs({ deviceNo, secret, mqttUrl });
  try {
    await reportFault(lift, deviceNo);
    await expect.poll(unread, { timeout: 30_000 }).toBe(before + 1);

    await page.evaluate(() => (window as unknown as { releaseFleet: () => void }).releaseFleet());
    // The bell reads again once the server confirms the subscription (it polls only each minute).
    await expect(page.getByTestId('notification-count')).toHaveText(String(before + 1), {
      timeout: 10_000,
    });
  } finally {
    await lift.endAsync();
  }
});
