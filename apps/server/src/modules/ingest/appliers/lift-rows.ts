import { bookAvailability } from '../../availability/book.ts';
import type { Tx, UplinkMessage } from './uplink.ts';

/**
 * The batch's lifts, locked, and what the batch adds to their rows. Each row is changed
 * once, in one statement, after the run log (each extra update of a lift row costs a new
 * row version).
 */
export interface BatchLifts {
  locked: { id: string; events_total: string; online: boolean; presence_session: string }[];
  /** Each lift's last run-log ordinal, advanced as entries are numbered. */
  eventsTotal: Map<string, number>;
  trips: Map<string, number>;
  faults: Map<string, number>;
  /** Lifts that were offline and spoke: back online from now. */
  revived: Set<string>;
}

/** Locks the batch's lifts in one order first: two instances' batches then never deadlock. */
export async function lockLifts(tx: Tx, batch: UplinkMessage[]): Promise<BatchLifts> {
  const locked = await tx.query<BatchLifts['locked'][number]>(
    `select id, events_total, online, presence_session from lifts where id = any($1::uuid[]) order by id for update`,
    [[...new Set(batch.map((m) => m.liftId))]],
  );
  return { locked, eventsTotal: new Map(locked.map((r) => [r.id, Number(r.events_total)])), trips: new Map(), faults: new Map(), revived: new Set() };
}

/** Every lift of the batch in one update: seen now, back online if it spoke (its availability booked from now), its run-log ordinal, trip and fault counts. */
export async function updateLiftRows(tx: Tx, lifts: BatchLifts): Promise<void> {
  const { locked } = lifts;
  await tx.query(
    `update lifts l set last_seen_at = now(), events_total = v.n, trips_total = l.trips_total + v.t, trips_30d = l.trips_30d + v.t,
            faults_total = l.faults_total + v.f, online = l.online or v.revive, online_since = case when v.revive then now() else l.online_since end
       from unnest($1::uuid[], $2::bigint[], $3::integer[], $4::boolean[], $5::integer[]) as v(id, n, t, revive, f) where l.id = v.id`,
    [
      locked.map((r) => r.id),
      locked.map((r) => lifts.eventsTotal.get(r.id)!),
      locked.map((r) => lifts.trips.get(r.id) ?? 0),
      locked.map((r) => lifts.revived.has(r.id)),
      locked.map((r) => lifts.faults.get(r.id) ?? 0),
    ],
  );
  await bookAvailability(tx, [...lifts.revived].map((liftId) => ({ liftId, at: null })));
}
