import type { FastifyInstance, FastifyRequest } from 'fastify';
import { commandClass, liftCommandSchema, refusalText, type ApprovalView, type CommandResult, type CommandState, type RefusalReason } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import type { OwnedLift } from '../lifts/scope.ts';
import { ownedLift } from '../lifts/scope.ts';
import { sendCommand } from '../commands/service.ts';
import { approvalClassesFor, leaseForCommand, readLease } from '../control/index.ts';
import { decideApproval, expireDue, findApproval, findApprovalByKey, insertApproval, listApprovals, recordCommand } from './repository.ts';

/**
 * Two-person approval (docs/remote-control.md, "Two-person approval"): a command of a class
 * the lift's organization puts under approval is asked for with a reason, and runs only when
 * another user approves it, under the requester's lease. Every change is told to the lift's
 * watchers (live `approval` message) and audited.
 */

export interface ApprovalRequestInput {
  command: string;
  args: Record<string, unknown>;
  reason: string;
  idempotencyKey: string;
}

/** The command checked against this lift as `control` checks it (its floors), or validation.failed. */
function liftCommand(lift: OwnedLift, name: string, args: Record<string, unknown>) {
  const parsed = liftCommandSchema(lift.floors).safeParse({ name, args });
  if (!parsed.success) {
    throw new AppError('validation.failed', { issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message.startsWith('validation.') ? i.message : 'validation.invalid' })) });
  }
  return parsed.data;
}

/** Tells everyone watching the lift how the request stands now. */
async function publish(app: FastifyInstance, id: string): Promise<ApprovalView> {
  const approval = (await findApproval(app.database.sql, id))!;
  await app.live.publish([{ type: 'approval', liftId: approval.liftId, approval }]);
  return approval;
}

/** Writes `expired` on the requests past their time (of one lift, or one request) and tells their watchers. */
async function expire(app: FastifyInstance, where: { liftId: string } | { id: string }): Promise<void> {
  for (const id of await expireDue(app.database.sql, where)) await publish(app, id);
}

const who = (request: FastifyRequest) => ({ userId: request.auth!.userId, username: request.auth!.username, ip: request.ip });

export async function requestApproval(app: FastifyInstance, request: FastifyRequest, lift: OwnedLift, input: ApprovalRequestInput): Promise<ApprovalView> {
  const { sql } = app.database;
  const auth = request.auth!;
  const cmd = liftCommand(lift, input.command, input.args);
  const { name, args } = cmd as { name: string; args: Record<string, unknown> };
  // The same click again (a retry, a double click): the request it made, nothing new.
  const earlier = await findApprovalByKey(sql, auth.userId, input.idempotencyKey);
  if (earlier) return sameClick(earlier, lift);

  const cls = commandClass(cmd);
  if (!(await approvalClassesFor(sql, lift)).includes(cls)) {
    // Nothing to approve: the command is sent directly (`control`). A 409 in the shape of a
    // validation answer, so the page can mark the command field.
    throw new AppError('conflict', { commandClass: cls, issues: [{ path: 'command', message: 'validation.invalid' }] }, 'This command needs no approval; send it directly');
  }
  const audit = (result: string, detail: Record<string, unknown>) =>
    app.audit({ action: 'lift.approvalRequest', result, ...who(request), liftId: lift.id, targetType: 'lift', targetId: lift.device_no ?? lift.id, detail: { name, args, ...detail } });
  // The requester must control the lift: the approved command runs under their lease.
  // Held already: extended; free: taken for them (audited as a take); another's: lease.held.
  try {
    await leaseForCommand(app, who(request), lift.id, true);
  } catch (err) {
    if (err instanceof AppError) await audit('failed', { reason: refusalOf(err) ?? err.code });
    throw err;
  }
  const id = await insertApproval(sql, { liftId: lift.id, name, args, commandClass: cls, reason: input.reason, requesterId: auth.userId, requesterName: auth.username, windowMs: app.config.approvalWindowMs, idempotencyKey: input.idempotencyKey });
  // Another instance stored the same click a moment earlier.
  if (!id) return sameClick((await findApprovalByKey(sql, auth.userId, input.idempotencyKey))!, lift);
  await audit('ok', { approvalId: id, justification: input.reason });
  return publish(app, id);
}

/** A click's key names one request on one lift; the same key for another lift is a mistake of the caller. */
function sameClick(earlier: ApprovalView, lift: OwnedLift): ApprovalView {
  if (earlier.liftId !== lift.id) throw new AppError('conflict', { issues: [{ path: 'idempotencyKey', message: 'validation.invalid' }] }, 'This idempotency key was used for another lift');
  return earlier;
}

type Decision = 'approved' | 'rejected' | 'withdrawn';

/**
 * Loads a request for a decision by the caller: within the scope of the route's grant
 * (a lift out of reach is "not found", like every lift route), and decided by the right
 * person: another user approves or rejects, only the requester withdraws.
 */
async function forDecision(app: FastifyInstance, request: FastifyRequest, approvalId: string, decision: Decision) {
  const { sql } = app.database;
  const auth = request.auth!;
  const approval = await findApproval(sql, approvalId);
  if (!approval) throw new AppError('approval.notFound');
  const lift = await ownedLift(sql, auth, approval.liftId);
  const audit = (result: string, detail: Record<string, unknown>) =>
    app.audit({ action: 'lift.approvalDecision', result, ...who(request), liftId: lift.id, targetType: 'lift', targetId: lift.device_no ?? lift.id, detail: { name: approval.command, args: approval.args, approvalId, requester: approval.requesterName, ...detail } });
  const own = approval.requesterId === auth.userId;
  if (decision !== 'withdrawn' && own) {
    await audit('denied', { reason: 'approval.ownRequest' });
    throw new AppError('approval.ownRequest', { approval });
  }
  if (decision === 'withdrawn' && !own) {
    await audit('denied', { reason: 'forbidden' });
    throw new AppError('forbidden', { approval }, 'Only the requester may withdraw a request');
  }
  return { approval, lift, audit };
}

/** Decides in one statement; a request decided, withdrawn or expired meanwhile answers approval.closed. */
async function decide(app: FastifyInstance, request: FastifyRequest, approvalId: string, decision: Decision, audit: (result: string, detail: Record<string, unknown>) => Promise<void>): Promise<ApprovalView> {
  if (!(await decideApproval(app.database.sql, approvalId, decision, request.auth!))) {
    await expire(app, { id: approvalId });
    await audit('failed', { reason: 'approval.closed' });
    throw new AppError('approval.closed', { approval: await findApproval(app.database.sql, approvalId) });
  }
  await audit('ok', { decision });
  return publish(app, approvalId);
}

/** Rejects (another user) or withdraws (the requester) a pending request. */
export async function closeApproval(app: FastifyInstance, request: FastifyRequest, approvalId: string, decision: 'rejected' | 'withdrawn'): Promise<ApprovalView> {
  const { audit } = await forDecision(app, request, approvalId, decision);
  return decide(app, request, approvalId, decision, audit);
}

/**
 * Approves a pending request of another user and runs its command at once, as the
 * requester's and under their lease; answers the command's outcome. The approval is
 * decided before the command is sent, in one statement, so two approvers never run it twice.
 */
export async function approveAndRun(app: FastifyInstance, request: FastifyRequest, approvalId: string): Promise<CommandResult> {
  const { approval, lift, audit } = await forDecision(app, request, approvalId, 'approved');
  const requester = { userId: approval.requesterId, username: approval.requesterName };
  // Left pending when the command cannot run now (the lift offline, the requester no longer
  // controlling it): once that changes it can still be approved within its window.
  if (approval.state === 'pending' && !lift.online) {
    await audit('failed', { reason: 'offline' });
    throw new AppError('lift.offline', { commandId: null, state: 'failed', reason: 'offline', reasonText: refusalText('offline', request.auth!.language) });
  }
  if (approval.state === 'pending' && (await readLease(app, lift.id)).lease?.holderId !== requester.userId) {
    await audit('failed', { reason: 'lease.lost' });
    throw new AppError('lease.lost', { approval });
  }
  await decide(app, request, approvalId, 'approved', audit);
  const { sql } = app.database;
  try {
    const result = await sendCommand(app, request, lift, {
      kind: 'cmd',
      name: approval.command,
      args: approval.args,
      payload: { name: approval.command, args: approval.args },
      actor: requester,
      approval: { id: approvalId, requester: approval.requesterName, approver: request.auth!.username },
      // A second guard, in the database: one command per approval, whatever happens above.
      idempotencyKey: approvalId,
    });
    await recordCommand(sql, approvalId, { commandId: result.commandId, state: null, reason: null });
    await publish(app, approvalId);
    return result;
  } catch (err) {
    const outcome = outcomeOf(err);
    await recordCommand(sql, approvalId, outcome);
    await publish(app, approvalId);
    throw err;
  }
}

/** The lift's pending requests and those decided in the last hour, newest first (expired ones written so first). */
export async function approvalsOf(app: FastifyInstance, lift: OwnedLift): Promise<ApprovalView[]> {
  await expire(app, { liftId: lift.id });
  return listApprovals(app.database.sql, lift.id);
}

/** The lift's refusal reason that an error of the control rules stands for. */
function refusalOf(err: AppError): RefusalReason | null {
  const result = err.result as { reason?: RefusalReason } | null;
  if (result?.reason) return result.reason;
  const byCode: Partial<Record<string, RefusalReason>> = { 'lease.held': 'leaseHeld', 'lease.lost': 'noLease', 'lease.localControl': 'localControl', 'lift.offline': 'offline', 'lift.timeout': 'timeout' };
  return byCode[err.code] ?? null;
}

/** What an approval records of a command that failed: its id when it was created, else why it never was. */
function outcomeOf(err: unknown): { commandId: string | null; state: CommandState | null; reason: RefusalReason | null } {
  if (!(err instanceof AppError)) return { commandId: null, state: 'failed', reason: null };
  const result = err.result as { commandId?: string | null } | null;
  if (result?.commandId) return { commandId: result.commandId, state: null, reason: null };
  return { commandId: null, state: 'failed', reason: refusalOf(err) };
}
