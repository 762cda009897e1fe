import type { StatusMessage } from '@liftlink/protocol';
import { sha256 } from '../../../lib/crypto.ts';
import type { ConditionState } from './condition.ts';
import type { Tx, UplinkMessage, UplinkOf } from './uplink.ts';

/**
 * The batch's lifts, locked, and what the batch adds to their rows. Each row is changed
 * once, in one statement, after the run log: every extra update of a lift row writes a new
 * row version of a couple of kilobytes (the status snapshot is in it).
 */
export interface BatchLifts {
  /** The rows as they were when locked: what the batch's changes are compared with. */
  locked: {
    id: string;
    events_total: number;
    online: boolean;
    presence_session: number;
    status_seq: number;
    /** ISO 8601, as JSON gives it. */
    status_at: string | null;
    status_hash: string | null;
    mode: string | null;
    active_fault: string | null;
    help_signal: boolean | null;
    condition_state: Partial<ConditionState> | null;
  }[];
  /** Each lift's last run-log ordinal, advanced as entries are numbered. */
  eventsTotal: Map<string, number>;
  trips: Map<string, number>;
  faults: Map<string, number>;
  /** Lifts that were offline and spoke: back online from now. */
  revived: Set<string>;
  /** Each lift's newest status of the batch, where it is newer than the stored one. */
  statuses: Map<string, StatusMessage>;
  /** Lifts whose newest status repeats the stored snapshot: its sequence and time are stored, browsers are told nothing new. */
  repeated: Set<string>;
  /** Each lift's condition state where the batch's statuses changed it, as JSON (condition.ts). */
  conditions: Map<string, string>;
}

/**
 * Locks the batch's lifts in one order first: two instances' batches then never deadlock.
 * `for no key update`, as every writer of lift rows that changes no key: a row that refers
 * to a lift (a command's record, an alert, the condition job's scores) takes a key-share
 * lock on it, which this lock lets pass; `for update` made those writers wait for the batch
 * and deadlocked with a job writing for many lifts. The rows come back as one JSON text: as
 * rows, each of a batch's thousands was parsed value by value in JavaScript and, on the
 * embedded database, cloned from its thread as an object; one text is parsed natively at
 * once (the lock's CPU per lift on PGlite about halved, docs/operations.md 7.1).
 */
export async function lockLifts(tx: Tx, batch: UplinkMessage[]): Promise<BatchLifts> {
  const [result] = await tx.query<{ rows: string }>(
    `select coalesce(json_agg(t), '[]')::text as rows
       from (select id, events_total, online, presence_session, status_seq, status_at, status_hash, mode, active_fault, help_signal, condition_state
               from lifts where id = any($1::uuid[]) order by id for no key update) t`,
    [[...new Set(batch.map((m) => m.liftId))]],
  );
  const locked = JSON.parse(result!.rows) as BatchLifts['locked'];
  return { locked, eventsTotal: new Map(locked.map((r) => [r.id, r.events_total])), trips: new Map(), faults: new Map(), revived: new Set(), statuses: new Map(), repeated: new Set(), conditions: new Map() };
}

/** Status: per lift the newest snapshot of the batch wins, and only if newer than the stored one. */
export function takeNewestStatuses(lifts: BatchLifts, statuses: UplinkOf<'status'>[]): void {
  const storedSeq = new Map(lifts.locked.map((r) => [r.id, r.status_seq]));
  for (const m of statuses) {
    if (m.message.seq <= (storedSeq.get(m.liftId) ?? Infinity)) continue;
    if ((lifts.statuses.get(m.liftId)?.seq ?? 0) < m.message.seq) lifts.statuses.set(m.liftId, m.message);
  }
}

/**
 * Every lift of the batch updated once: seen now, back online if it spoke, its run-log
 * ordinal, trip and fault counts, its newest status with the columns read from it, and its
 * condition state where the statuses changed it (`followCondition`, run before). A
 * snapshot equal to the stored one (its hash says so) is not sent again: most reports of a
 * fleet in service repeat the last one, and each is a kilobyte to parse and write. Those
 * lifts are noted in `lifts.repeated` (the hash is known only here), so that the status
 * effects push no live status for them.
 *
 * A lift whose status only repeated itself (no trip, fault, return or condition change) needs
 * its last-seen time, run-log ordinal and status sequence and time alone: those go in a
 * narrow update of four columns, the others in the full one (on PGlite the narrow one costs
 * about two thirds of the CPU a lift; docs/operations.md 7.1). In the full one the snapshots
 * and condition states go as one JSON array of pairs, joined to the other columns by
 * position: as a jsonb[] parameter every quote of every document was escaped into the
 * array's text and unescaped again (a batch of 200 changed statuses: 58 to 63 ms against 37
 * to 46 on PGlite, 36 to 50 against 27 to 29 on PostgreSQL).
 */
export async function updateLiftRows(tx: Tx, lifts: BatchLifts): Promise<void> {
  const status = (id: string) => lifts.statuses.get(id);
  const repeats: BatchLifts['locked'] = [];
  const full: { r: BatchLifts['locked'][number]; json: string | null; hash: string | null }[] = [];
  for (const r of lifts.locked) {
    const m = status(r.id);
    if (!m) {
      full.push({ r, json: null, hash: null });
      continue;
    }
    const json = JSON.stringify(m.status);
    const hash = sha256(json);
    if (hash !== r.status_hash) {
      full.push({ r, json, hash });
      continue;
    }
    lifts.repeated.add(r.id);
    if (lifts.trips.get(r.id) || lifts.faults.get(r.id) || lifts.revived.has(r.id) || lifts.conditions.has(r.id)) full.push({ r, json: null, hash });
    else repeats.push(r);
  }
  if (repeats.length) {
    await tx.query(
      `update lifts l set last_seen_at = now(), events_total = v.n, status_seq = v.seq, status_at = v.ts
         from unnest($1::uuid[], $2::bigint[], $3::bigint[], $4::timestamptz[]) as v(id, n, seq, ts) where l.id = v.id`,
      [repeats.map((r) => r.id), repeats.map((r) => lifts.eventsTotal.get(r.id)!), repeats.map((r) => status(r.id)!.seq), repeats.map((r) => status(r.id)!.ts)],
    );
  }
  if (!full.length) return;
  const locked = full.map((f) => f.r);
  await tx.query(
    `update lifts l set last_seen_at = now(), events_total = v.n, trips_total = l.trips_total + v.t, trips_30d = l.trips_30d + v.t,
            faults_total = l.faults_total + v.f, online = l.online or v.revive, online_since = case when v.revive then now() else l.online_since end,
            status = coalesce(s.status, l.status), status_hash = coalesce(v.hash, l.status_hash),
            status_seq = coalesce(v.seq, l.status_seq), status_at = coalesce(v.ts, l.status_at),
            mode = case when v.seq is null then l.mode else v.mode end, floor = case when v.seq is null then l.floor else v.floor end,
            active_fault = case when v.seq is null then l.active_fault else v.fault end,
            help_signal = case when v.seq is null then l.help_signal else v.help end,
            voltage = case when v.seq is null then l.voltage else v.voltage end,
            condition_state = coalesce(s.condition, l.condition_state)
       from unnest($1::uuid[], $2::bigint[], $3::integer[], $4::boolean[], $5::integer[], $7::text[], $8::bigint[], $9::timestamptz[],
                   $10::text[], $11::integer[], $12::text[], $13::boolean[], $14::real[]) with ordinality
            as v(id, n, t, revive, f, hash, seq, ts, mode, floor, fault, help, voltage, i)
       join (select nullif(e->0, 'null'::jsonb) as status, nullif(e->1, 'null'::jsonb) as condition, i
               from jsonb_array_elements($6::jsonb) with ordinality as a(e, i)) s using (i)
      where l.id = v.id`,
    [
      locked.map((r) => r.id),
      locked.map((r) => lifts.eventsTotal.get(r.id)!),
      locked.map((r) => lifts.trips.get(r.id) ?? 0),
      locked.map((r) => lifts.revived.has(r.id)),
      locked.map((r) => lifts.faults.get(r.id) ?? 0),
      `[${full.map((f) => `[${f.json ?? 'null'},${lifts.conditions.get(f.r.id) ?? 'null'}]`).join(',')}]`,
      full.map((f) => f.hash),
      locked.map((r) => status(r.id)?.seq ?? null),
      locked.map((r) => status(r.id)?.ts ?? null),
      locked.map((r) => status(r.id)?.status.mode ?? null),
      locked.map((r) => status(r.id)?.status.floor ?? null),
      locked.map((r) => status(r.id)?.status.faults[0] ?? null),
      locked.map((r) => status(r.id)?.status.platform.helpSignal ?? null),
      locked.map((r) => status(r.id)?.status.platform.voltage ?? null),
    ],
  );
}
