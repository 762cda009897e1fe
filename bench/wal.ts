import type { SqlExecutor } from '../apps/server/src/db/client.ts';

/** PostgreSQL's WAL position now: what the benches read before and after a load. */
export async function walPosition(sql: SqlExecutor): Promise<string> {
  return (await sql.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'))[0]!.lsn;
}

/** Bytes of WAL written between two positions. */
export async function walBytesBetween(sql: SqlExecutor, from: string, to: string): Promise<number> {
  return Number((await sql.query<{ d: string }>('select pg_wal_lsn_diff($2, $1) as d', [from, to]))[0]!.d);
}
