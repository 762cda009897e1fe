import type { LogbookEntry, LogbookKind } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';

type Sql = Pick<SqlExecutor, 'query'>;

/** An entry as stored. */
export interface LogbookRow {
  seq: string | number;
  ts: Date | string;
  kind: LogbookKind;
  actor_id: string | null;
  actor_name: string | null;
  data: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

export interface LogbookFilter {
  liftId: string;
  kinds?: LogbookKind[] | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const COLUMNS = 'seq, ts, kind, actor_id, actor_name, data, prev_hash, hash';

export function toEntry(row: LogbookRow): LogbookEntry {
  return {
    seq: Number(row.seq),
    ts: new Date(row.ts).toISOString(),
    kind: row.kind,
    actorId: row.actor_id,
    actorName: row.actor_name,
    data: row.data,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

function where(f: LogbookFilter): { clause: string; params: unknown[] } {
  const params: unknown[] = [f.liftId];
  const parts = ['lift_id = $1'];
  if (f.kinds?.length) parts.push(`kind = any($${params.push(f.kinds)}::text[])`);
  if (f.from) parts.push(`ts >= $${params.push(f.from)}::timestamptz`);
  if (f.to) parts.push(`ts < $${params.push(f.to)}::timestamptz`);
  return { clause: parts.join(' and '), params };
}

/** A page of the matching entries, newest first. */
export async function logbookPage(
  sql: Sql,
  f: LogbookFilter,
  page: number,
  pageSize: number,
): Promise<{ list: LogbookEntry[]; total: number }> {
  const { clause, params } = where(f);
  const [count] = await sql.query<{ n: string }>(
    `select count(*) as n from lift_logbook where ${clause}`,
    params,
  );
  const rows = await sql.query<LogbookRow>(
    `select ${COLUMNS} from lift_logbook where ${clause} order by seq desc limit $${params.length + 1} offset $${params.length + 2}`,
    [...params, pageSize, (page - 1) * pageSize],
  );
  return { list: rows.map(toEntry), total: Number(count!.n) };
}

/** The matching entries, oldest first (the chain's order), at most `max`. */
export async function logbookRows(
  sql: Sql,
  f: LogbookFilter,
  max: number,
): Promise<LogbookEntry[]> {
  const { clause, params } = where(f);
  const rows = await sql.query<LogbookRow>(
    `select ${COLUMNS} from lift_logbook where ${clause} order by seq limit $${params.length + 1}`,
    [...params, max],
  );
  return rows.map(toEntry);
}

/** The entries after `afterSeq` up to `untilSeq`, in seq order, `limit` at a time (verify reads the chain in parts). */
export async function chainPart(
  sql: Sql,
  liftId: string,
  afterSeq: number,
  untilSeq: number,
  limit: number,
): Promise<LogbookEntry[]> {
  const rows = await sql.query<LogbookRow>(
    `select ${COLUMNS} from lift_logbook where lift_id = $1 and seq > $2 and seq <= $3 order by seq limit $4`,
    [liftId, afterSeq, untilSeq, limit],
  );
  return rows.map(toEntry);
}

/** The lift's head: the last seq and hash written (0 and null before the first entry). */
export async function logbookHead(
  sql: Sql,
  liftId: string,
): Promise<{ seq: number; hash: string | null }> {
  const [head] = await sql.query<{ seq: string; hash: string | null }>(
    'select seq, hash from lift_logbook_heads where lift_id = $1',
    [liftId],
  );
  return { seq: Number(head?.seq ?? 0), hash: head?.hash ?? null };
}

/** The first entry after `seq`, if any (one the head does not count). */
export async function firstAfter(sql: Sql, liftId: string, seq: number): Promise<number | null> {
  const [row] = await sql.query<{ seq: string }>(
    'select seq from lift_logbook where lift_id = $1 and seq > $2 order by seq limit 1',
    [liftId, seq],
  );
  return row ? Number(row.seq) : null;
}
