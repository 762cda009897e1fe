import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { ConfigError, loadConfig } from '../src/config.ts';
import { BackupRefused, readBackup } from '../src/modules/backup/format.ts';

/**
 * `npm run restore -- FILE`: restores a LiftLink backup into an empty DATA_DIR. Refuses,
 * with one line and exit code 1, a folder that holds anything, a file that is not a
 * LiftLink backup, a truncated or damaged one, and one from a newer schema.
 */
function fail(line: string): never {
  process.stderr.write(`liftlink restore: ${line}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help || positionals.length !== 1) {
    process.stdout.write(
      'usage: npm run restore -- FILE   (into DATA_DIR, default ./data, which must be empty)\n',
    );
    if (!values.help) process.exit(1);
    return;
  }
  const config = loadConfig();
  if (config.databaseUrl)
    fail(
      'this server uses PostgreSQL (DATABASE_URL): restore with pg_restore, see docs/operations.md "Backup and restore"',
    );
  const file = path.resolve(positionals[0]!);
  if (!existsSync(file)) fail(`${file} does not exist`);
  const dataDir = config.dataDir;
  const existed = existsSync(dataDir);
  if (existed && readdirSync(dataDir).length > 0)
    fail(`${dataDir} is not empty: restore into an empty DATA_DIR (nothing was changed)`);

  const { manifest, payload } = readBackup(await readFile(file));
  const target = path.join(dataDir, 'pg');
  mkdirSync(target, { recursive: true });
  try {
    const pg = new PGlite(target, { loadDataDir: new Blob([payload]) });
    await pg.waitReady;
    const migrations = (
      await pg.query<{ name: string }>('select name from schema_migrations order by name')
    ).rows.map((r) => r.name);
    await pg.close();
    if (migrations.join() !== manifest.migrations.join())
      throw new BackupRefused("the restored database does not match the backup's description");
  } catch (err) {
    // Leave DATA_DIR as it was: empty (or absent).
    rmSync(existed ? target : dataDir, { recursive: true, force: true });
    throw err;
  }
  const counts = Object.entries(manifest.counts)
    .map(([table, n]) => `${table} ${n}`)
    .join(', ');
  process.stdout.write(
    `restored the backup of ${manifest.createdAt} (LiftLink ${manifest.productVersion}, schema ${manifest.migrations.at(-1)}) into ${dataDir}: ${counts}\n`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof BackupRefused || err instanceof ConfigError) fail(err.message);
  fail(`the backup could not be restored: ${err instanceof Error ? err.message : String(err)}`);
});
