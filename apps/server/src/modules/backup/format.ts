import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { migrationNames } from '../../db/migrate.ts';

/**
 * A LiftLink backup of the embedded database (PGlite):
 *
 *     LIFTLINK-BACKUP 1\n
 *     {"format":"liftlink-backup", ...manifest as one line of JSON}\n
 *     <the data directory as a gzip'd tar, `payloadBytes` long>
 *
 * The manifest names the product version and the schema (the migrations applied), and
 * carries the payload's length and SHA-256, so a restore refuses a foreign, truncated,
 * damaged or newer-schema file before it touches anything.
 */
export const BACKUP_MAGIC = 'LIFTLINK-BACKUP 1\n';
export const BACKUP_FORMAT = 'liftlink-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** The manifest line is short; anything longer is not ours. */
const MAX_MANIFEST_BYTES = 64 * 1024;

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  product: 'LiftLink';
  productVersion: string;
  createdAt: string;
  database: 'pglite';
  /** The schema: names of the migrations applied, in order. */
  migrations: string[];
  /** What it holds, for the operator (counted when it was taken). */
  counts: Record<string, number>;
  payloadBytes: number;
  payloadSha256: string;
  compression: 'gzip';
}

/** The server's version, from its package. */
export function productVersion(): string {
  const pkg = JSON.parse(
    readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return pkg.version;
}

/** Tables counted into the manifest (and compared by the restore test). */
export const COUNTED_TABLES = [
  'organizations',
  'users',
  'roles',
  'lifts',
  'lift_config_log',
  'lift_events',
  'audit_log',
] as const;

interface Source {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
}

/** Schema and counts of an open database, for the manifest. */
export async function describeDatabase(
  db: Source,
): Promise<{ migrations: string[]; counts: Record<string, number> }> {
  const migrations = (
    await db.query<{ name: string }>('select name from schema_migrations order by name')
  ).map((r) => r.name);
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES)
    counts[table] = Number(
      (await db.query<{ n: string }>(`select count(*) as n from ${table}`))[0]!.n,
    );
  return { migrations, counts };
}

/** The header (magic line and manifest line) to write before `payload`. */
export function backupHeader(
  payload: Uint8Array,
  described: { migrations: string[]; counts: Record<string, number> },
  now = new Date(),
): { header: Buffer; manifest: BackupManifest } {
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    product: 'LiftLink',
    productVersion: productVersion(),
    createdAt: now.toISOString(),
    database: 'pglite',
    migrations: described.migrations,
    counts: described.counts,
    payloadBytes: payload.byteLength,
    payloadSha256: createHash('sha256').update(payload).digest('hex'),
    compression: 'gzip',
  };
  return { header: Buffer.from(`${BACKUP_MAGIC}${JSON.stringify(manifest)}\n`, 'utf8'), manifest };
}

/** A file name like `liftlink-backup-20261124-0712.llbackup`. */
export function backupFileName(at = new Date()): string {
  const s = at.toISOString();
  return `liftlink-backup-${s.slice(0, 10).replaceAll('-', '')}-${s.slice(11, 16).replace(':', '')}.llbackup`;
}

/** Why a file cannot be restored: one line for the operator. */
export class BackupRefused extends Error {}

/**
 * Reads and checks a backup file: ours, whole, undamaged, and of a schema this version
 * knows. Returns the manifest and the payload.
 */
export function readBackup(file: Buffer): { manifest: BackupManifest; payload: Buffer } {
  const magic = Buffer.from(BACKUP_MAGIC, 'utf8');
  if (file.length < magic.length || !file.subarray(0, magic.length).equals(magic)) {
    throw new BackupRefused('this file is not a LiftLink backup');
  }
  const end = file.indexOf(0x0a, magic.length);
  if (end < 0 || end - magic.length > MAX_MANIFEST_BYTES)
    throw new BackupRefused('the backup is truncated or damaged: its description is incomplete');
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(file.subarray(magic.length, end).toString('utf8')) as BackupManifest;
  } catch {
    throw new BackupRefused('the backup is damaged: its description cannot be read');
  }
  if (
    manifest.format !== BACKUP_FORMAT ||
    !Array.isArray(manifest.migrations) ||
    typeof manifest.payloadBytes !== 'number'
  ) {
    throw new BackupRefused('this file is not a LiftLink backup');
  }
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupRefused(
      `the backup was written by a newer LiftLink (${manifest.productVersion}, backup format ${manifest.formatVersion}); update LiftLink first`,
    );
  }
  const payload = file.subarray(end + 1);
  if (payload.length < manifest.payloadBytes) {
    throw new BackupRefused(
      `the backup is truncated: ${payload.length} of ${manifest.payloadBytes} bytes of data`,
    );
  }
  if (
    payload.length > manifest.payloadBytes ||
    createHash('sha256').update(payload).digest('hex') !== manifest.payloadSha256
  ) {
    throw new BackupRefused('the backup is damaged: its data does not match its checksum');
  }
  const known = new Set(migrationNames());
  const unknown = manifest.migrations.filter((m) => !known.has(m));
  if (unknown.length) {
    throw new BackupRefused(
      `the backup comes from a newer schema (${unknown.join(', ')}) than this LiftLink ${productVersion()} knows; update LiftLink first`,
    );
  }
  return { manifest, payload };
}
