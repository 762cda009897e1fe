import type { CommandResult, CommandState, RefusalReason } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { COMMAND_LOG_COLUMNS, lockLogbookHead, logCommandFinal, type CommandLogRow } from '../logbook/index.ts';

type Sql = Pick<SqlExecutor, 'query'>;

/** A command's record as its waiters read it. */
export interface CommandRow {
  id: string;
  state: CommandState;
  reason: RefusalReason | null;
  issues: CommandResult['issues'] | null;
  sent_at: Date | null;
  expires_at: Date;
  now: Date;
}

export interface NewCommand {
  id: string;
  liftId: string;
  kind: string;
  name: string;
  args: Record<string, unknown>;
  userId: string;
  username: string;
  expiresAt: Date;
  idempotencyKey: string | null;
  leaseEpoch: number | null;
  approvalId: string | null;
  /** False: the command waits in its cancel window, unsent, until `claimCommand`. */
  sentNow: boolean;
}

/**
 * Records a command. With an idempotency key the (user, key) index decides in the same
 * statement: false when the key was used before (by a double click, a retry, another instance).
 */
export async function insertCommand(sql: Sql, c: NewCommand): Promise<boolean> {
  const rows = await sql.query(
    `insert into lift_commands (id, lift_id, kind, name, args, state, user_id, username, expires_at, idempotency_key, lease_epoch, approval_id, sent_at)
     values ($1, $2, $3, $4, $5::jsonb, 'created', $6, $7, $8, $9, $10, $11, case when $12::boolean then now() end)
     on conflict (user_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`,
    [c.id, c.liftId, c.kind, c.name, JSON.stringify(c.args), c.userId, c.username, c.expiresAt, c.idempotencyKey, c.leaseEpoch, c.approvalId, c.sentNow],
  );
  return rows.length === 1;
}

/**
 * The end of the cancel window: the send takes the command only if it is still unsent and not
 * cancelled, and (for a leased command) its sender still holds that lease with no local use
 * since. The cancel races on the same row; exactly one of them wins.
 */
export async function claimCommand(sql: Sql, id: string, expiresAt: Date): Promise<boolean> {
  const rows = await sql.query(
    `update lift_commands c set state = 'sent', sent_at = now(), expires_at = $2, updated_at = now()
      where c.id = $1 and c.state = 'created' and c.sent_at is null
        and (c.lease_epoch is null or exists (
              select 1 from lift_leases l where l.lift_id = c.lift_id and l.epoch = c.lease_epoch and l.holder_id = c.user_id
                 and l.expires_at > now() and (l.local_until is null or l.local_until <= now())))
      returning id`,
    [id, expiresAt],
  );
  return rows.length === 1;
}

/**
 * Changes a command's state in a transaction that also writes the lift's logbook when the
 * state is final: the lift's head is locked first (as ingest locks it before a command's row).
 */
function finalChange<T>(sql: SqlExecutor, id: string, change: (tx: Sql) => Promise<(CommandLogRow & T) | undefined>): Promise<(CommandLogRow & T) | undefined> {
  return sql.transaction(async (tx) => {
    const [command] = await tx.query<{ lift_id: string }>('select lift_id from lift_commands where id = $1', [id]);
    if (!command) return undefined;
    await lockLogbookHead(tx, command.lift_id);
    const row = await change(tx);
    if (row) await logCommandFinal(tx, row);
    return row;
  });
}

/** A command its lease was lost under in the window: refused as the lift would refuse it. Null when it was cancelled meanwhile. */
export async function refuseUnclaimed(sql: SqlExecutor, id: string): Promise<{ state: CommandState; reason: RefusalReason } | null> {
  const row = await finalChange(sql, id, async (tx) => {
    const [changed] = await tx.query<CommandLogRow>(
      `update lift_commands c set state = 'rejected', updated_at = now(),
              reason = case when exists (select 1 from lift_leases l where l.lift_id = c.lift_id and l.local_until > now()) then 'localControl' else 'leaseHeld' end
        where c.id = $1 and c.state = 'created' and c.sent_at is null returning ${COMMAND_LOG_COLUMNS}`,
      [id],
    );
    return changed;
  });
  return row ? { state: row.state, reason: row.reason as RefusalReason } : null;
}

export async function readCommand(sql: Sql, id: string): Promise<CommandRow | undefined> {
  const [row] = await sql.query<CommandRow>(`select id, state, reason, issues, sent_at, expires_at, now() as now from lift_commands where id = $1`, [id]);
  return row;
}

/** The command of a (user, key), and whether it is the same command as the one asked again. */
export async function commandByKey(sql: Sql, userId: string, key: string, same: { liftId: string; kind: string; name: string; args: Record<string, unknown> }) {
  const [row] = await sql.query<{ id: string; same: boolean }>(
    `select id, (lift_id = $3 and kind = $4 and name = $5 and args = $6::jsonb) as same from lift_commands where user_id = $1 and idempotency_key = $2`,
    [userId, key, same.liftId, same.kind, same.name, JSON.stringify(same.args)],
  );
  return row;
}

export async function setCommandState(sql: SqlExecutor, id: string, state: CommandState, reason: string, onlyFrom: CommandState[]): Promise<boolean> {
  const row = await finalChange(sql, id, async (tx) => {
    const [changed] = await tx.query<CommandLogRow>(`update lift_commands set state = $2, reason = $3, updated_at = now() where id = $1 and state = any($4::text[]) returning ${COMMAND_LOG_COLUMNS}`, [id, state, reason, onlyFrom]);
    return changed;
  });
  return row !== undefined;
}

/** The 'sent' mark of a command no answer has moved on yet. */
export async function markSent(sql: Sql, id: string): Promise<void> {
  await sql.query(`update lift_commands set state = 'sent', updated_at = now() where id = $1 and state = 'created'`, [id]);
}

/**
 * `command/cancel`: the sender's command of that click, cancelled if it is still in its
 * cancel window. Null when there is no such command; `cancelled` false when it was sent already.
 */
export async function cancelByKey(sql: SqlExecutor, liftId: string, userId: string, key: string) {
  const cancelled = await sql.transaction(async (tx) => {
    await lockLogbookHead(tx, liftId);
    const [row] = await tx.query<CommandLogRow>(
      `update lift_commands set state = 'cancelled', reason = 'cancelled', updated_at = now()
        where lift_id = $1 and user_id = $2 and idempotency_key = $3 and state = 'created' and sent_at is null returning ${COMMAND_LOG_COLUMNS}`,
      [liftId, userId, key],
    );
    if (row) await logCommandFinal(tx, row);
    return row && { id: row.id, name: row.name, args: row.args };
  });
  if (cancelled) return { ...cancelled, cancelled: true };
  const [found] = await sql.query<{ id: string; name: string; args: Record<string, unknown> }>(`select id, name, args from lift_commands where lift_id = $1 and user_id = $2 and idempotency_key = $3`, [liftId, userId, key]);
  return found ? { ...found, cancelled: false } : null;
}
