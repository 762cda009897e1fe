import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../src/db/client.ts';
import { migrate } from '../../src/db/migrate.ts';

/**
 * Global setup of the server's tests: migrates one embedded database and keeps its data
 * directory as a tarball, from which each test's fresh PGlite starts. Starting an empty
 * PGlite creates its cluster (about 1.4 s and 1.8 s of CPU) and then every migration runs;
 * from the image it takes about a third of a second. What a test gets is the same database
 * a fresh start and `migrate` would give it.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-pglite-image-'));
  const database = await openPglite(':memory:');
  try {
    await migrate(database.sql);
    const file = path.join(dir, 'migrated.tar');
    // Kept uncompressed: each start then reads it as it is.
    writeFileSync(file, gunzipSync(await database.dumpDataDir!()));
    project.provide('pgliteImage', file);
  } finally {
    await database.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
