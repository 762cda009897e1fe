import { createHash } from 'node:crypto';
import type { LogbookKind } from '@liftlink/protocol';

/** The `prevHash` of a lift's first entry: 64 zeros. */
export const GENESIS_HASH = '0'.repeat(64);

/** The fields an entry's hash covers (docs/logbook.md "The hash"). */
export interface HashedFields {
  liftId: string;
  seq: number;
  /** ISO 8601 in UTC with milliseconds, as `Date.prototype.toISOString` writes it. */
  ts: string;
  kind: LogbookKind;
  actor: { id: string | null; name: string | null };
  data: unknown;
  prevHash: string;
}

/**
 * JSON with no whitespace and every object's keys sorted by UTF-16 code units (as RFC 8785,
 * the JSON Canonicalization Scheme, for the values an entry holds: strings, finite numbers,
 * booleans, null, arrays, objects). Keys whose value is undefined are left out, as JSON does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('a logbook entry holds only finite numbers');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new Error(`a logbook entry cannot hold a ${typeof value}`);
}

/** The entry's hash: SHA-256, lowercase hex, of the UTF-8 bytes of the canonical JSON of its fields. */
export function entryHash(fields: HashedFields): string {
  return createHash('sha256').update(canonicalJson(fields), 'utf8').digest('hex');
}
