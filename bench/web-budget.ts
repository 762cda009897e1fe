/**
 * JavaScript budget of the web client (issue 5): gzip size of the JS the login page loads
 * and of the JS the shell loads after sign-in (layout + workplace), compared with
 * 200 KB and 300 KB. Run after `npm run build`:
 *
 *   node --import tsx bench/web-budget.ts
 *
 * It follows dist/index.html and the Vite manifest (`build.manifest: true`): the entry's
 * static imports, plus what the app loads at start for the default language (zh-CN),
 * plus the lazy chunks of the page in question and their static imports.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const KB = 1024;
const BUDGETS = { login: 200 * KB, shell: 300 * KB };

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

function load(): { manifest: Manifest; htmlScripts: string[] } {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    console.error(`No ${manifestPath}: run \`npm run build\` first.`);
    process.exit(2);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const htmlScripts = [
    ...html.matchAll(
      /<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g,
    ),
  ].map((m) => m[1]!);
  return { manifest, htmlScripts };
}

function keyFor(manifest: Manifest, suffix: string): string {
  const key = Object.keys(manifest).find(
    (k) => k === suffix || k.endsWith(`/${suffix}`) || k.endsWith(suffix),
  );
  if (!key) throw new Error(`module ${suffix} is not in the manifest (is it still lazy-loaded?)`);
  return key;
}

/** The chunk files of `key` and everything it imports statically. */
function closure(manifest: Manifest, key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(manifest, dep, into);
  return into;
}

const gzCache = new Map<string, number>();
function gzipBytes(file: string): number {
  let size = gzCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file))).length;
    gzCache.set(file, size);
  }
  return size;
}

function measure(name: string, files: Set<string>, budget: number): boolean {
  const rows = [...files]
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, gzip: gzipBytes(file) }));
  rows.sort((a, b) => b.gzip - a.gzip);
  const total = rows.reduce((sum, r) => sum + r.gzip, 0);
  const ok = total <= budget;
  console.log(
    `\n${name}: ${(total / KB).toFixed(1)} KB gzip in ${rows.length} files (budget ${budget / KB} KB) ${ok ? 'OK' : 'OVER BUDGET'}`,
  );
  for (const r of rows.slice(0, 8))
    console.log(`  ${(r.gzip / KB).toFixed(1).padStart(7)} KB  ${r.file}`);
  if (rows.length > 8) console.log(`  ... ${rows.length - 8} smaller files`);
  return ok;
}

const { manifest, htmlScripts } = load();
const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('no entry in the manifest');
const base = closure(manifest, entryKey);
for (const file of htmlScripts) base.add(file);
for (const suffix of BOOT) closure(manifest, keyFor(manifest, suffix), base);

const login = new Set(base);
for (const suffix of LOGIN) closure(manifest, keyFor(manifest, suffix), login);
const shell = new Set(base);
for (const suffix of SHELL) closure(manifest, keyFor(manifest, suffix), shell);

const loginOk = measure('Login page', login, BUDGETS.login);
const shellOk = measure('Shell after sign-in (layout + workplace)', shell, BUDGETS.shell);
const allJs = Object.values(manifest)
  .map((c) => c.file)
  .filter((f, i, a) => f.endsWith('.js') && a.indexOf(f) === i);
const everything = allJs.reduce((sum, f) => sum + gzipBytes(f), 0);
console.log(
  `\nAll JS chunks together: ${(everything / KB).toFixed(1)} KB gzip in ${allJs.length} files (lazy pages included)`,
);
process.exitCode = loginOk && shellOk ? 0 : 1;
