import { z } from 'zod';

/**
 * System → Backup: what the page shows before the download. `database` is `pglite` for the
 * embedded database (the server writes the backup) or `postgres` (back up with pg_dump).
 */
export const backupInfoSchema = z.strictObject({
  database: z.enum(['pglite', 'postgres']),
  productVersion: z.string(),
  /** The schema: the last migration applied, and how many there are. */
  schema: z.strictObject({ latest: z.string(), count: z.number().int() }),
  /** Rows of what a backup holds: organizations, users, lifts, run-log entries, ... */
  counts: z.record(z.string(), z.number().int()),
  /** Size of the embedded database's folder on disk, in bytes (null with PostgreSQL). */
  dataBytes: z.number().int().nullable(),
  /** The run log's retention in days (RUN_LOG_RETENTION_DAYS). */
  runLogRetentionDays: z.number().int(),
});
export type BackupInfo = z.infer<typeof backupInfoSchema>;
