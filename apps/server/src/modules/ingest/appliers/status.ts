import type { LiveChange, StatusMessage } from '@liftlink/protocol';
import { clearAlerts, raiseAlert } from '../../alerts/repository.ts';
import { bookAvailability } from '../../availability/book.ts';
import { settleClearedFaults } from '../../incidents/hygiene.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * Status: the newest snapshot per lift wins, and only if newer than what is stored. A help
 * signal switched on raises a help alert, switched off clears it; a fault it no longer lists
 * within the settle time notifies nobody; the voltage and load go into the per-minute samples.
 * A new mode or fault books the lift's availability at the status's time (a fault appearing: a failure).
 */
export async function applyStatuses(tx: Tx, statuses: UplinkOf<'status'>[], live: LiveChange[]): Promise<void> {
  const latest = new Map<string, StatusMessage>();
  for (const m of statuses) if ((latest.get(m.liftId)?.seq ?? 0) < m.message.seq) latest.set(m.liftId, m.message);
  if (!latest.size) return;
  const ids = [...latest.keys()];
  const msgs = [...latest.values()];
  const updated = await tx.query<{ id: string; was_help: boolean; help: boolean; failed: boolean }>(
    `with v as (select * from unnest($1::uuid[], $2::bigint[], $3::timestamptz[], $4::jsonb[]) as v(id, seq, ts, status)),
          prev as (select l.id, l.help_signal, l.active_fault from lifts l join v on v.id = l.id for update of l)
     update lifts l set status = v.status, status_seq = v.seq, status_at = v.ts, mode = v.status->>'mode',
            floor = (v.status->>'floor')::integer, active_fault = v.status->'faults'->>0,
            help_signal = (v.status->'platform'->>'helpSignal')::boolean, voltage = (v.status->'platform'->>'voltage')::real
       from v, prev where l.id = v.id and prev.id = l.id and l.status_seq < v.seq
     returning l.id, prev.help_signal as was_help, l.help_signal as help, prev.active_fault is null and l.active_fault is not null as failed`,
    [ids, msgs.map((m) => m.seq), msgs.map((m) => m.ts), msgs.map((m) => JSON.stringify(m.status))],
  );
  const fresh = new Set(updated.map((u) => u.id));
  await bookAvailability(tx, updated.map((u) => ({ liftId: u.id, at: latest.get(u.id)!.ts, failed: u.failed })));
  for (const u of updated.filter((u) => u.help && !u.was_help)) {
    const alert = await raiseAlert(tx, u.id, 'help', null, undefined, live);
    if (alert) live.push(alert);
  }
  await clearAlerts(tx, updated.filter((u) => !u.help && u.was_help).map((u) => u.id), 'help');
  await settleClearedFaults(tx, updated.map((u) => u.id));
  const sampled = ids.filter((id) => fresh.has(id));
  if (sampled.length) {
    await tx.query(
      `insert into lift_samples (lift_id, ts, voltage, load_value)
       select * from unnest($1::uuid[], $2::timestamptz[], $3::real[], $4::real[]) on conflict do nothing`,
      [sampled, sampled.map((id) => new Date(Math.floor(new Date(latest.get(id)!.ts).getTime() / 60_000) * 60_000)), sampled.map((id) => latest.get(id)!.status.platform.voltage), sampled.map((id) => latest.get(id)!.status.platform.loadValue)],
    );
  }
  for (const id of sampled) {
    const m = latest.get(id)!;
    live.push({ type: 'status', liftId: id, seq: m.seq, ts: m.ts, status: m.status });
  }
}
