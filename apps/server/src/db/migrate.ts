import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlExecutor } from './client.ts';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Applies the SQL files of `migrations/` in name order, each once, each in its own
 * transaction. The same files run on PGlite and PostgreSQL. An advisory lock keeps two
 * server instances that start together from applying the same file twice.
 */
/** The schema this version knows: the migration files, in order. */
export function migrationNames(): string[] {
  return readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/** `through`: stop after this file (an upgrade test builds the schema a database had before). */
export async function migrate(db: SqlExecutor, options: { through?: string } = {}): Promise<string[]> {
  const files = migrationNames().filter((f) => !options.through || f <= options.through);
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.exec(`select pg_advisory_xact_lock(727274)`);
    await tx.exec(`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`);
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.exec(readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [file]);
      applied.push(file);
    }
  });
  return applied;
}
