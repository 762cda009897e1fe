import type { SqlExecutor } from '../../db/client.ts';

/** The statements of a transaction (or the pool). */
export type Sql = Omit<SqlExecutor, 'transaction'>;

/** A lift's lease row as stored, with the database's clock (every instance judges expiry by it). */
export interface LeaseRow {
  lift_id: string;
  epoch: number;
  holder_id: string | null;
  holder_name: string | null;
  acquired_at: Date | null;
  expires_at: Date | null;
  local_until: Date | null;
  now: Date;
}

const COLUMNS = 'lift_id, epoch, holder_id, holder_name, acquired_at, expires_at, local_until, now() as now';
const ms = (n: number) => `(${n}::double precision * interval '1 millisecond')`;

/** Whether somebody holds the lease now (a lease past its expiry is free everywhere). */
export function isHeld(row: LeaseRow): row is LeaseRow & { holder_id: string; holder_name: string; acquired_at: Date; expires_at: Date } {
  return row.holder_id !== null && row.expires_at !== null && new Date(row.expires_at) > new Date(row.now);
}

/** Whether the holder columns still name someone whose lease ran out (not yet told). */
export function isExpiredUntold(row: LeaseRow): boolean {
  return row.holder_id !== null && !isHeld(row);
}

/** Local use paused remote control until then, or null. */
export function localUntil(row: LeaseRow): Date | null {
  return row.local_until && new Date(row.local_until) > new Date(row.now) ? new Date(row.local_until) : null;
}

/** Reads the lease without locking; an empty one for a lift that never had one. */
export async function readLeaseRow(sql: Sql, liftId: string): Promise<LeaseRow> {
  const [row] = await sql.query<LeaseRow>(`select ${COLUMNS} from lift_leases where lift_id = $1`, [liftId]);
  if (row) return row;
  const [{ now }] = (await sql.query<{ now: Date }>('select now() as now')) as [{ now: Date }];
  return { lift_id: liftId, epoch: 0, holder_id: null, holder_name: null, acquired_at: null, expires_at: null, local_until: null, now };
}

/**
 * Locks the lift's lease row for the rest of the transaction (creating it on first use): two
 * users taking the lease at once, on any instances, decide one after the other.
 */
export async function lockLeaseRow(tx: Sql, liftId: string): Promise<LeaseRow> {
  const lock = () => tx.query<LeaseRow>(`select ${COLUMNS} from lift_leases where lift_id = $1 for update`, [liftId]);
  const [row] = await lock();
  if (row) return row;
  // The first lease of the lift: its row is created. The lift's row is locked first, as ingest
  // locks it before the lease (local use), so the two never wait for each other in a circle.
  await tx.query(`select id from lifts where id = $1 for key share`, [liftId]);
  await tx.query(`insert into lift_leases (lift_id) values ($1) on conflict (lift_id) do nothing`, [liftId]);
  return (await lock())[0]!;
}

/**
 * A new lease for `holder`: the lift's next epoch. The holder is named as colleagues know
 * them (the user's name, else the username); the lift gets the same name with each command.
 */
export async function grantLease(tx: Sql, liftId: string, holder: { userId: string; username: string }, leaseMs: number): Promise<LeaseRow> {
  const [row] = await tx.query<LeaseRow>(
    `update lift_leases set epoch = epoch + 1, holder_id = $2,
        holder_name = left(coalesce((select nullif(trim(name), '') from users where id = $2), $3), 64),
        acquired_at = now(), expires_at = now() + ${ms(leaseMs)}
      where lift_id = $1 returning ${COLUMNS}`,
    [liftId, holder.userId, holder.username],
  );
  return row!;
}

/** The holder keeps the lease another `leaseMs` from now. */
export async function extendLease(tx: Sql, liftId: string, leaseMs: number): Promise<LeaseRow> {
  const [row] = await tx.query<LeaseRow>(`update lift_leases set expires_at = now() + ${ms(leaseMs)} where lift_id = $1 returning ${COLUMNS}`, [liftId]);
  return row!;
}

/** Nobody holds the lease any more (the epoch stays: the next lease gets the next one). */
export async function clearLease(tx: Sql, liftId: string): Promise<LeaseRow> {
  const [row] = await tx.query<LeaseRow>(
    `update lift_leases set holder_id = null, holder_name = null, acquired_at = null, expires_at = null where lift_id = $1 returning ${COLUMNS}`,
    [liftId],
  );
  return row!;
}

/**
 * Clears a lease that ran out, if it is still the one of `epoch` (a read tells the others
 * once; whoever clears it publishes). Returns the holder it had, or null.
 */
export async function clearExpiredLease(sql: Sql, liftId: string, epoch: number): Promise<{ row: LeaseRow; holderId: string } | null> {
  const [row] = await sql.query<LeaseRow & { ended_holder: string }>(
    `update lift_leases l set holder_id = null, holder_name = null, acquired_at = null, expires_at = null
       from (select lift_id, holder_id from lift_leases where lift_id = $1 and epoch = $2 and holder_id is not null and expires_at <= now() for update) o
      where l.lift_id = o.lift_id returning l.lift_id, l.epoch, l.holder_id, l.holder_name, l.acquired_at, l.expires_at, l.local_until, now() as now, o.holder_id as ended_holder`,
    [liftId, epoch],
  );
  if (!row) return null;
  const { ended_holder: holderId, ...rest } = row;
  return { row: rest, holderId };
}

/** A local-use entry ingest stored: its lift and time. */
export interface LocalUse {
  liftId: string;
  ts: string;
}

/**
 * Local use of several lifts, in two statements for the whole batch: each lift's lease ends
 * when it was taken before its latest local use (or that use is recent), and a recent use
 * pauses remote control until `settleMs` after it (never counted from a lift clock running
 * ahead). A use older than that by the server's clock sets no pause. Returns the rows that
 * changed, with the holder a lease was taken from.
 */
export async function applyLocalUse(tx: Sql, uses: LocalUse[], settleMs: number): Promise<(LeaseRow & { ended_holder: string | null })[]> {
  const ids = uses.map((u) => u.liftId);
  await tx.query(`insert into lift_leases (lift_id) select distinct unnest($1::uuid[]) on conflict (lift_id) do nothing`, [ids]);
  return tx.query<LeaseRow & { ended_holder: string | null }>(
    `update lift_leases l set
            holder_id = case when x.ends then null else l.holder_id end,
            holder_name = case when x.ends then null else l.holder_name end,
            acquired_at = case when x.ends then null else l.acquired_at end,
            expires_at = case when x.ends then null else l.expires_at end,
            local_until = case when x.recent then greatest(l.local_until, x.until) else l.local_until end
       from (select o.lift_id, o.holder_id, e.until, e.until > now() as recent,
                    (o.holder_id is not null and o.expires_at > now() and (o.acquired_at < e.ts or e.until > now())) as ends
               from (select u.lift_id, max(u.ts) as ts, least(max(u.ts), now()) + ${ms(settleMs)} as until
                       from unnest($1::uuid[], $2::timestamptz[]) as u(lift_id, ts)
                      group by u.lift_id) e
               join lift_leases o on o.lift_id = e.lift_id
              for update of o) x
      where l.lift_id = x.lift_id and (x.ends or x.recent)
      returning l.lift_id, l.epoch, l.holder_id, l.holder_name, l.acquired_at, l.expires_at, l.local_until, now() as now,
                case when x.ends then x.holder_id end as ended_holder`,
    [ids, uses.map((u) => u.ts)],
  );
}
