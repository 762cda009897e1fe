import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, PERMISSION_IDS } from '@liftlink/protocol';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { accessOf, openApiText } from '../src/lib/openapi.ts';
import { DB_KINDS, freshDatabase } from './helpers.ts';

/**
 * The API as documented: docs/openapi.json is what the server generates (regenerate it with
 * `npm run docs:api`), every route the server answers is in it with its permission, and
 * every operation shows its answer.
 */
const DOC_FILE = path.resolve(import.meta.dirname, '../../../docs/openapi.json');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Routes the server answers that are not API operations, so not in the document:
 * - HEAD: fastify adds one to every GET (the same answer without its body);
 * - `/docs` and below: the OpenAPI viewer and the document itself;
 * - the web client's files (@fastify/static marks its routes with `rootPath`). The
 *   single-page fallback is the not-found handler, not a route, so it needs no entry;
 * - the live WebSocket (`/ws/live`): @fastify/swagger leaves WebSocket routes out of the
 *   document; its messages are described in docs/protocol.md.
 */
function isExcluded(route: { method: string; url: string; config: unknown; websocket?: boolean }): boolean {
  if (route.method === 'HEAD') return true;
  if (route.websocket) return true;
  if (/^\/docs(\/|$)/.test(route.url)) return true;
  return !!(route.config as { rootPath?: string } | undefined)?.rootPath;
}

interface Operation {
  tags?: string[];
  description?: string;
  security?: unknown[];
  'x-permission'?: string;
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: { type?: string; properties?: Record<string, unknown> } }> }>;
}
interface Document {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

interface SeenRoute {
  method: string;
  url: string;
  config: unknown;
  websocket: boolean;
}

const PERMISSION_CHECKS = new Set(PERMISSION_IDS.flatMap((id) => ACTIONS.map((a) => `${id}.${a}`)));
const docPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

describe.each(DB_KINDS)('OpenAPI document on %s', (kind) => {
  let app: FastifyInstance;
  let close: (() => Promise<void>) | undefined;
  const routes: SeenRoute[] = [];
  let generated: string;
  let doc: Document;
  const operations: { path: string; method: string; op: Operation }[] = [];

  beforeAll(async () => {
    // The same settings as `npm run docs:api`.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-openapi-test-'));
    const { database, drop } = await freshDatabase(kind);
    app = await buildApp({
      config: loadConfig({ DATA_DIR: dataDir, MQTT_PORT: '0', HOST: '127.0.0.1', SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: 'openapi-only-password', LOG_LEVEL: 'silent' }),
      database,
      logger: false,
      onRoute: (route: RouteOptions) => {
        for (const method of [route.method].flat()) routes.push({ method, url: route.url, config: route.config, websocket: !!(route as { websocket?: boolean }).websocket });
      },
    });
    await app.ready();
    close = async () => {
      await app.close();
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    };
    generated = openApiText(app);
    doc = JSON.parse(generated) as Document;
    for (const [p, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) if (item[method]) operations.push({ path: p, method, op: item[method] });
    }
    // A first start initialises a whole database cluster (slow on a busy machine).
  }, 300_000);
  afterAll(() => close?.());

  it('docs/openapi.json is exactly what the server generates (`npm run docs:api` rewrites it)', () => {
    const stored = readFileSync(DOC_FILE, 'utf8').replace(/\r\n/g, '\n');
    if (stored !== generated) {
      const storedDoc = JSON.parse(stored) as Document;
      const ops = (d: Document) => new Map(Object.entries(d.paths).flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => [`${m.toUpperCase()} ${p}`, JSON.stringify(item[m])] as const)));
      const [was, now] = [ops(storedDoc), ops(doc)];
      const changed = [...new Set([...was.keys(), ...now.keys()])].filter((k) => was.get(k) !== now.get(k));
      expect.fail(`docs/openapi.json is out of date; run \`npm run docs:api\`. Operations that differ: ${changed.join(', ') || '(none: the document around them differs)'}`);
    }
  });

  it('documents every route the server answers', () => {
    const api = routes.filter((r) => !isExcluded(r));
    expect(api.length).toBeGreaterThan(70);
    const missing = api.filter((r) => !doc.paths[docPath(r.url)]?.[r.method.toLowerCase() as (typeof METHODS)[number]]).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes that answer but are not in the OpenAPI document (give them a schema)').toEqual([]);
    // And nothing is documented that does not answer.
    const answered = new Set(api.map((r) => `${r.method.toLowerCase()} ${docPath(r.url)}`));
    expect(operations.map((o) => `${o.method} ${o.path}`).filter((k) => !answered.has(k))).toEqual([]);
  });

  it('names the access of every operation: a permission, any signed-in user, or public', () => {
    const declared = new Map(routes.map((r) => [`${r.method.toLowerCase()} ${docPath(r.url)}`, accessOf((r.config as { access?: unknown } | undefined)?.access)]));
    const wrong: string[] = [];
    for (const { path: p, method, op } of operations) {
      const access = op['x-permission'];
      const ok =
        access === declared.get(`${method} ${p}`) &&
        (access === 'public' || access === 'authenticated' || PERMISSION_CHECKS.has(access ?? '')) &&
        // Public operations need no token; every other one needs the session.
        (access === 'public' ? op.security?.length === 0 : op.security === undefined) &&
        !!op.description?.startsWith(access === 'public' ? 'Public' : access === 'authenticated' ? 'Any signed-in user' : `Permission: \`${access}\``);
      if (!ok) wrong.push(`${method.toUpperCase()} ${p}: ${String(access)}`);
    }
    expect(wrong).toEqual([]);
    // Most of the API is behind a permission, not only a sign-in.
    expect(operations.filter((o) => PERMISSION_CHECKS.has(o.op['x-permission'] ?? '')).length).toBeGreaterThan(50);
  });

  it('shows the answer of every operation: its success shape, and the error envelope', () => {
    const wrong: string[] = [];
    for (const { path: p, method, op } of operations) {
      const where = `${method.toUpperCase()} ${p}`;
      const responses = op.responses ?? {};
      // 2xx, or 302 for the routes a browser navigates through (sign-in with another provider).
      const success = Object.entries(responses).filter(([code]) => /^(2\d\d|302)$/.test(code));
      const isSocket = routes.some((r) => r.websocket && docPath(r.url) === p);
      if (isSocket) {
        // The live socket: its answer is the upgrade.
        if (!responses['101']) wrong.push(`${where}: no 101 answer`);
        continue;
      }
      if (success.length === 0) wrong.push(`${where}: no 2xx answer`);
      for (const [code, res] of success) {
        const content = Object.entries(res.content ?? {});
        if (content.length === 0 || content.some(([, c]) => !c.schema)) wrong.push(`${where}: ${code} has no schema`);
        const json = res.content?.['application/json']?.schema;
        if (json && !['success', 'code', 'msg', 'result'].every((k) => json.properties?.[k])) wrong.push(`${where}: ${code} is not the envelope`);
      }
      if (!responses['4XX']?.content?.['application/json']?.schema) wrong.push(`${where}: no error envelope`);
    }
    expect(wrong).toEqual([]);
  });
});
