/**
 * First paint as a phone on a slow network sees it (issue 11). Starts the real server (free
 * ports, a temporary DATA_DIR, four simulated lifts) serving a private copy of the built
 * client, then opens it in Chromium with a slow-4G profile set through the DevTools protocol
 * (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, CPU slowed 4×) in a phone viewport:
 *
 *   1. the sign-in page, cold cache, no cookies (a first visit);
 *   2. signing in, until the landing page shows;
 *   3. the lift list (reloaded, with the cache the first two steps left), until its rows show;
 *   4. a lift page (likewise), until its live panel shows;
 *   5. and 6. the lift list and the lift page again with an emptied cache (a bookmark opened
 *      on a phone that has the session but not the files).
 *
 * For each: first contentful paint, largest contentful paint, time until usable, all counted
 * from the moment the page was asked for (a reload the page does itself is inside the figure),
 * plus the documents loaded and the bytes transferred (encodedDataLength of every response).
 * Prints a table of medians over BENCH_RUNS runs (default 3) and one JSON line. Asserts
 * nothing. Run after `npm run build` (BENCH_WEB_DIST=folder measures another built client):
 *
 *   npm run bench:first-paint
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { freePort } from '../apps/server/test/support/ports.ts';
import { startServerProcess } from '../apps/server/test/support/server-process.ts';
import { createPrivateDatabase, type PrivateDatabase } from './private-database.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The checkout whose server is started (another one to compare an older version). */
const serverRoot = process.env.BENCH_SERVER_ROOT ?? root;
const ADMIN_PASSWORD = 'Bench-Admin-Pass-2026!';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Slow 4G as Lighthouse's mobile preset has it. */
const PROFILE = {
  downKbps: 1_600,
  upKbps: 750,
  rttMs: 150,
  cpuSlowdown: 4,
};
const PHONE = { width: 390, height: 844 };

/** What marks each page as usable. */
const READY = {
  login: '[data-testid="login-form"]',
  landing: '[data-testid="greeting"]',
  list: '[data-testid="lift-link"]',
  lift: '[data-testid="panel-platform"]',
} as const;
type ReadyKey = keyof typeof READY;

interface Figures {
  fcpMs: number | null;
  lcpMs: number | null;
  usableMs: number;
  documents: number;
  requests: number;
  bytes: number;
}

const log = (s: string) => process.stderr.write(`${s}\n`);

/**
 * A fresh PostgreSQL database when one is reachable (BENCH_DATABASE_URL, TEST_DATABASE_URL or
 * the local default): a first start on PGlite initialises a whole cluster, which on a busy
 * machine takes longer than the server waits for it. Without PostgreSQL, PGlite.
 */
async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  let database: PrivateDatabase;
  try {
    database = await createPrivateDatabase('liftlink_first_paint', { connectTimeoutMs: 3_000, log });
  } catch {
    log('no PostgreSQL reachable: the server runs on PGlite');
    return { url: '', drop: async () => undefined };
  }
  // A database left behind costs nothing next to figures lost at the very end of a run.
  return { url: database.url, drop: () => database.drop().catch(() => undefined) };
}

async function startServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const dist = process.env.BENCH_WEB_DIST ?? path.join(root, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    log('apps/web/dist has no built client: run `npm run build` first.');
    process.exit(2);
  }
  // A private copy: a rebuild of apps/web/dist during the run would change what is measured.
  const webDist = path.join(mkdtempSync(path.join(tmpdir(), 'liftlink-first-paint-')), 'web');
  cpSync(dist, webDist, { recursive: true });
  const mqttPort = await freePort();
  const database = await freshDatabase();
  const server = await startServerProcess(
    (_port, url) => ({
      MQTT_PORT: String(mqttPort),
      SIMULATOR: '4',
      WEB_DIST: webDist,
      LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PUBLIC_URL: url,
      SMTP_URL: '',
      DATABASE_URL: database.url,
      MQTT_URL: '',
    }),
    { main: path.join(serverRoot, 'apps/server/src/main.ts'), ready: async (url) => (await fetch(`${url}/auth/Hi`)).ok, timeoutMs: 150_000 },
  ).catch(async (err: unknown) => {
    await database.drop();
    throw err;
  });
  const stop = async () => {
    await server.stop();
    await database.drop();
    rmSync(path.dirname(webDist), { recursive: true, force: true });
  };
  return { url: server.url, stop };
}

/**
 * In every document: FCP and LCP (buffered observers) and the moment each READY selector
 * first shows a box, all as epoch milliseconds so that they can be compared with the moment
 * the page was asked for, across a reload the page makes itself.
 */
function pageProbe(selectors: Record<string, string>): void {
  const w = window as unknown as { __bench: Record<string, number> };
  w.__bench = {};
  const at = (t: number) => performance.timeOrigin + t;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') w.__bench.fcp = at(e.startTime);
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__bench.lcp = at(e.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  const check = () => {
    for (const [key, selector] of Object.entries(selectors)) {
      if (w.__bench[key] !== undefined) continue;
      const el = document.querySelector(selector);
      if (el && el.getBoundingClientRect().height > 0) w.__bench[key] = at(performance.now());
    }
  };
  const start = () => {
    new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true, attributes: true });
    check();
  };
  if (document.documentElement) start();
  else document.addEventListener('DOMContentLoaded', start);
}

/** Counts what the network delivers: bytes on the wire, requests, documents. */
function netCounter(cdp: CDPSession) {
  let bytes = 0;
  let requests = 0;
  let documents = 0;
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    requests += 1;
  });
  cdp.on('Network.requestWillBeSent', (e) => {
    if (e.type === 'Document') documents += 1;
  });
  return {
    reset() {
      bytes = 0;
      requests = 0;
      documents = 0;
    },
    read: () => ({ bytes, requests, documents }),
  };
}

async function waitReady(page: Page, key: ReadyKey): Promise<Record<string, number>> {
  await page.locator(READY[key]).first().waitFor({ state: 'visible', timeout: 300_000 });
  // LCP may still move to a later, larger paint for a moment after the page is usable.
  await page.waitForTimeout(1_000);
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
  return page.evaluate(() => (window as unknown as { __bench: Record<string, number> }).__bench);
}

async function measureNavigation(
  page: Page,
  net: ReturnType<typeof netCounter>,
  url: string,
  key: ReadyKey,
): Promise<Figures> {
  net.reset();
  const start = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  const probe = await waitReady(page, key);
  const since = (t: number | undefined) => (t === undefined ? null : Math.round(t - start));
  return { fcpMs: since(probe.fcp), lcpMs: since(probe.lcp), usableMs: since(probe[key])!, ...net.read() };
}

async function oneRun(browser: Browser, url: string): Promise<Record<string, Figures>> {
  const context = await browser.newContext({
    viewport: PHONE,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  });
  // tsx compiles this file keeping function names (`__name(fn, "check")` around the probe's
  // inner functions); the page has no such helper, so it gets an identity one first.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await context.addInitScript(pageProbe, READY);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: PROFILE.rttMs,
    downloadThroughput: (PROFILE.downKbps * 1000) / 8,
    uploadThroughput: (PROFILE.upKbps * 1000) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PROFILE.cpuSlowdown });
  const net = netCounter(cdp);
  const out: Record<string, Figures> = {};

  out.signIn = await measureNavigation(page, net, `${url}/user/login`, 'login');

  net.reset();
  await page.locator('#username').fill('admin');
  await page.locator('#password').fill(ADMIN_PASSWORD);
  const clicked = await page.evaluate(() => performance.timeOrigin + performance.now());
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/dashboard\//, { timeout: 300_000 });
  const landing = await waitReady(page, 'landing');
  out.landing = {
    fcpMs: null,
    lcpMs: null,
    usableMs: Math.round(landing.landing! - clicked),
    ...net.read(),
  };

  out.list = await measureNavigation(page, net, `${url}/lift/list`, 'list');
  const href = await page.locator(READY.list).first().getAttribute('href');
  if (!href) throw new Error('the lift list shows no lift');
  out.lift = await measureNavigation(page, net, url + href, 'lift');

  await cdp.send('Network.clearBrowserCache');
  out.listCold = await measureNavigation(page, net, `${url}/lift/list`, 'list');
  await cdp.send('Network.clearBrowserCache');
  out.liftCold = await measureNavigation(page, net, url + href, 'lift');
  await context.close();
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

const LABELS: Record<string, string> = {
  signIn: 'sign-in page (first visit)',
  landing: 'sign in -> landing page',
  list: 'lift list',
  lift: 'lift page',
  listCold: 'lift list, empty cache',
  liftCold: 'lift page, empty cache',
};

const server = await startServer();
let browser: Browser | undefined;
try {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const runs: Record<string, Figures>[] = [];
  for (let i = 0; i < RUNS; i++) {
    log(`run ${i + 1} of ${RUNS}...`);
    runs.push(await oneRun(browser, server.url));
  }
  const summary: Record<string, Figures> = {};
  for (const key of Object.keys(LABELS)) {
    const pick = (f: (x: Figures) => number | null) => {
      const values = runs.map((r) => f(r[key]!)).filter((v): v is number => v !== null);
      return values.length ? median(values) : null;
    };
    summary[key] = {
      fcpMs: pick((x) => x.fcpMs),
      lcpMs: pick((x) => x.lcpMs),
      usableMs: pick((x) => x.usableMs)!,
      documents: pick((x) => x.documents)!,
      requests: pick((x) => x.requests)!,
      bytes: pick((x) => x.bytes)!,
    };
  }
  const s = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(2)} s`);
  console.log(
    `\nFirst paint, slow 4G (${PROFILE.downKbps / 1000} Mbit/s down, ${PROFILE.upKbps} kbit/s up, ${PROFILE.rttMs} ms RTT, CPU ${PROFILE.cpuSlowdown}x), ${PHONE.width}x${PHONE.height}, median of ${RUNS}\n`,
  );
  console.log(
    `${'step'.padEnd(28)}${'FCP'.padStart(9)}${'LCP'.padStart(9)}${'usable'.padStart(9)}${'docs'.padStart(6)}${'requests'.padStart(10)}${'KB'.padStart(9)}`,
  );
  for (const [key, label] of Object.entries(LABELS)) {
    const f = summary[key]!;
    console.log(
      `${label.padEnd(28)}${s(f.fcpMs).padStart(9)}${s(f.lcpMs).padStart(9)}${s(f.usableMs).padStart(9)}${String(f.documents).padStart(6)}${String(f.requests).padStart(10)}${(f.bytes / 1024).toFixed(1).padStart(9)}`,
    );
  }
  console.log(
    `\nGoals: sign-in FCP <= 1.8 s (${s(summary.signIn!.fcpMs)}), lift list usable <= 3.5 s (${s(summary.list!.usableMs)}; empty cache ${s(summary.listCold!.usableMs)}), lift page usable <= 4 s (${s(summary.lift!.usableMs)}; empty cache ${s(summary.liftCold!.usableMs)})`,
  );
  console.log(JSON.stringify({ bench: 'first-paint', profile: PROFILE, viewport: PHONE, runs: RUNS, summary }));
} finally {
  await browser?.close();
  await server.stop();
}
