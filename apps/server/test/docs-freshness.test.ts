import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Keeps README.md, docs/architecture.md and docs/product.md true to the code they describe. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

/** Source and documentation files under `dirs`, without dependencies and build output. */
function filesUnder(dirs: string[], extensions: RegExp): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = path.posix.join(rel, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'coverage', 'test-results'].includes(entry.name)) walk(child);
      } else if (extensions.test(entry.name)) out.push(child);
    }
  };
  for (const dir of dirs) walk(dir);
  return out;
}

/** Every section number cited as "spec section 4", "spec sections 2 and 5", "spec section 5 / 8", "spec §7", "(spec 3)". */
function citedSections(text: string): number[] {
  const citations = text.matchAll(/\bspec(?:ification)?\s*(?:sections?\s*|§\s*|(?=\d))(\d+(?:\.\d+)*(?:\s*(?:,|and|or|\/|&|§)\s*\d+(?:\.\d+)*)*)/gi);
  return [...citations].flatMap((m) => [...m[1]!.matchAll(/(?:^|[^.\d])(\d+)/g)].map((n) => Number(n[1])));
}

/** The value of `key` in a locale module's text: `'key': 'value'` or `'key':\n    "value"`. */
function localeText(source: string, key: string): string | undefined {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`'${escaped}':\\s*(['"])((?:\\\\.|(?!\\1).)*)\\1`).exec(source);
  return m ? m[2]!.replace(/\\(.)/g, '$1') : undefined;
}

describe('documentation freshness', () => {
  it('README names every environment variable config.ts reads, and no other', () => {
    const config = read('apps/server/src/config.ts');
    const schema = config.slice(config.indexOf('const envSchema = z.object({'), config.indexOf('\n});', config.indexOf('const envSchema')));
    const read_ = sorted([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((m) => m[1]!));
    const readme = read('README.md');
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const documented = sorted(table.split('\n').filter((l) => l.startsWith('| `')).flatMap((l) => [...l.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!)));
    expect(read_.length).toBeGreaterThan(20);
    expect({ missingFromReadme: read_.filter((v) => !documented.includes(v)), notReadByConfig: documented.filter((v) => !read_.includes(v)) }).toEqual({ missingFromReadme: [], notReadByConfig: [] });
  });

  it('docs/architecture.md names every server module folder, and only folders that exist', () => {
    const doc = read('docs/architecture.md');
    const start = doc.indexOf('- `src/modules/<resource>/`');
    const bullet = doc.slice(start, doc.indexOf('\n- ', start + 1));
    const named = sorted([...bullet.matchAll(/`([a-z][a-z-]*)`/g)].map((m) => m[1]!));
    const folders = sorted(readdirSync(path.join(ROOT, 'apps/server/src/modules'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name));
    expect(named).toEqual(folders);
  });

  it('every `npm run` command in README.md exists', () => {
    const scripts = Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts);
    const named = sorted([...read('README.md').matchAll(/npm run ([a-z][\w:-]*)/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(3);
    expect(named.filter((s) => !scripts.includes(s))).toEqual([]);
  });

  it('docs/product.md keeps the numbers and titles of the specification sections the code cites', () => {
    const sections = [...read('docs/product.md').matchAll(/^## (\d+)\. (.+)$/gm)].map((m) => `${m[1]}. ${m[2]}`);
    expect(sections).toEqual([
      '1. What the product does and for whom',
      '2. Screens and routes',
      '3. Entities and their fields',
      '4. States and transitions',
      '5. Validation rules',
      '6. Roles and permissions',
      '7. The calls it makes',
      '8. Error catalogue',
      '9. Business constants and limits',
    ]);
  });

  it('every "spec section N" in the code and docs names a section docs/product.md has', () => {
    const have = new Set([...read('docs/product.md').matchAll(/^## (\d+)\. /gm)].map((m) => Number(m[1])));
    const files = [...filesUnder(['apps', 'packages', 'tests', 'bench'], /\.(ts|tsx|js|mjs|sql)$/), ...filesUnder(['docs'], /\.md$/)].filter((f) => f !== 'docs/product.md' && f !== 'apps/server/test/docs-freshness.test.ts');
    const cites = files.flatMap((file) => read(file).split('\n').flatMap((line, i) => citedSections(line).map((n) => ({ at: `${file}:${i + 1}`, n }))));
    expect(cites.length).toBeGreaterThan(40);
    expect(cites.filter((c) => !have.has(c.n))).toEqual([]);
  });

  it('reads every citation form and fails on a section docs/product.md lacks', () => {
    expect(citedSections('/** Sign-in (spec sections 4, 5, 7, 8). Spec section 5 / 8, spec §9, (spec 3.2) */')).toEqual([4, 5, 7, 8, 5, 8, 9, 3]);
    expect(citedSections('registration (spec sections 2 and 5); see spec section 12')).toEqual([2, 5, 12]);
    expect(citedSections('a specific section 7; docs/operations.md section 8')).toEqual([]);
  });

  it('the texts in section 8 of docs/product.md are the web client\'s texts in all three languages', () => {
    const doc = read('docs/product.md');
    const section = doc.slice(doc.indexOf('## 8. '), doc.indexOf('\n## 9. '));
    const rows = section.split('\n').filter((l) => l.startsWith('| `')).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
    const locales = Object.fromEntries((['en-US', 'zh-CN', 'ru-RU'] as const).map((lang) => [lang, ['', 'lifts.', 'manufacture.'].map((p) => read(`apps/web/src/lib/i18n/locales/${p}${lang}.ts`)).join('\n')]));
    expect(rows.length).toBeGreaterThan(30);
    const differ = rows.flatMap(([key, en, zh, ru]) => {
      const k = key!.replace(/`/g, '');
      const want = { 'en-US': en, 'zh-CN': zh, 'ru-RU': ru };
      return (['en-US', 'zh-CN', 'ru-RU'] as const).filter((lang) => localeText(locales[lang]!, k) !== want[lang]).map((lang) => ({ key: k, lang, doc: want[lang], app: localeText(locales[lang]!, k) }));
    });
    expect(differ).toEqual([]);
  });
});
