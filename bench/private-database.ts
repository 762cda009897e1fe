import pg from 'pg';

/** The server the benches create their databases on (BENCH_DATABASE_URL, TEST_DATABASE_URL or the local default). */
export const benchAdminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface PrivateDatabase {
  name: string;
  url: string;
  /** Drops the database, or keeps it (and says so) with BENCH_KEEP=1 for a look at what was seeded. */
  drop(): Promise<void>;
}

/**
 * A database of the bench's own (`<prefix>_<time>`) on the admin server: seeding millions of
 * rows never touches a database someone else uses, and dropping it cleans up at once.
 * Throws when the server cannot be reached within `connectTimeoutMs` (no timeout by default).
 */
export async function createPrivateDatabase(prefix: string, options: { connectTimeoutMs?: number; log?: (line: string) => void } = {}): Promise<PrivateDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: benchAdminUrl, ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}) });
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (err) {
    await admin.end().catch(() => undefined);
    throw err;
  }
  const url = new URL(benchAdminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      try {
        if (process.env.BENCH_KEEP === '1') options.log?.(`kept database ${name}`);
        else await admin.query(`drop database if exists ${name} with (force)`);
      } finally {
        await admin.end();
      }
    },
  };
}
