import type { LiveChange } from '@liftlink/protocol';
import { clearAlerts, raiseAlert } from '../../alerts/repository.ts';
import { bookAvailability, type AvailabilityChange } from '../../availability/book.ts';
import { settleClearedFaults } from '../../incidents/hygiene.ts';
import type { BatchLifts } from './lift-rows.ts';
import type { Tx } from './uplink.ts';

/**
 * What the lifts' new statuses (written with their rows) change elsewhere, and the lifts
 * that came back online. A new mode or fault, or the lift back, books its availability (a
 * fault appearing: a failure); a status that changes neither, as most do, books nothing.
 * A help signal switched on raises a help alert, switched off clears it; a fault it no
 * longer lists within the settle time notifies nobody; the first status of each minute
 * gives that minute's voltage and load sample. Browsers are told of statuses that differ from
 * the stored snapshot.
 */
export async function applyStatusEffects(tx: Tx, lifts: BatchLifts, live: LiveChange[]): Promise<void> {
  const before = new Map(lifts.locked.map((r) => [r.id, r]));
  const changes: AvailabilityChange[] = [];
  const helpOn: string[] = [];
  const helpOff: string[] = [];
  for (const [id, m] of lifts.statuses) {
    const was = before.get(id)!;
    const fault = m.status.faults[0] ?? null;
    if (was.mode !== m.status.mode || was.active_fault !== fault) changes.push({ liftId: id, at: m.ts, failed: was.active_fault === null && fault !== null });
    if (m.status.platform.helpSignal && !was.help_signal) helpOn.push(id);
    if (!m.status.platform.helpSignal && was.help_signal) helpOff.push(id);
  }
  // Back online from now: listed last, so its `now` is the time booked for a lift that also changed mode.
  for (const id of lifts.revived) changes.push({ liftId: id, at: null });
  await bookAvailability(tx, changes);

  const ids = [...lifts.statuses.keys()];
  if (!ids.length) return;
  for (const id of helpOn) {
    const alert = await raiseAlert(tx, id, 'help', null, undefined, live);
    if (alert) live.push(alert);
  }
  await clearAlerts(tx, helpOff, 'help');
  await settleClearedFaults(tx, ids);
  // A minute's sample is its first status's: one exists already when the stored status was of the same minute.
  const minuteOf = (t: Date | string) => Math.floor(new Date(t).getTime() / 60_000) * 60_000;
  const sampled = ids.filter((id) => {
    const at = before.get(id)!.status_at;
    return at === null || minuteOf(at) !== minuteOf(lifts.statuses.get(id)!.ts);
  });
  if (sampled.length) {
    const latest = sampled.map((id) => lifts.statuses.get(id)!);
    await tx.query(
      `insert into lift_samples (lift_id, ts, voltage, load_value)
       select * from unnest($1::uuid[], $2::timestamptz[], $3::real[], $4::real[]) on conflict do nothing`,
      [sampled, latest.map((m) => new Date(minuteOf(m.ts))), latest.map((m) => m.status.platform.voltage), latest.map((m) => m.status.platform.loadValue)],
    );
  }
  // A repeated snapshot tells a browser nothing it shows: at 20,000 lifts reporting every 5 s
  // those are most of 4 MB a second that every instance would serialise, pass through the
  // broker and parse again, ahead of the command answers on the same bus.
  for (const [liftId, m] of lifts.statuses) if (!lifts.repeated.has(liftId)) live.push({ type: 'status', liftId, seq: m.seq, ts: m.ts, status: m.status });
}
