import fp from 'fastify-plugin';
import { openPglite, openPostgres, type Database } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { seed } from '../db/seed.ts';
import { writeAudit } from '../modules/audit/repository.ts';

export interface DbPluginOptions {
  /** A database opened by the caller (tests share one per file); closed by the caller. */
  database?: Database;
  onAdminPassword?: (username: string, password: string) => void;
}

/** Opens PostgreSQL (DATABASE_URL) or PGlite in DATA_DIR, migrates and seeds. */
export default fp<DbPluginOptions>(async (app, opts) => {
  const { config } = app;
  const database = opts.database ?? (config.databaseUrl ? await openPostgres(config.databaseUrl) : await openPglite(config.dataDir));
  const applied = await migrate(database.sql);
  if (applied.length) app.log.info({ applied }, 'database migrated');
  const seeded = await seed(database, { adminUser: config.adminUser, adminPassword: config.adminPassword, makerName: config.site.maker });
  if (seeded.generatedPassword) opts.onAdminPassword?.(config.adminUser, seeded.generatedPassword);
  app.decorate('database', database);
  app.decorate('audit', (entry) => writeAudit(database, entry));
  app.healthChecks.set('database', () => database.ping());
  if (!opts.database) app.addHook('onClose', () => database.close());
});
