import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import mqtt from 'mqtt';
import type { Page } from '@playwright/test';
import { test, expect, Api, asAdmin, createUser, serverUrl, signIn } from './fixtures.ts';
import { Bench } from './manufacture-fixture.ts';

/**
 * Issue 7 end to end: real Chromium, socat cables, simulated controllers on one end and
 * the serial bridge on the other. The bench provisions a controller (handshake, device
 * number, IoT credentials written over the cable) and the lift comes online; a controller
 * whose number belongs to another gives "does not match", a taken number "registered",
 * a reset credential is refused by the broker, and a stopped bridge "cannot be opened".
 */
test.describe.configure({ mode: 'serial' });

const LANGUAGES = ['zh-CN', 'en-US', 'ru-RU'] as const;
const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

async function chooseLanguage(page: Page, language: (typeof LANGUAGES)[number]): Promise<void> {
  await page.getByTestId('language-select').click();
  await page
    .locator(`.ant-dropdown:visible .ant-dropdown-menu-item span[lang="${language}"]`)
    .click();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

const toast = (page: Page) => page.locator('.ant-message');

/** The port path box of the serial panel (antd puts the test id on the select's root). */
const portInput = (page: Page) =>
  page.locator('[data-testid="serial-path"] input, input[data-testid="serial-path"]').first();

async function openPort(page: Page, path: string): Promise<void> {
  await portInput(page).fill(path);
  await page.keyboard.press('Escape');
  await page.getByTestId('serial-open').click();
  await expect(page.getByTestId('serial-status')).toHaveText('Serial port opened');
}

function refusal(url: string, deviceNo: string, secret: string): Promise<string> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, {
      clientId: `${deviceNo}`,
      username: deviceNo,
      password: secret,
      reconnectPeriod: 0,
      connectTimeout: 5_000,
    });
    client.once('connect', () => {
      client.end(true);
      resolve('connected');
    });
    client.once('error', (e) => {
      client.end(true);
      resolve(e.message);
    });
  });
}

test('factory bench: provision a controller over the serial bridge until the lift is online, then the refusals', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const bench = new Bench();
  const suffix = Date.now().toString(36).slice(-5).toUpperCase();
  const deviceNo = `E2E-${suffix}`;
  const serialA = `CTL-A-${suffix}`;
  const serialB = `CTL-B-${suffix}`;
  try {
    const admin = await asAdmin();
    const orgs = await admin.call<{ list: { id: string; kind: string }[] }>(
      'GET',
      '/auth/access/system/orgs',
    );
    const maker = orgs.result.list.find((o) => o.kind === 'manufacturer')!;
    const engineer = await createUser('manufacturerEngineer', { orgId: maker.id });
    const api = await Api.login(engineer.username, engineer.password);

    const cableA = await bench.cable('a');
    const cableB = await bench.cable('b');
    const controllerA = await bench.controller(cableA.controller, serialA, 'inclined2dRack', 3);
    const bridge = await bench.bridge(serverUrl(), [cableA.pc, cableB.pc]);

    await page.addInitScript(
      (port) => localStorage.setItem('liftlink.bridge.port', String(port)),
      bridge.port,
    );
    await signIn(page, engineer.username, engineer.password);
    await page.waitForURL(/dashboard\/workplace/);
    await page.goto('/manufacture/device');
    await expect(page.getByTestId('serial-panel')).toBeVisible();
    await chooseLanguage(page, 'en-US');

    await test.step('register the plugin with a one-time code typed into the bridge', async () => {
      await page.getByTestId('mode-bridge').click();
      await page.getByTestId('bridge-register').click();
      const code = (await page.getByTestId('pairing-code').textContent())!.trim();
      expect(code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
      await page.screenshot({ path: 'screenshots/manufacture/en-US-pairing.png' });
      await bridge.pair(code);
      await expect(page.getByTestId('bridge-status')).toHaveText(
        `Plugin registered (${engineer.username})`,
      );
    });

    await test.step('open the port and read the handshake of a new controller', async () => {
      await openPort(page, cableA.pc);
      await expect(page.getByTestId('handshake-serial')).toHaveText(serialA);
      await expect(page.getByTestId('handshake')).toContainText(
        'Inclined two-dimensional rack lift',
      );
      await expect(page.getByTestId('no-device-no')).toHaveText(
        'The device has not been assigned a device number',
      );
      // opening gave no error on the way (listing ports and opening share the bridge connection)
      await expect(page.locator('.ant-message .anticon-close-circle')).toHaveCount(0);
    });

    let secret = '';
    await test.step('assign a device number, get new IoT credentials and write them over the cable', async () => {
      await page.getByTestId('assign-input').fill(deviceNo);
      await page.getByTestId('assign-submit').click();
      await expect(page.getByTestId('handshake-device-no')).toHaveText(deviceNo);
      await page.getByTestId('new-iot').click();
      await expect(page.getByTestId('iot-secret-modal')).toContainText(
        'The credentials are written to the device',
      );
      secret = (await page.getByTestId('iot-secret').textContent())!.trim();
      expect(secret.length).toBeGreaterThanOrEqual(40);
      const flash = JSON.parse(readFileSync(controllerA.stateFile, 'utf8')) as {
        deviceNo: string;
        credentials: { secret: string; mqttUrl: string };
      };
      expect(flash.deviceNo).toBe(deviceNo);
      expect(flash.credentials.secret).toBe(secret);
      await page.screenshot({ path: 'screenshots/manufacture/en-US-secret.png' });
      await page.getByRole('button', { name: 'Done' }).click();
      // The maker's firmware signing key went with them: the controller trusts it, and says so.
      const key = await api.call<{ keyId: string; publicKey: string }>('GET', '/manufacture/firmware/signing-key');
      await expect
        .poll(() => (JSON.parse(readFileSync(controllerA.stateFile, 'utf8')) as { firmwareKeys?: unknown[] }).firmwareKeys, { timeout: 15_000 })
        .toEqual([{ keyId: key.result.keyId, publicKey: key.result.publicKey }]);
      await expect(page.getByTestId('handshake-firmware-key')).toHaveText(key.result.keyId);
    });

    await test.step('the lift comes online in the fleet list with its new credentials', async () => {
      await expect
        .poll(
          async () =>
            (
              await api.call<{
                list: { deviceNo: string; online: boolean; kind: string; floors: number }[];
              }>('GET', `/auth/access/lift/get?keyword=${deviceNo}`)
            ).result.list[0],
          { timeout: 30_000 },
        )
        .toMatchObject({ deviceNo, online: true, kind: 'inclined2dRack', floors: 3 });
      await expect(async () => {
        await page.getByTestId('refresh-handshake').click();
        await expect(page.getByTestId('handshake-mqtt')).toHaveText('Online', { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(page.getByTestId('cloud-online')).toHaveText('Online');
    });

    await test.step('polling channel, data conversion, device port and configuration reach the controller', async () => {
      await page.getByRole('tab', { name: 'Polling channels' }).click();
      await page.getByTestId('channel-enabled').click();
      await page.getByTestId('channel-slaveAddress').fill('7');
      await page.getByTestId('channel-save').click();
      await expect(toast(page)).toContainText('Channel 1 polling parameter set up successfully');

      await page.getByRole('tab', { name: 'Data conversion' }).click();
      await page.getByTestId('conversion-add').click();
      await page.getByPlaceholder('e.g. motorTemp').fill('oilTemp');
      await page.getByTestId('conversion-save').click();
      await expect(toast(page)).toContainText('Data conversion set up successfully');

      await page.getByRole('tab', { name: 'Device port' }).click();
      await page.getByTestId('field-port-save').click();
      await expect(toast(page)).toContainText('Serial port set up successfully');

      await page.getByRole('tab', { name: 'Configuration', exact: true }).click();
      await page.getByTestId('config-read').click();
      await expect(toast(page)).toContainText('Configuration read from the device (version 0)');
      await page.getByTestId('config-save-device').click();
      await expect(toast(page)).toContainText('Configuration saved to the device (version 1)');
      const flash = JSON.parse(readFileSync(controllerA.stateFile, 'utf8')) as {
        channels: { enabled: boolean; slaveAddress: number }[];
        conversions: { key: string }[];
        config: { version: number };
      };
      expect(flash.channels[0]).toMatchObject({ enabled: true, slaveAddress: 7 });
      expect(flash.conversions.map((c) => c.key)).toEqual(['oilTemp']);
      expect(flash.config.version).toBe(1);
    });

    await test.step('screenshots of the bench in three languages, desktop and phone', async () => {
      for (const language of LANGUAGES) {
        await page.setViewportSize(VIEWPORTS.desktop);
        await chooseLanguage(page, language);
        // the notices of the steps before are gone, so the pictures show the page alone
        await expect(page.locator('.ant-message-notice')).toHaveCount(0, { timeout: 10_000 });
        for (const [name, viewport] of Object.entries(VIEWPORTS)) {
          mkdirSync('screenshots/manufacture', { recursive: true });
          await page.setViewportSize(viewport);
          await page.waitForTimeout(400);
          await page.screenshot({
            path: `screenshots/manufacture/${language}-${name}.png`,
            fullPage: true,
          });
          // Nothing may stick out sideways (a phone must not scroll horizontally).
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(viewport.width);
          if (name === 'phone') {
            // The phone page is long: each card on its own, at full size, for a person to read.
            for (const card of ['serial-panel', 'device-panel', 'settings-card']) {
              await page.getByTestId(card).screenshot({
                path: `screenshots/manufacture/${language}-phone-${card}.png`,
              });
            }
          }
        }
      }
      await page.setViewportSize(VIEWPORTS.desktop);
      await chooseLanguage(page, 'en-US');
    });

    await test.step("a controller holding another controller's number: 'does not match'; its number again: 'registered'", async () => {
      // Controller B's flash says it is deviceNo (a board with a copied flash).
      const flashB = {
        format: 1,
        identity: {
          controllerSerial: serialB,
          kind: 'inclinedStraightRack',
          floors: 2,
          firmware: 'SIM-1.0.0',
        },
        deviceNo,
        credentials: null,
        config: null,
        channels: Array.from({ length: 10 }, () => ({
          enabled: false,
          slaveAddress: 1,
          functionCode: 3,
          startRegister: 0,
          count: 10,
          intervalMs: 1000,
          timeoutMs: 300,
          retries: 1,
        })),
        conversions: [],
        fieldPort: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
      };
      writeFileSync(`${bench.dir}/${serialB}.json`, JSON.stringify(flashB));
      await bench.controller(cableB.controller, serialB);
      await page.getByTestId('serial-close').click();
      await openPort(page, cableB.pc);
      await expect(page.getByTestId('handshake-serial')).toHaveText(serialB);
      await page.getByTestId('update-iot-info').click();
      const problem = page.getByTestId('bench-problem');
      await expect(problem).toContainText('The device does not match');
      await problem.getByRole('button', { name: 'Refresh list' }).click();
      await expect(problem).toBeHidden();

      await page.getByTestId('assign-input').fill(deviceNo);
      await page.getByTestId('assign-submit').click();
      await expect(toast(page)).toContainText('The device has been registered, check and retry');
    });

    await test.step('a reset credential is refused by the broker at once', async () => {
      await page.getByTestId('serial-close').click();
      await openPort(page, cableA.pc);
      await expect(page.getByTestId('handshake-device-no')).toHaveText(deviceNo);
      await page.getByTestId('reset-iot').click();
      await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
      await expect(toast(page)).toContainText('IoT credentials reset');
      const flash = JSON.parse(readFileSync(controllerA.stateFile, 'utf8')) as {
        credentials: { mqttUrl: string };
      };
      expect(await refusal(flash.credentials.mqttUrl, deviceNo, secret)).toMatch(
        /not authorized|bad user/i,
      );
      await expect
        .poll(
          async () =>
            (
              await api.call<{ list: { online: boolean }[] }>(
                'GET',
                `/auth/access/lift/get?keyword=${deviceNo}`,
              )
            ).result.list[0]?.online,
          { timeout: 30_000 },
        )
        .toBe(false);
      await expect(async () => {
        await page.getByTestId('refresh-handshake').click();
        await expect(page.getByTestId('handshake-mqtt')).toHaveText('Refused', { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
    });

    await test.step("the bridge stopped: 'the serial port cannot be opened'", async () => {
      await bridge.stop();
      await expect(page.getByTestId('serial-status')).toHaveText('Serial port closed');
      await page.getByTestId('serial-open').click();
      await expect(toast(page)).toContainText(
        'The serial port cannot be opened, re-insert the serial device',
      );
    });
  } finally {
    await bench.close();
  }
});
