import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarGz } from './tar.ts';

describe('tar.gz packages', () => {
  const long = `pkg/${'deep-folder/'.repeat(12)}file.ts`;
  const entries = [
    { path: 'pkg/package.json', data: Buffer.from('{"name":"x"}\n') },
    { path: long, data: Buffer.from('export const 文字 = 1;\n') },
    { path: 'pkg/bin/run', data: Buffer.from([0, 1, 2, 255]), mode: 0o755 },
  ];

  it('unpack with tar into the same files, modes and time, long paths included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-tar-'));
    try {
      const mtime = Date.UTC(2026, 0, 2, 3, 4, 5);
      writeFileSync(path.join(dir, 'a.tgz'), await tarGz(entries, mtime));
      execFileSync('tar', ['xzf', 'a.tgz'], { cwd: dir });
      for (const e of entries) expect(readFileSync(path.join(dir, e.path))).toEqual(e.data);
      expect(statSync(path.join(dir, 'pkg/bin/run')).mode & 0o777).toBe(0o755);
      expect(statSync(path.join(dir, 'pkg/package.json')).mtimeMs).toBe(mtime);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('give the same bytes for the same files and time (a seeded package is not stored again)', async () => {
    expect(await tarGz(entries, 1_000_000)).toEqual(await tarGz(entries, 1_000_000));
    expect(await tarGz(entries, 1_000_000)).not.toEqual(await tarGz(entries, 2_000_000));
  });
});
