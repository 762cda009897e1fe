import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.ts';
import { openPglite } from '../src/db/client.ts';
import { backupFileName, backupHeader, describeDatabase } from '../src/modules/backup/format.ts';
import { runningServerPid } from '../src/modules/backup/server-mark.ts';

/**
 * `npm run backup -- --out FILE`: a consistent backup of the embedded database in DATA_DIR
 * while the server is stopped (while it runs: System → Backup, or GET
 * /auth/access/system/backup). With DATABASE_URL the tool is pg_dump.
 */
function fail(line: string): never {
  process.stderr.write(`liftlink backup: ${line}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run backup -- --out FILE   (DATA_DIR names the data folder, default ./data)\n',
    );
    return;
  }
  const config = loadConfig();
  if (config.databaseUrl)
    fail(
      'this server uses PostgreSQL (DATABASE_URL): back it up with pg_dump, see docs/operations.md "Backup and restore"',
    );
  const out = path.resolve(values.out ?? backupFileName());
  if (existsSync(out)) fail(`${out} exists already; name another file with --out`);
  if (!existsSync(path.join(config.dataDir, 'pg', 'PG_VERSION')))
    fail(`there is no LiftLink database in ${config.dataDir} (set DATA_DIR)`);
  const pid = runningServerPid(config.dataDir);
  if (pid)
    fail(
      `the server is running on ${config.dataDir} (process ${pid}): stop it first, or download the backup from System → Backup`,
    );

  const database = await openPglite(config.dataDir);
  try {
    const described = await describeDatabase(database.sql);
    const payload = await database.dumpDataDir!();
    const { header, manifest } = backupHeader(payload, described);
    // Written beside its final name and renamed: a file under that name is always whole.
    const partial = `${out}.partial`;
    await writeFile(partial, [header, payload]);
    await rename(partial, out);
    const counts = Object.entries(manifest.counts)
      .map(([table, n]) => `${table} ${n}`)
      .join(', ');
    process.stdout.write(
      `wrote ${out} (${header.length + payload.byteLength} bytes; schema ${manifest.migrations.at(-1)}; ${counts})\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) =>
  fail(err instanceof ConfigError ? err.message : err instanceof Error ? err.message : String(err)),
);
