import fp from 'fastify-plugin';
import type { SqlExecutor } from '../../db/client.ts';
import type { JobDefinition } from '../jobs/plugin.ts';

/**
 * Recomputes each lift's 30-day trips (ingest only adds, so days falling out of the window
 * are taken off here); returns how many lifts changed. The result is the same whoever runs it.
 */
export async function recomputeTrips30d(sql: SqlExecutor): Promise<number> {
  const [changed] = await sql.query<{ n: string }>(
    `with changed as (
       update lifts l set trips_30d = x.t from (
         select l2.id, coalesce((select sum(trips) from lift_daily_stats d where d.lift_id = l2.id and d.day > (now() at time zone 'utc')::date - 30), 0) as t from lifts l2
       ) x where x.id = l.id and l.trips_30d <> x.t returning 1
     ) select count(*) as n from changed`,
  );
  return Number(changed!.n);
}

/** The analysis dashboard's top lifts read `trips_30d`: every ten minutes it drops the days gone by. */
export const trips30dJob: JobDefinition = {
  name: 'trips30d',
  everyMs: 10 * 60_000,
  firstAfterMs: 10 * 60_000,
  run: async (app) => ({ lifts: await recomputeTrips30d(app.database.sql) }),
};

/** Adds the dashboard's rollup to the background jobs. */
export default fp(
  async (app) => {
    app.jobs.add(trips30dJob);
  },
  { name: 'liftlink-dashboard-job', fastify: '5.x', dependencies: ['liftlink-jobs'], decorators: { fastify: ['database'] } },
);
