import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Locator, type Page, type Request } from '@playwright/test';
import { freePort } from '../../apps/server/test/support/ports.ts';
import {
  startServerProcess,
  type ServerProcess,
} from '../../apps/server/test/support/server-process.ts';

export const ADMIN = { username: 'admin', password: 'E2e-Admin-Pass-2026!' };

export function serverUrl(): string {
  const url = process.env.LIFTLINK_E2E_URL;
  if (!url)
    throw new Error('LIFTLINK_E2E_URL is not set: run through playwright.config.ts (global setup)');
  return url;
}

/**
 * A LiftLink server of a spec's own, in the embedded mode the tests' main server runs
 * (global-setup.ts): a free MQTT port, the tests' administrator, X-Forwarded-For trusted,
 * mails to DATA_DIR/outbox, no external database or broker; `env` adds or overrides settings.
 */
export async function startOwnServer(
  env: Record<string, string>,
  timeoutMs = 150_000,
): Promise<ServerProcess> {
  const mqttPort = await freePort();
  return startServerProcess(
    (_port, url) => ({
      MQTT_PORT: String(mqttPort),
      LIFTLINK_ADMIN_PASSWORD: ADMIN.password,
      PUBLIC_URL: url,
      TRUST_PROXY: 'true',
      SMTP_URL: '',
      DATABASE_URL: '',
      MQTT_URL: '',
      ...env,
    }),
    { ready: async (url) => (await fetch(`${url}/auth/Hi`)).ok, timeoutMs },
  );
}

let addressCounter = 0;
/** A client address of its own per test (the server trusts X-Forwarded-For in e2e). */
export function nextAddress(): string {
  addressCounter += 1;
  const n = (process.pid % 200) * 10_000 + addressCounter;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * Every test gets the server's URL, its own client address and (unless it sets `uiLanguage`)
 * the English interface, chosen the way a user does: the stored language of the browser.
 */
export const test = base.extend<{ uiLanguage: string | null }>({
  uiLanguage: ['en-US', { option: true }],
  // Playwright's fixture signature needs the (empty) destructuring.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(serverUrl()),
  // eslint-disable-next-line no-empty-pattern
  extraHTTPHeaders: async ({}, use) => use({ 'X-Forwarded-For': nextAddress() }),
  page: async ({ page, uiLanguage }, use) => {
    watchRequests(page);
    if (uiLanguage) {
      await page.addInitScript((lng) => {
        if (!localStorage.getItem('liftlink.language'))
          localStorage.setItem('liftlink.language', lng);
      }, uiLanguage);
    }
    await use(page);
  },
});
export { expect };

/**
 * A small API client for set-up steps (creating users) as some user, against the tests'
 * server or another (`url`), from a client address of its own.
 */
export class Api {
  private cookies = new Map<string, string>();
  private token: string | null = null;
  constructor(
    readonly url: string = serverUrl(),
    private readonly address: string = nextAddress(),
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call<T>(
    method: 'GET' | 'POST',
    apiPath: string,
    body?: unknown,
  ): Promise<{ status: number; code: string; result: T }> {
    if (!this.cookies.has('XSRF-TOKEN')) await this.raw('GET', '/auth/Hi');
    return this.raw<T>(method, apiPath, body);
  }

  /** POSTs `bytes` as the raw body (file uploads such as a firmware image). */
  async upload<T>(
    apiPath: string,
    bytes: Buffer,
  ): Promise<{ status: number; code: string; result: T }> {
    if (!this.cookies.has('XSRF-TOKEN')) await this.raw('GET', '/auth/Hi');
    return this.raw<T>('POST', apiPath, bytes);
  }

  private async raw<T>(method: 'GET' | 'POST', apiPath: string, body?: unknown) {
    const headers: Record<string, string> = {
      'x-forwarded-for': this.address,
      cookie: this.cookieHeader(),
    };
    const csrf = this.cookies.get('XSRF-TOKEN');
    if (csrf) headers['x-xsrf-token'] = csrf;
    if (this.token) headers['access-token'] = this.token;
    const bytes = Buffer.isBuffer(body);
    if (method === 'POST')
      headers['content-type'] = bytes ? 'application/octet-stream' : 'application/json';
    const res = await fetch(this.url + apiPath, {
      method,
      headers,
      body:
        method === 'POST' ? (bytes ? new Uint8Array(body) : JSON.stringify(body ?? {})) : undefined,
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
    const json = (await res.json()) as { code: string; result: T };
    return { status: res.status, code: json.code, result: json.result };
  }

  /** Signs this client in; throws when the server refuses. */
  async signIn(username: string, password: string): Promise<this> {
    const res = await this.call<{ token: string }>('POST', '/auth/access/login', {
      username,
      password,
    });
    if (res.status !== 200) throw new Error(`login ${username}: ${res.status} ${res.code}`);
    this.token = res.result.token;
    return this;
  }

  static login(username: string, password: string): Promise<Api> {
    return new Api().signIn(username, password);
  }
}

let adminApi: Promise<Api> | null = null;
export function asAdmin(): Promise<Api> {
  adminApi ??= Api.login(ADMIN.username, ADMIN.password);
  return adminApi;
}

export function uniqueName(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

let testOrg: Promise<string> | null = null;
/**
 * The operator organization test users belong to unless a test says otherwise: a user
 * without organization awaits one and lands on the join page instead of their first page.
 */
export function testOrgId(): Promise<string> {
  testOrg ??= (async () => {
    const api = await asAdmin();
    const name = 'E2E operators';
    const find = async () =>
      (
        await api.call<{ list: { id: string; name: string }[] }>('GET', '/auth/access/system/orgs')
      ).result.list.find((o) => o.name === name)?.id;
    const found = await find();
    if (found) return found;
    const created = await api.call<{ id: string }>('POST', '/auth/access/system/orgs/create', {
      name,
      kind: 'operator',
    });
    // Another worker may have made it a moment earlier.
    const id = created.status === 200 ? created.result.id : await find();
    if (!id) throw new Error(`create org: ${created.status} ${created.code}`);
    return id;
  })();
  return testOrg;
}

/**
 * Creates an active user with a built-in role through the admin API, in the tests'
 * organization unless `extra` names one (`orgId: null`: none).
 */
export async function createUser(
  roleName: 'viewer' | 'operator' | 'administrator' | 'manufacturerEngineer',
  extra: Record<string, unknown> = {},
) {
  const api = await asAdmin();
  if (!('orgId' in extra)) extra = { ...extra, orgId: await testOrgId() };
  const roles = await api.call<{ list: { id: string; name: string }[] }>(
    'GET',
    '/auth/access/system/roles',
  );
  const role = roles.result.list.find((r) => r.name === roleName);
  if (!role)
    throw new Error(`no role ${roleName}: ${roles.result.list.map((r) => r.name).join(', ')}`);
  const username = uniqueName(roleName.slice(0, 4));
  const password = 'Tr1cky-Passw0rd-e2e';
  const res = await api.call<{ id: string }>('POST', '/auth/access/system/users/create', {
    username,
    name: `E2E ${roleName}`,
    password,
    roleId: role.id,
    ...extra,
  });
  if (res.status !== 200)
    throw new Error(`create user: ${res.status} ${res.code} ${JSON.stringify(res.result)}`);
  return { username, password, id: res.result.id };
}

function outbox(): string {
  return path.join(process.env.LIFTLINK_E2E_DATA_DIR ?? '', 'outbox');
}

/** The newest mail to `to` (an .eml file in DATA_DIR/outbox), quoted-printable decoded. */
export async function waitForMail(to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (existsSync(outbox())) {
      const files = readdirSync(outbox())
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .reverse();
      for (const file of files) {
        const text = readFileSync(path.join(outbox(), file), 'utf8');
        if (text.toLowerCase().includes(`to: ${to.toLowerCase()}`))
          return text.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to}`);
}

/** The last code texted to `mobile` (DATA_DIR/outbox/sms.log, one JSON object a line). */
export async function waitForSmsCode(mobile: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const file = path.join(outbox(), 'sms.log');
  while (Date.now() < deadline) {
    if (existsSync(file)) {
      const lines = readFileSync(file, 'utf8').trim().split('\n').reverse();
      for (const line of lines) {
        const entry = JSON.parse(line) as { to: string; text: string };
        const code = entry.text.match(/\b(\d{6})\b/)?.[1];
        if (entry.to === mobile && code) return code;
      }
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no text to ${mobile}`);
}

export function uniqueMobile(): string {
  return (
    `139${String(Date.now() % 100_000_000).padStart(8, '0')}`.slice(0, 11) +
    String(Math.floor(Math.random() * 10))
  );
}

/**
 * Opens a page of the signed-in area. The server answers a direct load of `/account/...`
 * and `/manufacture/...` with its JSON 404 (those prefixes are API paths there), so such
 * pages are reached from the workplace the way a menu click does.
 */
export async function openPage(page: Page, target: string): Promise<void> {
  if (!/^\/(account|manufacture)(\/|$)/.test(target)) {
    await page.goto(target);
    return;
  }
  if (!/\/dashboard\/|\/lift\/|\/system\//.test(page.url()))
    await page.goto('/dashboard/workplace');
  await page.getByTestId('greeting').or(page.locator('.tab-page')).first().waitFor();
  await page.evaluate((path) => {
    window.history.pushState({}, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, target);
}

/** Signs in through the login form (account tab). */
export async function signIn(
  page: Page,
  username: string,
  password: string,
  target = '/user/login',
): Promise<void> {
  await page.goto(target);
  await page.getByTestId('login-form').waitFor();
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.getByTestId('login-submit').click();
}

/**
 * Closes the welcome notice after a sign-in, as a user would: it sits over the account menu,
 * and a pointer resting on it (a click aimed at the menu) keeps it open.
 */
export async function closeWelcome(page: Page): Promise<void> {
  const welcome = page.locator('.ant-notification-notice').filter({ hasText: /welcome back/ });
  await welcome.locator('.ant-notification-notice-close').click();
  await expect(welcome).toHaveCount(0);
}

/** A page's requests still waiting for their answer (with their start) and those that failed. */
const requestsOf = new WeakMap<Page, { waiting: Map<Request, number>; failed: string[] }>();

/** A request as a failure's message names it: its method and path. */
const described = (request: Request) => `${request.method()} ${new URL(request.url()).pathname}`;

/** Keeps track of `page`'s requests for `expectPageShows`' report. */
export function watchRequests(page: Page): void {
  const requests = { waiting: new Map<Request, number>(), failed: [] as string[] };
  requestsOf.set(page, requests);
  page.on('request', (request) => requests.waiting.set(request, Date.now()));
  page.on('requestfinished', (request) => requests.waiting.delete(request));
  // The answer's status from the response event: asking a finished request for its response
  // is a promise that rejects once the page has closed.
  page.on('response', (response) => {
    if (response.status() >= 400) requests.failed.push(`${described(response.request())} ${response.status()}`);
  });
  page.on('requestfailed', (request) => {
    requests.waiting.delete(request);
    requests.failed.push(`${described(request)} ${request.failure()?.errorText ?? 'failed'}`);
  });
}

/** What `page`'s requests were doing, for a failure's message. */
function requestReport(page: Page): string {
  const requests = requestsOf.get(page);
  if (!requests) return '';
  const now = Date.now();
  const waiting = [...requests.waiting].map(([request, since]) => `${described(request)} (${now - since} ms)`);
  return `\nRequests waiting: ${waiting.join(', ') || 'none'}\nRequests failed: ${requests.failed.slice(-10).join(', ') || 'none'}`;
}

/**
 * Waits for the first sight of a page that loads from the server (`locator` visible), as
 * long as a slow machine may need: a test checks what the page shows, not how fast (the
 * benchmarks measure that). A failure says where the browser was and what it showed, so a
 * page that was slow, stuck loading, refused or somewhere else reads differently.
 */
export async function expectPageShows(page: Page, locator: Locator, timeout = 45_000): Promise<void> {
  try {
    await expect(locator).toBeVisible({ timeout });
  } catch (error) {
    const shown = await page
      .locator('body')
      .innerText({ timeout: 2_000 })
      .catch(() => '(the page could not be read)');
    throw new Error(
      `${(error as Error).message}\nThe browser was at ${page.url()} and showed:\n${shown.replace(/\s+/g, ' ').slice(0, 1_500)}${requestReport(page)}`,
    );
  }
}
