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
  // Parsed, then through JSON: what is hashed now is exactly what the jsonb column gives back.
  const data = JSON.parse(
    JSON.stringify(LOGBOOK_DATA_SCHEMAS[entry.kind].parse(entry.data)),
  ) as Record<string, unknown>;
  const head = await lockLogbookHead(tx, entry.liftId);
  const seq = head.seq + 1;
  const prevHash = head.hash ?? GENESIS_HASH;
  const ts = new Date().toISOString();
  const actor = { id: entry.actor?.id ?? null, name: entry.actor?.name ?? null };
  const hash = entryHash({
    liftId: entry.liftId,
    seq,
    ts,
    kind: entry.kind,
    actor,
    data,
    prevHash,
  });
  await tx.query(
    `insert into lift_logbook (lift_id, seq, ts, kind, actor_id, actor_name, data, prev_hash, hash) values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9)`,
    [entry.liftId, seq, ts, entry.kind, actor.id, actor.name, JSON.stringify(data), prevHash, hash],
  );
  await tx.query('update lift_logbook_heads set seq = $2, hash = $3 where lift_id = $1', [
    entry.liftId,
    seq,
    hash,
  ]);
  return { seq, hash };
}

/**
 * Locks the lift's head row until the transaction ends (creating it before the first entry).
 * A transaction that must change another row a concurrent append also changes (a command's
 * row: the sender's timeout and the lift's answer) locks the head first, so both take the two
 * locks in the same order.
 */
export async function lockLogbookHead(
  tx: Tx,
  liftId: string,
): Promise<{ seq: number; hash: string | null }> {
  const lock = () =>
    tx.query<{ seq: string | number; hash: string | null }>(
      'select seq, hash from lift_logbook_heads where lift_id = $1 for update',
      [liftId],
    );
  let [head] = await lock();
  if (!head) {
    await tx.query(
      'insert into lift_logbook_heads (lift_id) values ($1) on conflict (lift_id) do nothing',
      [liftId],
    );
    [head] = await lock();
  }
  return { seq: Number(head!.seq), hash: head!.hash };
}

/** Appends one entry in a transaction of its own, for what has no transaction to join. */
export function appendLogbookNow<K extends LogbookKind>(
  sql: SqlExecutor,
  entry: NewLogbookEntry<K>,
): Promise<{ seq: number; hash: string }> {
  return sql.transaction((tx) => appendLogbook(tx, entry));
}
