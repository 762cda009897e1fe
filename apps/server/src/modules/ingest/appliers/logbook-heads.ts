import { FINAL_FIRMWARE_STATES, isFault, isLocalControlCode } from '@liftlink/protocol';
import { headOrder, withMissingHeads, type LockedHeadRow } from '../../logbook/index.ts';
import type { Tx, UplinkMessage } from './uplink.ts';

/**
 * The lifts whose logbooks a batch may write to, from its messages alone: `mayLog`, for a
 * fault in the run log or a help signal (an incident opens), a configuration report, a
 * command's final answer, an alarm device's report (an incident may open) and a firmware
 * update's end; `ifLeased`, for use on site (RZM1 … RZLM), which writes an entry only when it
 * ends a remote-control lease. More than will be written: an entry is written only for what
 * is new.
 */
export function liftsThatMayLog(batch: UplinkMessage[]): { mayLog: string[]; ifLeased: string[] } {
  const mayLog = new Set<string>();
  const ifLeased = new Set<string>();
  for (const m of batch) {
    if (m.kind === 'event') {
      if (isFault(m.message.code)) mayLog.add(m.liftId);
      else if (isLocalControlCode(m.message.code)) ifLeased.add(m.liftId);
    } else if (m.kind === 'status') {
      if (m.message.status.platform.helpSignal) mayLog.add(m.liftId);
    } else if (m.kind === 'cmd/ack') {
      if (m.message.state !== 'accepted') mayLog.add(m.liftId);
    } else if (m.kind === 'firmware/state') {
      if (FINAL_FIRMWARE_STATES.includes(m.message.state)) mayLog.add(m.liftId);
    } else if (m.kind === 'config/report' || m.kind === 'alarm') mayLog.add(m.liftId);
  }
  return { mayLog: [...mayLog], ifLeased: [...ifLeased].filter((id) => !mayLog.has(id)) };
}

/**
 * Locks, in one statement and in the one order of every logbook writer (logbook/append.ts),
 * the heads of the lifts the batch may write entries for, before its first entry. The batch
 * writes them applier by applier (the run log's, the alerts', then configurations, answers,
 * alarm devices, firmware), each locking its own lifts' heads as it goes: across appliers that
 * is no one order, and an answers batch locking two of those heads in order could hold the
 * first while waiting for the second, held by this batch, which then waited for the first.
 * PostgreSQL broke that after its deadlock timeout, a second in which nothing of either
 * batch was stored, and the batch was stored again (test/logbook-lock-order.test.ts).
 * Nothing is locked for a batch of statuses and trips alone, the usual one.
 */
export async function lockLogbookHeadsOfBatch(tx: Tx, batch: UplinkMessage[]): Promise<void> {
  const { mayLog, ifLeased } = liftsThatMayLog(batch);
  if (!mayLog.length && !ifLeased.length) return;
  const ids = headOrder(mayLog);
  // A lift under remote control has a head already: taking its lease wrote an entry.
  const locked = await tx.query<LockedHeadRow>(
    `select h.lift_id, h.seq, h.hash from lift_logbook_heads h
      where h.lift_id = any($1::uuid[])
         or (h.lift_id = any($2::uuid[]) and exists (select 1 from lift_leases l where l.lift_id = h.lift_id and l.holder_id is not null and l.expires_at > now()))
      order by h.lift_id for update`,
    [ids, ifLeased],
  );
  await withMissingHeads(tx, ids, locked);
}
