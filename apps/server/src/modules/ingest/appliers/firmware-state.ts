import { FINAL_FIRMWARE_STATES, type LiveChange } from '@liftlink/protocol';
import { appendLogbook, lockLogbookHead } from '../../logbook/index.ts';
import type { Tx, UplinkOf } from './uplink.ts';

/**
 * Firmware update reports (`firmware/state`, docs/protocol.md section 11): each moves its
 * offer's row in lift_firmware_updates on, if it is newer (by the lift's seq) than the one
 * stored, so a late or redelivered report changes nothing. A report of an offer this cloud
 * did not make (another instance's database restored, or a lift that could not read the
 * offer: `offerSeq` null, kept as offer 0) is kept too: nothing the lift says is lost. A
 * final report (done, failed, rolled back) also records the version the lift runs now and,
 * the first time the offer ends, writes the lift's logbook entry.
 */
export async function applyFirmwareReports(
  tx: Tx,
  reports: UplinkOf<'firmware/state'>[],
  live: LiveChange[],
): Promise<void> {
  for (const { liftId, message: m } of [...reports].sort((a, b) => a.message.seq - b.message.seq)) {
    const final = FINAL_FIRMWARE_STATES.includes(m.state);
    // The logbook's head before the update's row, the order every logbook writer keeps.
    if (final) await lockLogbookHead(tx, liftId);
    const [before] = final
      ? await tx.query<{ state: string }>(`select state from lift_firmware_updates where lift_id = $1 and offer_seq = $2`, [liftId, m.offerSeq ?? 0])
      : [];
    const [stored] = await tx.query<{
      package_id: string | null;
      campaign_id: string | null;
      version: string | null;
    }>(
      `insert into lift_firmware_updates as u
              (lift_id, offer_seq, package_id, version, state, percent, bytes, reason, retry_at, running_version, report_seq, reported_at)
       values ($1, $2, (select id from firmware_packages where id::text = $3), $4, $5, $6, $7, $8, $9, $10, $11, $12)
       on conflict (lift_id, offer_seq) do update
          set state = excluded.state, percent = excluded.percent, bytes = excluded.bytes, reason = excluded.reason,
              retry_at = excluded.retry_at, running_version = excluded.running_version,
              report_seq = excluded.report_seq, reported_at = excluded.reported_at, updated_at = now(),
              package_id = coalesce(u.package_id, excluded.package_id), version = coalesce(u.version, excluded.version)
        where u.report_seq < excluded.report_seq
       returning u.package_id, u.campaign_id, u.version`,
      [
        liftId,
        m.offerSeq ?? 0,
        m.packageId,
        m.version,
        m.state,
        m.percent ?? null,
        m.bytes ?? null,
        m.reason ?? null,
        m.retryAt ?? null,
        m.runningVersion,
        m.seq,
        m.ts,
      ],
    );
    if (!stored) continue;
    if (final) {
      await tx.query(
        `update lifts set firmware = $2 where id = $1 and firmware is distinct from $2`,
        [liftId, m.runningVersion],
      );
      if (!before || !FINAL_FIRMWARE_STATES.includes(before.state as never)) await logUpdateEnded(tx, liftId, m, stored);
    }
    live.push({
      type: 'firmware',
      liftId,
      offerSeq: m.offerSeq,
      packageId: stored.package_id,
      campaignId: stored.campaign_id,
      version: stored.version,
      state: m.state,
      percent: m.percent ?? null,
      reason: m.reason ?? null,
      retryAt: m.retryAt ?? null,
      runningVersion: m.runningVersion,
      ts: m.ts,
    });
  }
}

/** The lift's logbook entry of an update that ended, with its campaign and who approved it. */
async function logUpdateEnded(
  tx: Tx,
  liftId: string,
  m: UplinkOf<'firmware/state'>['message'],
  stored: { campaign_id: string | null; version: string | null },
): Promise<void> {
  const [campaign] = stored.campaign_id
    ? await tx.query<{ name: string; approved_by_name: string | null }>(`select name, approved_by_name from firmware_campaigns where id = $1`, [stored.campaign_id])
    : [];
  await appendLogbook(tx, {
    liftId,
    kind: 'firmware',
    actor: null,
    data: {
      offerSeq: m.offerSeq ?? 0,
      version: stored.version ?? m.version,
      state: m.state as 'done' | 'failed' | 'rolledBack',
      reason: m.reason ?? null,
      runningVersion: m.runningVersion,
      campaignId: stored.campaign_id,
      campaignName: campaign?.name ?? null,
      approvedBy: campaign?.approved_by_name ?? null,
    },
  });
}
