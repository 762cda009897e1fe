/**
 * What a lift's status report writes to PostgreSQL's WAL: ingest's whole batch (`storeBatch`)
 * for BENCH_LIFTS (20,000) lifts in batches of 200, first with snapshots that change (until
 * the rows have settled on their pages), then repeating the stored ones, then changing
 * again. Prints WAL bytes and ms per batch for each round, the steady rounds' WAL by table
 * and kind of record (pg_walinspect, where the server has it), and one JSON line. The WAL a
 * fleet writes is what a replica, a backup and the disk carry.
 *   npm run bench:status-wal
 */
import type { LiftStatus } from '@liftlink/protocol';
import { openPostgres } from '../apps/server/src/db/client.ts';
import { migrate } from '../apps/server/src/db/migrate.ts';
import { seed } from '../apps/server/src/db/seed.ts';
import type { UplinkOf } from '../apps/server/src/modules/ingest/appliers/uplink.ts';
import { storeBatch } from '../apps/server/src/modules/ingest/store.ts';
import { ADMIN_PASSWORD } from '../apps/server/test/helpers.ts';
import { provisionLifts } from '../apps/server/test/support/fleet.ts';
import { sampleStatus } from './fleet-process.ts';
import { createPrivateDatabase } from './private-database.ts';
import { walBytesBetween, walPosition } from './wal.ts';

const LIFTS = Number(process.env.BENCH_LIFTS ?? 20_000);
const BATCH = 200;
const scratch = await createPrivateDatabase('bench_status_wal', { log: console.log });
const db = await openPostgres(scratch.url);
try {
  await migrate(db.sql);
  await seed(db, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'LiftLink Lifts' });
  const inspect = await db.sql.query('create extension if not exists pg_walinspect').then(
    () => true,
    () => false,
  );
  const lifts = await provisionLifts(db.sql, 'WAL', LIFTS);
  const seqs = new Map<string, number>();
  const lsn = () => walPosition(db.sql);

  /** One report from every lift; `changed`: each snapshot differs from the stored one (its voltage). */
  async function round(changed: boolean) {
    const from = await lsn();
    const t0 = performance.now();
    for (let i = 0; i < lifts.length; i += BATCH) {
      const batch = lifts.slice(i, i + BATCH).map((l): UplinkOf<'status'> => {
        const seq = (seqs.get(l.id) ?? 0) + 1;
        seqs.set(l.id, seq);
        const status = sampleStatus(l.deviceNo) as LiftStatus;
        status.platform.voltage = changed ? 22 + Math.random() : 24;
        return { kind: 'status', liftId: l.id, message: { seq, ts: new Date().toISOString(), status } };
      });
      await db.sql.transaction((tx) => storeBatch(tx, batch));
    }
    const ms = performance.now() - t0;
    const to = await lsn();
    return { from, to, walPerStatus: Math.round((await walBytesBetween(db.sql, from, to)) / lifts.length), msPerBatch: Number((ms / Math.ceil(lifts.length / BATCH)).toFixed(2)) };
  }

  /** The WAL between two positions by table and record kind, bytes per status. */
  async function byTable(from: string, to: string, statuses: number) {
    const rows = await db.sql.query<{ rel: string; kind: string; n: string; bytes: string }>(
      `with r as (select resource_manager || '/' || record_type as kind, record_length, substring(block_ref from 'rel \\d+/\\d+/(\\d+)')::oid as node
                    from pg_get_wal_records_info($1, $2))
       select coalesce(c.relname, '-') as rel, kind, count(*) as n, sum(record_length) as bytes
         from r left join pg_class c on c.relfilenode = r.node group by 1, 2 order by 4 desc limit 12`,
      [from, to],
    );
    return rows.map((r) => `${r.rel} ${r.kind}: ${(Number(r.n) / statuses).toFixed(2)} a status, ${Math.round(Number(r.bytes) / statuses)} B`);
  }

  // Settle: the first statuses widen every row, and rows move until each page has room for updates in place.
  for (let i = 0; i < 3; i++) console.log('settling', await round(true));
  const repeated = [];
  for (let i = 0; i < 3; i++) repeated.push(await round(false));
  const changed = [];
  for (let i = 0; i < 2; i++) changed.push(await round(true));
  // The first repeated round still writes each snapshot once (it differs from the last changed one).
  const steady = repeated.slice(1);
  const avg = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / xs.length);
  console.log('repeated', repeated.map(({ walPerStatus, msPerBatch }) => ({ walPerStatus, msPerBatch })), 'changed', changed.map(({ walPerStatus, msPerBatch }) => ({ walPerStatus, msPerBatch })));
  if (inspect) {
    console.log('a repeated status, by table:\n  ' + (await byTable(steady[0]!.from, steady.at(-1)!.to, LIFTS * steady.length)).join('\n  '));
    console.log('a changed status, by table:\n  ' + (await byTable(changed[0]!.from, changed.at(-1)!.to, LIFTS * changed.length)).join('\n  '));
  }
  console.log(
    JSON.stringify({
      lifts: LIFTS,
      walBytesPerRepeatedStatus: avg(steady.map((r) => r.walPerStatus)),
      walBytesPerChangedStatus: avg(changed.map((r) => r.walPerStatus)),
      msPerBatchRepeated: avg(steady.map((r) => r.msPerBatch * 100)) / 100,
      msPerBatchChanged: avg(changed.map((r) => r.msPerBatch * 100)) / 100,
    }),
  );
} finally {
  await db.close();
  await scratch.drop();
}
