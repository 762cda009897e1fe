import type { LiftStatus, PresenceReason } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import type { AuthContext } from '../../types.ts';
import { liftFilter } from '../access/policy.ts';
import type { LeaseRow } from '../control/lease-repository.ts';

/** The live socket's reads: which lifts a subscriber may follow, and what it missed. */

/** Of `liftIds`, those the caller may open (lift.get in a scope that reaches them). */
export async function visibleLiftIds(sql: SqlExecutor, auth: AuthContext, liftIds: string[]): Promise<Set<string>> {
  const scope = liftFilter(auth, 2, 'lift.get');
  const rows = await sql.query<{ id: string }>(`select id from lifts l where l.id = any($1::uuid[]) and ${scope.where}`, scope.param ? [liftIds, scope.param] : [liftIds]);
  return new Set(rows.map((r) => r.id));
}

/** Every lift of the fleet list the caller may see (lift.query). */
export async function fleetLiftIds(sql: SqlExecutor, auth: AuthContext): Promise<Set<string>> {
  const scope = liftFilter(auth, 1, 'lift.query');
  const rows = await sql.query<{ id: string }>(`select id from lifts l where ${scope.where}`, scope.param ? [scope.param] : []);
  return new Set(rows.map((r) => r.id));
}

/**
 * The lifts' presence, last status and control lease, sent first to a new subscriber: one
 * query for all of them (a control room's browsers each subscribe to tens of lifts at once).
 */
export async function liveStates(sql: SqlExecutor, liftIds: string[]) {
  const rows = await sql.query<
    { id: string; online: boolean; status: LiftStatus | null; status_seq: string; status_at: Date | null; last_seen_at: Date | null } & Omit<LeaseRow, 'lift_id' | 'epoch'> & { epoch: number | null }
  >(
    `select l.id, l.online, l.status, l.status_seq, l.status_at, l.last_seen_at,
            c.epoch, c.holder_id, c.holder_name, c.acquired_at, c.expires_at, c.local_until, now() as now
       from lifts l left join lift_leases c on c.lift_id = l.id where l.id = any($1::uuid[])`,
    [liftIds],
  );
  return new Map(
    rows.map(({ id, epoch, holder_id, holder_name, acquired_at, expires_at, local_until, now, ...rest }) => [
      id,
      { ...rest, lease: { lift_id: id, epoch: epoch ?? 0, holder_id, holder_name, acquired_at, expires_at, local_until, now } satisfies LeaseRow },
    ]),
  );
}

/** The run-log entries after `since` (an entry id), oldest first, at most `limit`. */
export function runLogSince(sql: SqlExecutor, liftId: string, since: number, limit: number) {
  return sql.query<{ id: string; seq: string; ts: Date; code: string; floor: number | null; fault: boolean; reason: PresenceReason | null }>(
    `select id, seq, ts, code, floor, fault, reason from lift_events where lift_id = $1 and id > $2 order by id limit $3`,
    [liftId, since, limit],
  );
}
