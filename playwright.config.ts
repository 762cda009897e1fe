import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's Chromium against the real server (started by
 * tests/e2e/global-setup.ts on free ports with a temporary data folder).
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // Generous: the machines are small and shared with other test runs.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: true,
  // The machines have two cores: the server, Chromium and the workers share them.
  workers: 2,
  // In CI a failed test runs once more: the report lists one that then passes as "flaky",
  // and each such listing is a race to find (a slow machine has shown real ones: a notice
  // that never appeared, a Save that did nothing). Locally a failure stands at once.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  outputDir: 'test-results',
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'zh-CN',
    timezoneId: 'Europe/Berlin',
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    // The app's service worker (offline page) stays out of the way of the specs' network
    // routing; pwa.spec.ts allows it.
    serviceWorkers: 'block',
    launchOptions: {
      // The system's Chromium (Debian's package by default); never a downloaded browser.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
