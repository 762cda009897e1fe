import type { LiveLeaseMessage } from '@liftlink/protocol';
import { applyLocalUse, type LocalUse, type Sql } from './lease-repository.ts';
import { leaseMessage } from './lease-service.ts';
import { logLeasesEndedOnSite } from '../logbook/index.ts';

/**
 * Ingest found local use of these lifts: their leases end (the holder's page is told
 * `localControl`) and no new one is granted before the settle time has passed. Returns the
 * live messages, sent after the batch commits.
 */
export async function endLeasesOnLocalUse(tx: Sql, uses: LocalUse[], settleMs: number): Promise<LiveLeaseMessage[]> {
  const rows = await applyLocalUse(tx, uses, settleMs);
  await logLeasesEndedOnSite(tx, rows);
  return rows.map(({ ended_holder: endedHolder, ...row }) => leaseMessage(row, endedHolder ? 'localControl' : null, endedHolder));
}
