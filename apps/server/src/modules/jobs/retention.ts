import type { FastifyInstance } from 'fastify';
import type { SqlExecutor } from '../../db/client.ts';
import { deleteInBatches } from './batched-delete.ts';
import type { JobDefinition } from './plugin.ts';

const DAY_MS = 86_400_000;

/**
 * How long the other records are kept (docs/operations.md "Retention"); the run log's
 * own period is RUN_LOG_RETENTION_DAYS.
 */
export const RECORD_RETENTION_DAYS = {
  /** Audit log and configuration versions: five years. */
  audit: 1_830,
  /** Command records and settled alerts: two years. */
  commands: 730,
  /** Fleet and lift rollups (trips, online time, faults per hour): five years. */
  rollups: 1_830,
  /** Voltage and load samples (charts read at most 7 days). */
  samples: 30,
} as const;

/** Months created ahead of the current one, so ingest never waits for a new partition. */
export const PARTITIONS_AHEAD = 2;

const PARTITION_NAME = /^lift_events_(\d{4})_(\d{2})$/;

/**
 * The lift counters that follow entries leaving the run log (`c`: count and faults per
 * lift): the page totals read them instead of counting the log.
 */
const RETIRE = 'events_retired = l.events_retired + c.cnt, faults_total = l.faults_total - c.faults';

/** Start of the UTC month `k` months after the one holding `at`. */
function monthStart(at: Date, k = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + k, 1));
}

/** Partitions of this month and the next PARTITIONS_AHEAD; returns how many were added. */
export async function ensureRunLogPartitions(sql: SqlExecutor, now = new Date()): Promise<number> {
  let added = 0;
  for (let k = 0; k <= PARTITIONS_AHEAD; k++) {
    const [row] = await sql.query<{ added: boolean }>(
      'select lift_events_add_partition($1::timestamptz) as added',
      [monthStart(now, k).toISOString()],
    );
    if (row?.added) added++;
  }
  return added;
}

/** The run log's monthly partitions, oldest first, with the end of the month each holds. */
export async function runLogPartitions(
  sql: SqlExecutor,
): Promise<{ name: string; from: Date; to: Date }[]> {
  const rows = await sql.query<{ name: string }>(
    `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = 'lift_events'::regclass order by c.relname`,
  );
  return rows.flatMap(({ name }) => {
    const m = PARTITION_NAME.exec(name);
    if (!m) return [];
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
    return [{ name, from, to: monthStart(from, 1) }];
  });
}

/**
 * Run-log retention: creates the partitions ahead, detaches and drops every monthly
 * partition whose month ended before the cutoff (no row-by-row delete: a month goes at
 * once), and deletes the old entries of the default partition in batches. An entry is
 * kept at least `days` days, and at most one month longer (until its month has passed).
 */
export async function runLogRetention(
  sql: SqlExecutor,
  days: number,
  now = new Date(),
  signal?: AbortSignal,
): Promise<Record<string, number>> {
  const partitionsAdded = await ensureRunLogPartitions(sql, now);
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let partitionsDropped = 0;
  for (const part of await runLogPartitions(sql)) {
    if (part.to > cutoff || signal?.aborted) continue;
    await sql.transaction(async (tx) => {
      // Detaching takes a short exclusive lock on the run log: wait for it briefly, and
      // try again at the next run rather than hold ingest up behind a long query.
      await tx.exec(`set local lock_timeout = '10s'`);
      await tx.exec(`update lifts l set ${RETIRE} from (select lift_id, count(*) as cnt, count(*) filter (where fault) as faults from "${part.name}" group by lift_id) c where l.id = c.lift_id`);
      await tx.exec(`alter table lift_events detach partition "${part.name}"`);
      await tx.exec(`drop table "${part.name}"`);
    });
    partitionsDropped++;
  }
  const defaultRowsDeleted = await deleteInBatches(
    sql,
    'lift_events_default',
    'ts < $1',
    [cutoff.toISOString()],
    signal,
    undefined,
    {
      returning: 'lift_id, fault',
      then: `update lifts l set ${RETIRE} from (select lift_id, count(*) as cnt, count(*) filter (where fault) as faults from gone group by lift_id) c where l.id = c.lift_id`,
    },
  );
  return { partitionsAdded, partitionsDropped, defaultRowsDeleted };
}

/** The longer-lived records: batched deletes by age (these tables grow slowly). */
export async function recordRetention(
  sql: SqlExecutor,
  now = new Date(),
  signal?: AbortSignal,
): Promise<Record<string, number>> {
  const before = (days: number) => [new Date(now.getTime() - days * DAY_MS).toISOString()];
  const d = RECORD_RETENTION_DAYS;
  return {
    samples: await deleteInBatches(sql, 'lift_samples', 'ts < $1', before(d.samples), signal),
    commands: await deleteInBatches(
      sql,
      'lift_commands',
      'created_at < $1',
      before(d.commands),
      signal,
    ),
    alerts: await deleteInBatches(
      sql,
      'alerts',
      '(cleared_at is not null or acknowledged_at is not null) and raised_at < $1',
      before(d.commands),
      signal,
    ),
    configLog: await deleteInBatches(sql, 'lift_config_log', 'ts < $1', before(d.audit), signal),
    audit: await deleteInBatches(sql, 'audit_log', 'ts < $1', before(d.audit), signal),
    liftDailyStats: await deleteInBatches(
      sql,
      'lift_daily_stats',
      'day < $1::timestamptz::date',
      before(d.rollups),
      signal,
    ),
    fleetDailyStats: await deleteInBatches(
      sql,
      'fleet_daily_stats',
      'day < $1::timestamptz::date',
      before(d.rollups),
      signal,
    ),
    faultHourlyStats: await deleteInBatches(
      sql,
      'fault_hourly_stats',
      'hour < $1',
      before(d.rollups),
      signal,
    ),
  };
}

export const runLogRetentionJob: JobDefinition = {
  name: 'retention',
  everyMs: 6 * 60 * 60_000,
  // Soon after the start: a server that was down over a month's turn gets its partitions.
  firstAfterMs: 5_000,
  run: async (app: FastifyInstance, signal: AbortSignal) => ({
    ...(await runLogRetention(
      app.database.sql,
      app.config.runLogRetentionDays,
      new Date(),
      signal,
    )),
    ...(await recordRetention(app.database.sql, new Date(), signal)),
  }),
};
