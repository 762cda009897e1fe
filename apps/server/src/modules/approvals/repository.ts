import type { ApprovalState, ApprovalView, CommandClass, CommandState, RefusalReason } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { appendLogbook } from '../logbook/index.ts';

type Executor = Pick<SqlExecutor, 'query'>;

/**
 * A request as everyone sees it. A pending request past its `expires_at` reads as expired even
 * before a query writes it so (`expireDue`); the command's state is the command's own (its
 * row moves on from `accepted` to `done`), or the outcome recorded when it never became one.
 */
const VIEW_SELECT = `
  select a.id, a.lift_id as "liftId", a.name as command, a.args, a.command_class as "commandClass", a.reason,
         case when a.state = 'pending' and a.expires_at <= now() then 'expired' else a.state end as state,
         a.requester_id as "requesterId", coalesce((select nullif(trim(u.name), '') from users u where u.id = a.requester_id), a.requester_name) as "requesterName", a.requested_at as "requestedAt", a.expires_at as "expiresAt",
         a.decider_id as "deciderId", coalesce((select nullif(trim(u.name), '') from users u where u.id = a.decider_id), a.decider_name) as "deciderName",
         case when a.state = 'pending' and a.expires_at <= now() then a.expires_at else a.decided_at end as "decidedAt",
         a.command_id as "commandId", coalesce(c.state, a.command_state) as "commandState", coalesce(c.reason, a.command_reason) as "commandReason"
    from command_approvals a left join lift_commands c on c.id = a.command_id`;

/** Dates as ISO strings, so the view is the same whether it goes out as an answer or on the live bus. */
function toView(row: ApprovalView): ApprovalView {
  const iso = (d: unknown) => (d == null ? null : new Date(d as string).toISOString());
  return { ...row, requestedAt: iso(row.requestedAt)!, expiresAt: iso(row.expiresAt)!, decidedAt: iso(row.decidedAt) };
}

export interface NewApproval {
  liftId: string;
  name: string;
  args: Record<string, unknown>;
  commandClass: CommandClass;
  reason: string;
  requesterId: string;
  requesterName: string;
  windowMs: number;
  idempotencyKey: string;
}

/**
 * Creates a pending request; undefined when the requester made one with this idempotency key
 * already (a retried click, perhaps at the same moment on another instance): the caller
 * answers that one instead. The lift's logbook gets the request in the same transaction.
 */
export async function insertApproval(sql: SqlExecutor, a: NewApproval): Promise<string | undefined> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ id: string }>(
      `insert into command_approvals (lift_id, name, args, command_class, reason, requester_id, requester_name, expires_at, idempotency_key)
       values ($1, $2, $3::jsonb, $4, $5, $6, $7, now() + make_interval(secs => $8::double precision / 1000), $9)
       on conflict (requester_id, idempotency_key) do nothing returning id`,
      [a.liftId, a.name, JSON.stringify(a.args), a.commandClass, a.reason, a.requesterId, a.requesterName, a.windowMs, a.idempotencyKey],
    );
    if (row) await appendLogbook(tx, { liftId: a.liftId, kind: 'approval', actor: { id: a.requesterId, name: a.requesterName }, data: { action: 'requested', approvalId: row.id, command: a.name, args: a.args, reason: a.reason } });
    return row?.id;
  });
}

export async function findApproval(sql: Executor, id: string): Promise<ApprovalView | undefined> {
  const [row] = await sql.query<ApprovalView>(`${VIEW_SELECT} where a.id = $1`, [id]);
  return row ? toView(row) : undefined;
}

/** The request a requester made with this idempotency key, if any. */
export async function findApprovalByKey(sql: Executor, requesterId: string, idempotencyKey: string): Promise<ApprovalView | undefined> {
  const [row] = await sql.query<ApprovalView>(`${VIEW_SELECT} where a.requester_id = $1 and a.idempotency_key = $2`, [requesterId, idempotencyKey]);
  return row ? toView(row) : undefined;
}

/**
 * Decides a request that is still pending and not expired, in one statement: of two
 * approvers (or an approver and the requester withdrawing) at the same moment exactly one
 * changes it (true); for the other nothing changes (false). The decision goes into the
 * lift's logbook in the same transaction.
 */
export async function decideApproval(sql: SqlExecutor, id: string, state: Exclude<ApprovalState, 'pending' | 'expired'>, decider: { userId: string; username: string }): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const [row] = await tx.query<{ lift_id: string; name: string; args: Record<string, unknown> }>(
      `update command_approvals set state = $2, decider_id = $3, decider_name = $4, decided_at = now()
        where id = $1 and state = 'pending' and expires_at > now() returning lift_id, name, args`,
      [id, state, decider.userId, decider.username],
    );
    if (row) await appendLogbook(tx, { liftId: row.lift_id, kind: 'approval', actor: { id: decider.userId, name: decider.username }, data: { action: state, approvalId: id, command: row.name, args: row.args, reason: null } });
    return row !== undefined;
  });
}

/** Writes `expired` on the lift's pending requests past their time; the ids of those it changed (their watchers are told). */
export async function expireDue(sql: Executor, where: { liftId: string } | { id: string }): Promise<string[]> {
  const [column, value] = 'liftId' in where ? ['lift_id', where.liftId] : ['id', where.id];
  const rows = await sql.query<{ id: string }>(
    `update command_approvals set state = 'expired', decided_at = expires_at where ${column} = $1 and state = 'pending' and expires_at <= now() returning id`,
    [value],
  );
  return rows.map((r) => r.id);
}

/** The command an approval ran, or (no command id) the outcome of one refused before it was created. */
export async function recordCommand(sql: Executor, id: string, outcome: { commandId: string | null; state: CommandState | null; reason: RefusalReason | null }): Promise<void> {
  await sql.query(`update command_approvals set command_id = coalesce($2, command_id), command_state = $3, command_reason = $4 where id = $1`, [id, outcome.commandId, outcome.state, outcome.reason]);
}

/** The lift's pending requests and those decided (or expired) in the last hour, newest first. */
export async function listApprovals(sql: Executor, liftId: string): Promise<ApprovalView[]> {
  const rows = await sql.query<ApprovalView>(
    `${VIEW_SELECT} where a.lift_id = $1 and coalesce(a.decided_at, a.expires_at) > now() - interval '1 hour'
      order by a.requested_at desc, a.id`,
    [liftId],
  );
  return rows.map(toView);
}
