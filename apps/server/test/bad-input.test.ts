import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, body, client, login, startTestApp, type TestApp } from './helpers.ts';

/** Whatever arrives, the answer is a clear 4xx envelope, nothing changes, and the server keeps serving. */
describe('bad input at the HTTP boundary', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp('pglite');
    token = await login(t.app, 'admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  async function snapshot() {
    return t.database.sql.query(`select (select count(*) from users) u, (select count(*) from sessions) s, (select count(*) from roles) r, (select max(updated_at) from users) m`);
  }

  const weird = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 50 }),
    fc.constantFrom('\u0000', '\u202e', '𝕬𝖉𝖒𝖎𝖓', 'admin\u200b', 'x'.repeat(10_000), '١٢٣٤٥٦', ''),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
  );
  const authBody = fc.record(
    { username: weird, password: weird, mobile: weird, captcha: weird, type: weird, email: weird, oldPassword: weird, extra: weird },
    { requiredKeys: [] },
  );

  it('answers random auth bodies with 4xx envelopes and changes nothing', async () => {
    const before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/auth/access/login', '/account/sms', '/auth/register', '/auth/forge-password', '/auth/access/pwd/update', '/auth/activate'), authBody, async (url, payload) => {
        const res = await client(t.app, url.includes('/access/pwd') ? token : undefined).post(url, payload);
        if (res.statusCode === 200) {
          // Only the "always the same answer" endpoints may succeed on random input.
          return url === '/auth/forge-password' || url === '/account/sms';
        }
        const b = body(res);
        return res.statusCode >= 400 && res.statusCode < 500 && b.success === false && typeof b.code === 'string' && b.code.length > 0;
      }),
      { numRuns: 150 },
    );
    const after = await snapshot();
    expect({ ...after[0], s: undefined }).toEqual({ ...before[0], s: undefined });
    expect((await client(t.app, token).get('/auth/access/info')).statusCode).toBe(200);
  });

  it('rejects unknown fields, malformed JSON and oversized bodies with their own codes', async () => {
    const unknown = await client(t.app).post('/auth/access/login', { username: 'admin', password: ADMIN_PASSWORD, isAdmin: true });
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).code).toBe('validation.failed');
    const malformed = await t.app.inject({ method: 'POST', url: '/auth/access/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(malformed.statusCode).toBe(400);
    expect(body(malformed).code).toBe('request.malformed');
    const huge = await t.app.inject({ method: 'POST', url: '/auth/access/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'a'.repeat(400_000), password: 'x' }) });
    expect(huge.statusCode).toBe(413);
    expect(body(huge).code).toBe('request.tooLarge');
    const longName = await client(t.app).post('/auth/access/login', { username: 'a'.repeat(300), password: 'x' });
    expect(body(longName).result.issues).toContainEqual({ path: 'username', message: 'validation.tooLong' });
  });

  it('answers unknown API paths with the JSON 404 envelope', async () => {
    const res = await client(t.app, token).get('/auth/access/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(body(res).code).toBe('notFound');
  });
});

describe('the web client behind the server', () => {
  it('serves index.html for page reloads under /account and /manufacture, JSON 404 for API misses, and does not rate-limit files', { timeout: 90_000 }, async () => {
    const { mkdtempSync, writeFileSync, mkdirSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dist = mkdtempSync(path.join(os.tmpdir(), 'll-dist-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>LiftLink</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log(1)');
    const t = await startTestApp('pglite', { WEB_DIST: dist });
    try {
      for (const url of ['/account/center', '/manufacture/device', '/lift/list?x=1', '/user/login']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html,application/xhtml+xml' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.body).toContain('<title>LiftLink</title>');
      }
      const api = await t.app.inject({ method: 'GET', url: '/auth/access/none', headers: { accept: 'text/html' } });
      expect(api.statusCode).toBe(404);
      expect(body(api).code).toBe('notFound');
      const json = await t.app.inject({ method: 'GET', url: '/account/nothing', headers: { accept: 'application/json' } });
      expect(body(json).code).toBe('notFound');
      const file = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
      expect(file.statusCode).toBe(200);
      expect(file.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
