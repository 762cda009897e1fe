import { LOGBOOK_DATA_SCHEMAS, type LogbookData, type LogbookKind } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { GENESIS_HASH, entryHash } from './hash.ts';

/** The statements of the transaction an entry is written in. */
export type Tx = Omit<SqlExecutor, 'transaction'>;

/** Who did what an entry records, as they were named then; null for the lift or the server itself. */
export interface LogbookActor {
  id: string;
  name: string;
}

export interface NewLogbookEntry<K extends LogbookKind = LogbookKind> {
  liftId: string;
  kind: K;
  actor: LogbookActor | null;
  data: LogbookData<K>;
}

/** A lift's logbook head as locked: its last entry's number and hash (null before the first). */
export interface LogbookHead {
  seq: number;
  hash: string | null;
}

/**
 * Appends one entry to the lift's logbook, inside the transaction of what it records (call it
 * with that transaction's `tx`), so the entry commits or rolls back with it. Its data must
 * have its kind's shape (LOGBOOK_DATA_SCHEMAS), else it throws and the transaction fails.
 *
 * The lift's head row is locked until the transaction ends: appends on one lift, on any
 * instances, chain one after the other. Call it last in the transaction (after every other
 * lock it takes), so no transaction waits for a head while holding what another append needs.
 */
export async function appendLogbook<K extends LogbookKind>(
  tx: Tx,
  entry: NewLogbookEntry<K>,
): Promise<{ seq: number; hash: string }> {
  const heads = await lockLogbookHeads(tx, [entry.liftId]);
  return (await appendToLockedHeads(tx, heads, [entry]))[0]!;
}

/**
 * Appends entries of any lifts whose heads the transaction holds (`lockLogbookHeads`), in
 * their order, in one statement that also advances the heads. What answers a batch of lifts
 * at once (ingest's command answers) writes its logbook entries this way; `heads` is advanced.
 */
export async function appendToLockedHeads(
  tx: Tx,
  heads: Map<string, LogbookHead>,
  entries: NewLogbookEntry[],
): Promise<{ seq: number; hash: string }[]> {
  if (!entries.length) return [];
  const ts = new Date().toISOString();
  const rows = entries.map((entry) => {
    const head = heads.get(entry.liftId);
    if (!head) throw new Error(`the logbook head of lift ${entry.liftId} is not locked`);
    // Parsed, then through JSON: what is hashed now is exactly what the jsonb column gives back.
    const data = JSON.parse(JSON.stringify(LOGBOOK_DATA_SCHEMAS[entry.kind].parse(entry.data))) as Record<string, unknown>;
    const actor = { id: entry.actor?.id ?? null, name: entry.actor?.name ?? null };
    const seq = head.seq + 1;
    const prevHash = head.hash ?? GENESIS_HASH;
    const hash = entryHash({ liftId: entry.liftId, seq, ts, kind: entry.kind, actor, data, prevHash });
    head.seq = seq;
    head.hash = hash;
    return { lift_id: entry.liftId, seq, ts, kind: entry.kind, actor_id: actor.id, actor_name: actor.name, data, prev_hash: prevHash, hash };
  });
  // One statement: the entries, and the heads advanced to the last of each lift.
  const touched = [...new Set(entries.map((e) => e.liftId))];
  await tx.query(
    `with added as (
       insert into lift_logbook (lift_id, seq, ts, kind, actor_id, actor_name, data, prev_hash, hash)
       select lift_id, seq, ts, kind, actor_id, actor_name, data, prev_hash, hash
         from jsonb_to_recordset($1::jsonb) as e(lift_id uuid, seq bigint, ts timestamptz, kind text, actor_id uuid, actor_name text, data jsonb, prev_hash text, hash text)
     )
     update lift_logbook_heads h set seq = v.seq, hash = v.hash
       from unnest($2::uuid[], $3::bigint[], $4::text[]) as v(lift_id, seq, hash) where h.lift_id = v.lift_id`,
    [JSON.stringify(rows), touched, touched.map((id) => heads.get(id)!.seq), touched.map((id) => heads.get(id)!.hash)],
  );
  return rows.map((r) => ({ seq: r.seq, hash: r.hash }));
}

/**
 * Locks the lifts' head rows until the transaction ends (creating each before its first
 * entry), in one order, so two transactions locking several never wait for each other in a
 * circle. A transaction that must change another row a concurrent append also changes (a
 * command's row: the sender's timeout and the lift's answer) locks the head first, so both
 * take the two locks in the same order.
 */
export async function lockLogbookHeads(tx: Tx, liftIds: string[]): Promise<Map<string, LogbookHead>> {
  const ids = headOrder(liftIds);
  if (!ids.length) return new Map();
  return withMissingHeads(tx, ids, await tx.query<LockedHeadRow>(lockHeadsQuery('$1'), [ids]));
}

/** A head row as `lockHeadsQuery` gives it (bigint as text from the driver, as a number through JSON). */
export interface LockedHeadRow {
  lift_id: string;
  seq: string | number;
  hash: string | null;
}

/** The lifts whose heads to lock, in the one order every locker takes them in. */
export function headOrder(liftIds: string[]): string[] {
  return [...new Set(liftIds)].sort();
}

/**
 * The select that locks the heads of the lifts in parameter `idsParam` (in `headOrder`), for
 * a statement that locks them together with its own work (one round trip less), and only if
 * the condition `onlyIf` holds; hand its rows to `withMissingHeads`.
 */
export function lockHeadsQuery(idsParam: string, onlyIf = 'true'): string {
  return `select lift_id, seq, hash from lift_logbook_heads where lift_id = any(${idsParam}::uuid[]) and ${onlyIf} order by lift_id for update`;
}

/**
 * The locked heads, with those of lifts that have none yet (no entry so far) created and
 * locked: a lift's first entry is rare, so a head is made only when it is needed.
 */
export async function withMissingHeads(tx: Tx, ids: string[], locked: LockedHeadRow[]): Promise<Map<string, LogbookHead>> {
  const heads = new Map<string, LogbookHead>();
  const take = (rows: LockedHeadRow[]) => rows.forEach((r) => heads.set(r.lift_id, { seq: Number(r.seq), hash: r.hash }));
  take(locked);
  const missing = ids.filter((id) => !heads.has(id));
  if (missing.length) {
    await tx.query('insert into lift_logbook_heads (lift_id) select unnest($1::uuid[]) order by 1 on conflict (lift_id) do nothing', [missing]);
    take(await tx.query<LockedHeadRow>(lockHeadsQuery('$1'), [missing]));
  }
  return heads;
}

/** One lift's head locked (`lockLogbookHeads`). */
export async function lockLogbookHead(tx: Tx, liftId: string): Promise<LogbookHead> {
  return (await lockLogbookHeads(tx, [liftId])).get(liftId)!;
}

/** Appends one entry in a transaction of its own, for what has no transaction to join. */
export function appendLogbookNow<K extends LogbookKind>(
  sql: SqlExecutor,
  entry: NewLogbookEntry<K>,
): Promise<{ seq: number; hash: string }> {
  return sql.transaction((tx) => appendLogbook(tx, entry));
}
