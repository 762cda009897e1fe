import type { SqlExecutor } from '../../db/client.ts';
import type { JobDefinition } from './plugin.ts';

/**
 * PostgreSQL's autovacuum rules, with its default settings: a table is vacuumed once its dead
 * rows pass 50 plus a fifth of its live ones, analysed once its changes since the last
 * analysis pass 50 plus a tenth, and frozen once its oldest transaction id is 150 million old
 * (autovacuum forces that at 200 million; the database stops accepting writes near 2,000
 * million).
 */
export const VACUUM_RULES = {
  deadBase: 50,
  deadShare: 0.2,
  changedBase: 50,
  changedShare: 0.1,
  freezeAge: 150_000_000,
} as const;

/** PostgreSQL's `undefined_table`: a table listed by this run was dropped before its turn. */
const UNDEFINED_TABLE = '42P01';

interface TableStats {
  name: string;
  dead: string;
  live: string;
  changed: string;
  xid_age: string;
}

/**
 * Vacuums and analyses the tables that need it, one statement per table, most dead rows
 * first. The embedded database (PGlite) runs PostgreSQL in single-user mode: it has no
 * autovacuum. Without this, the room that updated and deleted rows leave behind is never
 * marked free (each lift's row is rewritten with every status it reports; retention deletes
 * old records), so the files only grow, every scan reads the dead rows too, the planner has
 * no statistics, and after 2,000 million transactions the database would stop taking writes.
 * A VACUUM holds the one session while it runs (about half a second for the lift rows of
 * 10,000 lifts, docs/operations.md 10.3); statements sent meanwhile wait their turn, and
 * each table is a statement of its own, so they wait at most one table.
 */
export async function vacuumWhereNeeded(sql: SqlExecutor, signal?: AbortSignal): Promise<{ vacuumed: number; analysed: number }> {
  // The session's counters reach the statistics at the end of a transaction, at most once a
  // second unless a flush is asked for: without this the newest changes would go unseen.
  await sql.query('select pg_stat_force_next_flush()');
  const tables = await sql.query<TableStats>(
    `select s.relid::regclass::text as name, s.n_dead_tup as dead, s.n_live_tup as live, s.n_mod_since_analyze as changed, age(c.relfrozenxid) as xid_age
       from pg_stat_user_tables s join pg_class c on c.oid = s.relid
      where c.relkind = 'r'
      order by s.n_dead_tup desc, s.relid`,
  );
  // Retention drops a month's partition of the run log at its own time; one dropped while
  // this run went through the list needs nothing any more, and the rest still get their turn.
  const run = async (statement: string) =>
    sql.exec(statement).then(
      () => true,
      (err: unknown) => {
        if ((err as { code?: string }).code === UNDEFINED_TABLE) return false;
        throw err;
      },
    );
  let vacuumed = 0;
  let analysed = 0;
  for (const t of tables) {
    if (signal?.aborted) break;
    const live = Number(t.live);
    const vacuum = Number(t.dead) > VACUUM_RULES.deadBase + VACUUM_RULES.deadShare * live || Number(t.xid_age) > VACUUM_RULES.freezeAge;
    const analyse = Number(t.changed) > VACUUM_RULES.changedBase + VACUUM_RULES.changedShare * live;
    if (vacuum) {
      if (!(await run(`vacuum (analyze) ${t.name}`))) continue;
      vacuumed++;
      analysed++;
    } else if (analyse) {
      if (await run(`analyze ${t.name}`)) analysed++;
    }
  }
  return { vacuumed, analysed };
}

/**
 * The embedded database's autovacuum (added by the job runner with PGlite only; PostgreSQL
 * runs its own). Every 10 minutes, the first 10 minutes after the start: a lift row
 * rewritten every 5 s leaves 120 versions in that time, most of them pruned on the page as
 * it is read again, and a VACUUM of all lift rows costs the session under a second at
 * 20,000 lifts.
 */
export const embeddedVacuumJob: JobDefinition = {
  name: 'vacuum',
  everyMs: 10 * 60_000,
  firstAfterMs: 10 * 60_000,
  run: (app, signal) => vacuumWhereNeeded(app.database.sql, signal),
};
