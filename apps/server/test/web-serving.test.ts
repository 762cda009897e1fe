import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_COOKIE, CSRF_HEADER } from '@liftlink/protocol';
import { precompressDir } from '../../web/build/precompress.ts';
import { ADMIN_PASSWORD, body, startTestApp, type TestApp } from './helpers.ts';

/**
 * The built web client as the server sends it: a small client written the way the build
 * writes it (hashed assets, index.html, a public file; brotli and gzip copies made by the
 * build's own compression step).
 */
const INDEX = `<!doctype html><html><head><title>LiftLink</title><script type="module" src="/assets/index-B4c9xZ1q.js"></script></head><body><div id="root"></div></body></html>\n`.repeat(4);
const SCRIPT = Array.from({ length: 400 }, (_, i) => `export const value${i} = 'the lift at landing ${i % 7} reports ${i}';`).join('\n');
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${'<rect width="8" height="8"/>'.repeat(40)}</svg>`;
const HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const IMMUTABLE = 'public, max-age=31536000, immutable';

function decoded(res: LightMyRequestResponse): string {
  const raw = res.rawPayload;
  switch (res.headers['content-encoding']) {
    case 'br':
      return brotliDecompressSync(raw).toString('utf8');
    case 'gzip':
      return gunzipSync(raw).toString('utf8');
    default:
      return raw.toString('utf8');
  }
}

function varyList(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase());
}

function csrfCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === CSRF_COOKIE)?.value;
}

describe('the web client as the server sends it', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'll-web-dist-'));
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'logo.svg'), LOGO);
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-B4c9xZ1q.js'), SCRIPT);
    // Too small to gain from compression: the build writes no copies, the file goes as it is.
    writeFileSync(path.join(dist, 'assets', 'tiny-Dq81mZx0.js'), 'export{}');
    await precompressDir(dist);
    t = await startTestApp('pglite', { WEB_DIST: dist });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends brotli, gzip or the plain file as the browser accepts, and says it varies by Accept-Encoding', async () => {
    const br = await get('/assets/index-B4c9xZ1q.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(decoded(br)).toBe(SCRIPT);
    expect(br.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(varyList(br)).toContain('accept-encoding');

    const gzip = await get('/assets/index-B4c9xZ1q.js', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(decoded(gzip)).toBe(SCRIPT);
    expect(varyList(gzip)).toContain('accept-encoding');

    for (const acceptEncoding of [undefined, 'identity']) {
      const plain = await get('/assets/index-B4c9xZ1q.js', acceptEncoding ? { 'accept-encoding': acceptEncoding } : {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(SCRIPT);
      expect(varyList(plain)).toContain('accept-encoding');
    }

    const tiny = await get('/assets/tiny-Dq81mZx0.js', { 'accept-encoding': 'br, gzip' });
    expect(tiny.statusCode).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export{}');

    const svg = await get('/logo.svg', { 'accept-encoding': 'br' });
    expect(svg.headers['content-encoding']).toBe('br');
    expect(svg.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(decoded(svg)).toBe(LOGO);
  });

  it('lets browsers keep hashed files for a year and makes them ask again for index.html and unhashed files', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const asset = await get('/assets/index-B4c9xZ1q.js', { 'accept-encoding': encoding });
      expect(asset.headers['cache-control']).toBe(IMMUTABLE);
    }
    const logo = await get('/logo.svg');
    expect(logo.headers['cache-control']).toBe('no-cache');

    // The page itself: at `/`, at a deep link (history-mode fallback) and as /index.html.
    for (const url of ['/', '/lift/list', '/account/center?tab=1', '/index.html']) {
      const page = await get(url, { accept: HTML, 'accept-encoding': 'br, gzip' });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type'], url).toMatch(/text\/html/);
      expect(page.headers['content-encoding'], url).toBe('br');
      expect(decoded(page), url).toBe(INDEX);
      expect(page.headers['cache-control'], url).toBe('no-cache');
      expect(page.headers.etag, url).toBeTruthy();
      expect(page.headers['last-modified'], url).toBeTruthy();
      expect(varyList(page), url).toContain('accept-encoding');
    }
  });

  it('answers a revalidation with 304 and no body while the file is unchanged', async () => {
    for (const url of ['/lift/list', '/index.html', '/assets/index-B4c9xZ1q.js']) {
      const first = await get(url, { accept: HTML, 'accept-encoding': 'br' });
      const etag = String(first.headers.etag);
      const again = await get(url, { accept: HTML, 'accept-encoding': 'br', 'if-none-match': etag });
      expect(again.statusCode, url).toBe(304);
      expect(again.rawPayload.length, url).toBe(0);
      const since = await get(url, { accept: HTML, 'accept-encoding': 'br', 'if-modified-since': String(first.headers['last-modified']) });
      expect(since.statusCode, url).toBe(304);
      // A different encoding is a different file: no false match.
      const gzip = await get(url, { accept: HTML, 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(gzip.statusCode, url).toBe(200);
      expect(decoded(gzip)).toBe(url.endsWith('.js') ? SCRIPT : INDEX);
    }
  });

  it('gives a first visit the CSRF cookie with the page, keeps the one a browser has, and the cookie signs in', async () => {
    const first = await get('/user/login', { accept: HTML, 'accept-encoding': 'br' });
    const token = csrfCookieOf(first);
    expect(token).toMatch(/^[\w-]{16,}$/);
    const cookie = first.cookies.find((c) => c.name === CSRF_COOKIE)!;
    expect(cookie.path).toBe('/');
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.httpOnly).toBeFalsy();
    // The same cookie GET /auth/Hi would give, by the same code.
    const hi = await get('/auth/Hi', { cookie: `${CSRF_COOKIE}=${token}` });
    expect(hi.cookies.find((c) => c.name === CSRF_COOKIE)).toMatchObject({ value: token, path: '/', sameSite: 'Lax' });

    for (const url of ['/', '/user/login', '/index.html']) {
      const again = await get(url, { accept: HTML, cookie: `${CSRF_COOKIE}=${token}` });
      expect(again.statusCode, url).toBe(200);
      expect(csrfCookieOf(again), url).toBeUndefined();
    }
    // A cached page is not a reason to hand out a cookie: a 304 for a browser that has none still sets it.
    const revalidated = await get('/lift/list', { accept: HTML, 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(csrfCookieOf(revalidated)).toMatch(/^[\w-]{16,}$/);
    // Scripts and pictures carry no cookie.
    expect(csrfCookieOf(await get('/assets/index-B4c9xZ1q.js'))).toBeUndefined();

    // The page's cookie is the token a signed-in browser's writes must repeat in the header.
    const login = await t.app.inject({ method: 'POST', url: '/auth/access/login', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const session = login.cookies.find((c) => c.name === 'Access-Token')!.value;
    const write = (headers: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/auth/access/account/profile/update', payload: { name: 'Administrator' }, cookies: { 'Access-Token': session, [CSRF_COOKIE]: token! }, headers });
    expect(body(await write({})).code).toBe('csrf.invalid');
    expect((await write({ [CSRF_HEADER]: token! })).statusCode).toBe(200);
  });

  it('keeps JSON 404 answers for API paths and missing files', async () => {
    for (const url of ['/auth/access/none', '/api/nothing', '/assets/missing-Zz99aaBb.js', '/nothing.css']) {
      const res = await get(url, { accept: HTML, 'accept-encoding': 'br, gzip' });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(body(res).code, url).toBe('notFound');
      expect(csrfCookieOf(res), url).toBeUndefined();
    }
    const json = await get('/account/nothing', { accept: 'application/json' });
    expect(json.statusCode).toBe(404);
    expect(body(json).code).toBe('notFound');
  });

  it('serves the page at the site root whatever the client accepts', async () => {
    for (const accept of [undefined, '*/*', 'application/json']) {
      const res = await get('/', accept ? { accept } : {});
      expect(res.statusCode, accept).toBe(200);
      expect(res.headers['content-type'], accept).toMatch(/text\/html/);
    }
  });
});
