import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** Keeps README.md and docs/architecture.md true to the code they describe. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const sorted = (items: Iterable<string>) => [...new Set(items)].sort();

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
});
