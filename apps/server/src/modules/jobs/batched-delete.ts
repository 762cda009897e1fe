import type { SqlExecutor } from '../../db/client.ts';

/** Rows removed per statement: short statements, so ingest never waits long behind one. */
export const DELETE_BATCH = 10_000;

/**
 * Deletes the rows of a plain (not partitioned) table that match `where`, a batch per
 * statement, each committed on its own; returns how many went. Stops between two batches
 * when `signal` is aborted (the server is closing).
 */
export async function deleteInBatches(
  sql: SqlExecutor,
  table: string,
  where: string,
  params: unknown[] = [],
  signal?: AbortSignal,
  batch = DELETE_BATCH,
  account?: { returning: string; then: string },
): Promise<number> {
  let total = 0;
  while (!signal?.aborted) {
    // `account`: what the deleted rows return and a data-modifying statement over them
    // (`gone`), run in the same statement, so counters kept elsewhere follow each batch.
    const rows = await sql.query<{ n: string }>(
      `with gone as (delete from ${table} where ctid = any(array(select ctid from ${table} where ${where} limit ${batch})) returning ${account?.returning ?? '1'})${account ? `, accounted as (${account.then})` : ''} select count(*) as n from gone`,
      params,
    );
    const n = Number(rows[0]?.n ?? 0);
    total += n;
    if (n < batch) break;
  }
  return total;
}
