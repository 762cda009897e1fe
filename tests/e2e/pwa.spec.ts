import { mkdirSync } from 'node:fs';
import { TcpProxy } from '../../apps/server/test/support/tcp-proxy.ts';
import { test, expect, serverUrl } from './fixtures.ts';
import { SCREENSHOT_LANGUAGES, SCREENSHOT_VIEWPORTS } from './screenshot-kit.ts';

/**
 * Issue 16, technicians on a phone: the web app installs as a PWA (a manifest with icons a
 * launcher can use) and a page opened without a network shows the offline page in the
 * user's language instead of the browser's error, and leaves it once the network is back.
 */
test.use({ serviceWorkers: 'allow' });

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

test('the app is installable: a manifest whose icons exist in the sizes it names', async ({
  page,
  request,
}) => {
  await page.goto('/user/login');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const res = await request.get(href!);
  expect(res.ok()).toBe(true);
  const manifest = (await res.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose: string }[];
  };
  expect(manifest.name).toBe('LiftLink');
  expect(manifest.start_url).toBe('/');
  expect(manifest.display).toBe('standalone');
  const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
  // Chromium's install criteria: 192 and 512 px; a maskable one for round launchers.
  expect(pngs.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(pngs.some((icon) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of pngs) {
    const file = await request.get(icon.src);
    expect(file.headers()['content-type'], icon.src).toBe('image/png');
    const { width, height } = pngSize(await file.body());
    expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
  }
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#F5222D');
});

test('when the server cannot be reached a page shows the offline page in the user language, and the app again once it can', async ({
  page,
  context,
}) => {
  // The page reaches the server through a relay whose line the test cuts: the browser's own
  // offline switch does not reach a service worker's requests.
  const line = await new TcpProxy(Number(new URL(serverUrl()).port)).listen();
  const site = `http://127.0.0.1:${line.port}`;
  try {
    await page.goto(`${site}/user/login`);
    await page.evaluate(() => localStorage.setItem('liftlink.language', 'ru-RU'));
    // The worker takes over the page it was registered from (clients.claim).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, {
      timeout: 30_000,
    });

    line.cut();
    await page.goto(`${site}/lift/list`);
    const offline = page.getByTestId('offline-page');
    await expect(offline.getByRole('heading')).toHaveText('Нет подключения к сети');
    await expect(offline.getByRole('img', { name: 'LiftLink' })).toBeVisible();
    // Still cut off: trying again keeps the offline page.
    await offline.getByRole('button', { name: 'Повторить' }).click();
    await expect(offline.getByRole('heading')).toHaveText('Нет подключения к сети');

    // The line is back: "try again" opens the app (the sign-in page, in Russian).
    line.restore();
    await offline.getByRole('button', { name: 'Повторить' }).click();
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
    await expect(page).toHaveURL(/\/user\/login/);

    // A phone that regains its network reloads the offline page by itself.
    line.cut();
    await page.goto(`${site}/lift/list`);
    await expect(offline.getByRole('heading')).toHaveText('Нет подключения к сети');
    line.restore();
    await context.setOffline(true);
    await context.setOffline(false);
    await expect(page.getByRole('button', { name: 'Войти' })).toBeVisible();
  } finally {
    await line.close();
  }
});

/** Opt-in (LIFTLINK_SCREENSHOTS=1): the offline page in three languages at desktop and phone width. */
test('screenshots of the offline page', async ({ page }) => {
  test.skip(!process.env.LIFTLINK_SCREENSHOTS, 'set LIFTLINK_SCREENSHOTS=1 to capture');
  mkdirSync('screenshots', { recursive: true });
  for (const language of SCREENSHOT_LANGUAGES) {
    for (const [viewport, size] of Object.entries(SCREENSHOT_VIEWPORTS)) {
      await page.setViewportSize(size);
      await page.goto('/offline.html');
      await page.evaluate((lang) => localStorage.setItem('liftlink.language', lang), language);
      await page.reload();
      await expect(page.getByTestId('offline-page').getByRole('button')).toBeVisible();
      await page.screenshot({ path: `screenshots/offline-${language}-${viewport}.png` });
    }
  }
});
