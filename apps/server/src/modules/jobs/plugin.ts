import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { cleanupJob } from './cleanup.ts';
import { runLogRetentionJob } from './retention.ts';
import { embeddedVacuumJob } from './vacuum.ts';

/**
 * A periodic background job. `run` returns what it did (counts by what it removed or made),
 * which is logged and returned to `app.jobs.run`.
 */
export interface JobDefinition {
  name: string;
  /** Time between the end of one run and the start of the next. */
  everyMs: number;
  /** Delay of the first run after the server is ready. */
  firstAfterMs: number;
  /** `signal` is aborted when the server closes: a long job stops at its next step. */
  run(app: FastifyInstance, signal: AbortSignal): Promise<Record<string, number>>;
}

export interface JobRunner {
  /** Adds a job; its timer starts when the server is ready (or at once if it is). */
  add(job: JobDefinition): void;
  /**
   * Runs a job now (tests, a manual nudge) after the run in progress, if any. With
   * PostgreSQL it returns null when another instance holds the job.
   */
  run(name: string): Promise<Record<string, number> | null>;
  names(): string[];
}

/** The housekeeping jobs; a module adds its own through `app.jobs.add` from a plugin that depends on this one (alerts, dashboard). */
const BUILT_IN_JOBS: JobDefinition[] = [cleanupJob, runLogRetentionJob];

/** Advisory-lock class of the jobs (the second key is the hash of the job's name). */
const JOB_LOCK_CLASS = 727_275;

/**
 * Background jobs: each runs on its timer, one run at a time per job; a failure is logged,
 * never thrown; closing the server stops the timers and waits for the runs in progress.
 *
 * With PostgreSQL several instances run the same jobs: a run takes the job's advisory lock
 * (`pg_try_advisory_xact_lock`, held by a transaction kept open on its own connection while
 * the job works on others, so the lock goes with it if the instance dies) and an instance
 * that finds the lock taken skips that run. PGlite is one process: no lock needed.
 */
export default fp(
  async (app) => {
    const jobs = new Map<string, JobDefinition>();
    const timers = new Map<string, NodeJS.Timeout>();
    const running = new Map<string, Promise<Record<string, number> | null>>();
    let started = false;
    let closing = false;
    const stop = new AbortController();

    async function withLock(job: JobDefinition): Promise<Record<string, number> | null> {
      const { database } = app;
      if (database.kind === 'pglite') return job.run(app, stop.signal);
      return database.sql.transaction(async (tx) => {
        const [lock] = await tx.query<{ locked: boolean }>(
          'select pg_try_advisory_xact_lock($1, hashtext($2)) as locked',
          [JOB_LOCK_CLASS, job.name],
        );
        if (!lock?.locked) return null;
        return job.run(app, stop.signal);
      });
    }

    function runOnce(job: JobDefinition): Promise<Record<string, number> | null> {
      const before = running.get(job.name) ?? Promise.resolve(null);
      const run = before
        .catch(() => null)
        .then(async () => {
          const t0 = Date.now();
          const result = await withLock(job);
          // A run that changed nothing (the frequent alert job, mostly) is logged at debug.
          if (result) app.log[Object.values(result).some((n) => n > 0) ? 'info' : 'debug']({ job: job.name, ms: Date.now() - t0, ...result }, 'job done');
          return result;
        });
      const tracked = run.finally(() => {
        if (running.get(job.name) === tracked) running.delete(job.name);
      });
      running.set(job.name, tracked);
      return tracked;
    }

    function schedule(job: JobDefinition, delayMs: number): void {
      if (closing) return;
      const timer = setTimeout(() => {
        runOnce(job)
          .catch((err: unknown) =>
            app.log.error(
              { job: job.name, err: err instanceof Error ? err.message : err },
              'job failed',
            ),
          )
          .finally(() => schedule(job, job.everyMs));
      }, delayMs);
      // A job's timer never keeps a process alive on its own.
      timer.unref();
      timers.set(job.name, timer);
    }

    const runner: JobRunner = {
      add(job) {
        if (jobs.has(job.name)) throw new Error(`job ${job.name} is defined twice`);
        jobs.set(job.name, job);
        if (started) schedule(job, job.firstAfterMs);
      },
      run(name) {
        const job = jobs.get(name);
        if (!job) return Promise.reject(new Error(`no job named ${name}`));
        return runOnce(job);
      },
      names: () => [...jobs.keys()],
    };
    for (const job of BUILT_IN_JOBS) runner.add(job);
    // PGlite is PostgreSQL in single-user mode, without autovacuum (vacuum.ts).
    if (app.database.kind === 'pglite') runner.add(embeddedVacuumJob);
    app.decorate('jobs', runner);

    app.addHook('onReady', async () => {
      started = true;
      for (const job of jobs.values()) schedule(job, job.firstAfterMs);
    });
    // Registered after the database plugin, so this runs before the database is closed.
    app.addHook('onClose', async () => {
      closing = true;
      stop.abort();
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.allSettled([...running.values()]);
    });
  },
  { name: 'liftlink-jobs', fastify: '5.x', decorators: { fastify: ['config', 'database'] } },
);

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}
