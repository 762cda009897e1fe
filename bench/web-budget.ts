/**
 * JavaScript budget of the web client (issues 5 and 11): the bytes the server really sends
 * for the JavaScript the login page loads and for the JavaScript the shell loads after
 * sign-in (layout + workplace), compared with 200 KB and 300 KB. Run after `npm run build`:
 *
 *   npm run bench:web-budget
 *
 * It starts the server (in memory, no network) on the built client and asks it for every
 * file with `Accept-Encoding: br, gzip` as a browser does, adding up the body bytes as sent
 * (`content-encoding` says which copy came). Which files each page loads follows
 * dist/index.html and the Vite manifest (`build.manifest: true`): the entry's static
 * imports, plus what the app loads at start for the default language (zh-CN), plus the
 * lazy chunks of the page in question and their static imports. The page's HTML and CSS
 * are listed too, outside the JavaScript budgets.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const KB = 1024;
const BUDGETS = { login: 200 * KB, shell: 300 * KB };
const ACCEPT_ENCODING = 'br, gzip';

/** Modules loaded at start besides the entry: the default language's texts. */
const BOOT = ['src/lib/i18n/locales/zh-CN.ts'];
/** The login layout and page: built without antd, so no antd locale either. */
const LOGIN = ['src/app/layout/user-layout.tsx', 'src/features/auth/components/login-page.tsx'];
/**
 * The shell: the logged-in area and the workplace, antd's and dayjs' locales (they load
 * with the first antd screen), the message / notification host that shows the welcome, and
 * the header's alerts bell (it follows the first paint; its list loads when it is opened).
 */
const SHELL = [
  'src/app/authenticated-app.tsx',
  'src/features/dashboard/components/workplace-page.tsx',
  'antd/es/locale/zh_CN.js',
  'dayjs/locale/zh-cn.js',
  'src/app/antd/feedback-host.tsx',
  'src/features/alerts/components/notification-bell.tsx',
];

function load(): { manifest: Manifest; htmlFiles: string[] } {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: run \`npm run build\` first.`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const htmlFiles = [
    ...html.matchAll(
      /<(?:script[^>]*\bsrc|link[^>]*rel="(?:modulepreload|stylesheet)"[^>]*\bhref)="\/?([^"]+\.(?:js|css))"/g,
    ),
  ].map((m) => m[1]!);
  return { manifest, htmlFiles };
}

function keyFor(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find(
    (k) => k === suffix || k.endsWith(`/${suffix}`) || k.endsWith(suffix),
  );
  if (!key) throw new Error(`module ${suffix} is not in the manifest (is it still lazy-loaded?)`);
  return key;
}

/** The chunk files of `key` and everything it imports statically, with their CSS. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
  return into;
}

const { manifest, htmlFiles } = load();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-web-budget-'));
const app = await buildApp({
  config: loadConfig({
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    MQTT_PORT: '0',
    SIMULATOR: '0',
    WEB_DIST: dist,
    LIFTLINK_ADMIN_PASSWORD: 'Budget-Admin-Pass-1',
    LOG_LEVEL: 'silent',
  }),
  logger: false,
});
await app.ready();

interface Served {
  file: string;
  bytes: number;
  raw: number;
  encoding: string;
}
const served = new Map<string, Served>();
async function serve(file: string): Promise<Served> {
  let s = served.get(file);
  if (!s) {
    const url = file === 'index.html' ? '/' : `/${file}`;
    const res = await app.inject({
      method: 'GET',
      url,
      headers: { accept: file === 'index.html' ? 'text/html' : '*/*', 'accept-encoding': ACCEPT_ENCODING },
    });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
    s = {
      file,
      bytes: res.rawPayload.length,
      raw: readFileSync(path.join(dist, file)).length,
      encoding: String(res.headers['content-encoding'] ?? 'identity'),
    };
    served.set(file, s);
  }
  return s;
}

async function measure(name: string, files: Set<string>, budget: number): Promise<boolean> {
  const all = await Promise.all([...files].map(serve));
  const rows = all.filter((r) => r.file.endsWith('.js')).sort((a, b) => b.bytes - a.bytes);
  const other = all.filter((r) => !r.file.endsWith('.js'));
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  const raw = rows.reduce((sum, r) => sum + r.raw, 0);
  const ok = total <= budget;
  console.log(
    `\n${name}: ${(total / KB).toFixed(1)} KB JavaScript as sent in ${rows.length} files (${(raw / KB).toFixed(1)} KB uncompressed; budget ${budget / KB} KB) ${ok ? 'OK' : 'OVER BUDGET'}`,
  );
  for (const r of rows.slice(0, 8))
    console.log(`  ${(r.bytes / KB).toFixed(1).padStart(7)} KB  ${r.encoding.padEnd(8)} ${r.file}`);
  if (rows.length > 8) console.log(`  ... ${rows.length - 8} smaller files`);
  for (const r of other)
    console.log(`  ${(r.bytes / KB).toFixed(1).padStart(7)} KB  ${r.encoding.padEnd(8)} ${r.file} (not counted in the budget)`);
  return ok;
}

try {
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) throw new Error('no entry in the manifest');
  const base = closure(manifest, entryKey);
  base.add('index.html');
  for (const file of htmlFiles) base.add(file);
  for (const suffix of BOOT) closure(manifest, keyFor(manifest, suffix), base);

  const login = new Set(base);
  for (const suffix of LOGIN) closure(manifest, keyFor(manifest, suffix), login);
  const shell = new Set(base);
  for (const suffix of SHELL) closure(manifest, keyFor(manifest, suffix), shell);

  const loginOk = await measure('Login page', login, BUDGETS.login);
  const shellOk = await measure('Shell after sign-in (layout + workplace)', shell, BUDGETS.shell);
  const allJs = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  const everything = await Promise.all(allJs.map(serve));
  const sum = (key: 'bytes' | 'raw') => everything.reduce((s, r) => s + r[key], 0);
  console.log(
    `\nAll JS chunks together: ${(sum('bytes') / KB).toFixed(1)} KB as sent (${(sum('raw') / KB).toFixed(1)} KB uncompressed) in ${allJs.length} files (lazy pages included)`,
  );
  process.exitCode = loginOk && shellOk ? 0 : 1;
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
