import type { FastifyInstance } from 'fastify';
import { CONTROL_LEASE_MS, type CommandLease, type LeaseEndReason, type LeaseState, type LeaseView, type LiveLeaseMessage } from '@liftlink/protocol';
import { AppError } from '../../lib/errors.ts';
import { logLeaseChange } from '../logbook/index.ts';
import { clearExpiredLease, clearLease, extendLease, grantLease, isExpiredUntold, isHeld, localUntil, lockLeaseRow, readLeaseRow, type LeaseRow } from './lease-repository.ts';

/**
 * The remote-control lease of a lift (docs/remote-control.md): one holder at a time, each
 * lease the lift's next epoch. Every decision is taken on the locked lease row, so two users
 * on two instances never both win; the live `lease` message and the audit follow the commit.
 */

export interface LeaseUser {
  userId: string;
  username: string;
}

/** Who asks, for the audit. */
export interface LeaseCaller extends LeaseUser {
  ip: string | null;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function leaseView(row: LeaseRow): LeaseView | null {
  if (!isHeld(row)) return null;
  return { liftId: row.lift_id, epoch: row.epoch, holderId: row.holder_id, holderName: row.holder_name, acquiredAt: iso(row.acquired_at), expiresAt: iso(row.expires_at) };
}

export function leaseState(row: LeaseRow): LeaseState {
  const until = localUntil(row);
  return { lease: leaseView(row), localUntil: until ? until.toISOString() : null };
}

export function leaseMessage(row: LeaseRow, ended: LeaseEndReason | null = null, endedHolderId: string | null = null): LiveLeaseMessage {
  return { type: 'lease', liftId: row.lift_id, ...leaseState(row), ended, endedHolderId };
}

/** The refusal while another user holds the lease (`lease.held`, or `lease.lost` for one who should have held it). */
function heldBy(row: LeaseRow & { holder_name: string; expires_at: Date }, code: 'lease.held' | 'lease.lost' = 'lease.held'): AppError {
  return new AppError(code, { holderName: row.holder_name, expiresAt: iso(row.expires_at) });
}

function localControl(until: Date): AppError {
  return new AppError('lease.localControl', { localUntil: until.toISOString() });
}

/** What a decision on the locked row did. */
type Change = { kind: 'granted'; before: LeaseRow } | { kind: 'extended' } | { kind: 'cleared'; before: LeaseRow } | { kind: 'none' };

/** Runs `decide` on the locked lease row; it throws a refusal or names the change to make. */
async function changeLease(
  app: FastifyInstance,
  liftId: string,
  decide: (row: LeaseRow) => 'grant' | 'extend' | 'clear' | 'none',
  holder: LeaseUser,
): Promise<{ row: LeaseRow; change: Change }> {
  return app.database.sql.transaction(async (tx) => {
    const row = await lockLeaseRow(tx, liftId);
    const decision = decide(row);
    let result: { row: LeaseRow; change: Change } = { row, change: { kind: 'none' } };
    if (decision === 'grant') result = { row: await grantLease(tx, liftId, holder, CONTROL_LEASE_MS), change: { kind: 'granted', before: row } };
    if (decision === 'extend') result = { row: await extendLease(tx, liftId, CONTROL_LEASE_MS), change: { kind: 'extended' } };
    if (decision === 'clear') result = { row: await clearLease(tx, liftId), change: { kind: 'cleared', before: row } };
    // Taken, taken over and released go into the lift's logbook with the change (a renewal does not).
    await logLeaseChange(tx, holder, result.change, result.row);
    return result;
  });
}

/** Tells every watcher about a new lease, and who lost theirs (taken over, or expired unnoticed). */
async function announceGrant(app: FastifyInstance, caller: LeaseCaller, row: LeaseRow, before: LeaseRow): Promise<void> {
  const takenFrom = isHeld(before) ? before : null;
  const ended: LeaseEndReason | null = takenFrom ? 'takenOver' : isExpiredUntold(before) ? 'expired' : null;
  await app.live.publish([leaseMessage(row, ended, ended ? before.holder_id : null)]);
  await app.audit({
    action: 'lift.leaseTake',
    result: 'ok',
    userId: caller.userId,
    username: caller.username,
    ip: caller.ip,
    liftId: row.lift_id,
    targetType: 'lift',
    targetId: row.lift_id,
    detail: { epoch: row.epoch, ...(takenFrom ? { takenOverFrom: takenFrom.holder_name } : {}) },
  });
}

async function auditRefusedTake(app: FastifyInstance, caller: LeaseCaller, liftId: string, reason: 'leaseHeld' | 'localControl'): Promise<void> {
  await app.audit({ action: 'lift.leaseTake', result: 'refused', userId: caller.userId, username: caller.username, ip: caller.ip, liftId, targetType: 'lift', targetId: liftId, detail: { reason } });
}

/** The lease as everyone sees it; a lease found expired is cleared and the watchers told (lazily: whoever reads first). */
export async function readLease(app: FastifyInstance, liftId: string): Promise<LeaseState> {
  const row = await readLeaseRow(app.database.sql, liftId);
  if (isExpiredUntold(row)) {
    const cleared = await clearExpiredLease(app.database.sql, liftId, row.epoch);
    if (cleared) await app.live.publish([leaseMessage(cleared.row, 'expired', cleared.holderId)]);
  }
  return leaseState(row);
}

/**
 * `lease/take`: a free lease (or one run out) is the caller's, with the next epoch; the
 * caller's own is renewed; another's only with `takeOver` (the route checked the permission).
 * Refused while local use pauses remote control.
 */
export async function takeLease(app: FastifyInstance, caller: LeaseCaller, liftId: string, takeOver: boolean): Promise<LeaseState> {
  let refusal = null as 'leaseHeld' | 'localControl' | null;
  try {
    const { row, change } = await changeLease(
      app,
      liftId,
      (r) => {
        const until = localUntil(r);
        if (until) {
          refusal = 'localControl';
          throw localControl(until);
        }
        if (!isHeld(r)) return 'grant';
        if (r.holder_id === caller.userId) return 'extend';
        if (!takeOver) {
          refusal = 'leaseHeld';
          throw heldBy(r);
        }
        return 'grant';
      },
      caller,
    );
    if (change.kind === 'granted') await announceGrant(app, caller, row, change.before);
    else await app.live.publish([leaseMessage(row)]);
    return leaseState(row);
  } catch (err) {
    if (refusal) await auditRefusedTake(app, caller, liftId, refusal);
    throw err;
  }
}

/** `lease/renew`: the holder of `epoch` keeps it another CONTROL_LEASE_MS; anyone else has lost it. */
export async function renewLease(app: FastifyInstance, caller: LeaseCaller, liftId: string, epoch: number): Promise<LeaseState> {
  const { row } = await changeLease(
    app,
    liftId,
    (r) => {
      if (isHeld(r) && r.holder_id === caller.userId && r.epoch === epoch) return 'extend';
      throw isHeld(r) ? heldBy(r, 'lease.lost') : new AppError('lease.lost', { holderName: null, expiresAt: null });
    },
    caller,
  );
  await app.live.publish([leaseMessage(row)]);
  return leaseState(row);
}

/** `lease/release`: the holder of `epoch` gives it back. */
export async function releaseLease(app: FastifyInstance, caller: LeaseCaller, liftId: string, epoch: number): Promise<LeaseState> {
  const { row } = await changeLease(
    app,
    liftId,
    (r) => {
      if (isHeld(r) && r.holder_id === caller.userId && r.epoch === epoch) return 'clear';
      throw isHeld(r) ? heldBy(r, 'lease.lost') : new AppError('lease.lost', { holderName: null, expiresAt: null });
    },
    caller,
  );
  await app.live.publish([leaseMessage(row, 'released', caller.userId)]);
  await app.audit({ action: 'lift.leaseRelease', result: 'ok', userId: caller.userId, username: caller.username, ip: caller.ip, liftId, targetType: 'lift', targetId: liftId, detail: { epoch } });
  return leaseState(row);
}

/**
 * The lease a command of a leased class runs under, for `actor` (docs/remote-control.md):
 * the actor's current lease, extended; a free one taken for the actor when `mayTake`
 * (audited as a take); refused while another holds it (`lease.held`), or when the actor
 * should have held it (`lease.lost`: an approved command runs only under its requester's
 * lease), or while local use pauses remote control.
 */
export async function leaseForCommand(app: FastifyInstance, caller: LeaseCaller, liftId: string, mayTake: boolean): Promise<CommandLease> {
  const { row, change } = await changeLease(
    app,
    liftId,
    (r) => {
      const until = localUntil(r);
      if (until) throw localControl(until);
      if (isHeld(r)) {
        if (r.holder_id === caller.userId) return 'extend';
        throw heldBy(r, mayTake ? 'lease.held' : 'lease.lost');
      }
      if (!mayTake) throw new AppError('lease.lost', { holderName: null, expiresAt: null });
      return 'grant';
    },
    caller,
  );
  if (change.kind === 'granted') await announceGrant(app, caller, row, change.before);
  else await app.live.publish([leaseMessage(row)]);
  return { epoch: row.epoch, holder: row.holder_name!.slice(0, 64) };
}
