import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import pg from 'pg';

/** The PGlite thread's young generation, in MiB (bench/idle-memory.ts). */
const WORKER_YOUNG_GENERATION_MB = 6;
/**
 * Every query is plain SQL with numbered parameters (`migrations/*.sql` are the schema's
 * one definition); rows come back as objects keyed by column name or alias.
 */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  exec(text: string): Promise<void>;
  transaction<T>(fn: (tx: Omit<SqlExecutor, 'transaction'>) => Promise<T>): Promise<T>;
}

export interface Database {
  kind: 'pglite' | 'postgres';
  sql: SqlExecutor;
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * PGlite only: the whole data directory as a gzip'd tar, taken between two statements
   * (after a checkpoint), for backups while the server runs.
   */
  dumpDataDir?(): Promise<Uint8Array>;
  /**
   * PGlite in a data directory only: stops its thread and starts a new one on the same files,
   * between two statements (those sent meanwhile wait their turn, as always). The memory a
   * burst of work left behind is given back: PGlite's WebAssembly memory never shrinks, a
   * new thread starts small. Not offered by PostgreSQL; does nothing to an in-memory PGlite.
   */
  restart?(): Promise<void>;
  /** For the metrics: PostgreSQL's pool (connections open, idle, callers waiting); PGlite's statements waiting their turn. */
  poolState(): { total: number; idle: number; waiting: number };
}

type WorkerAnswer = { id: number; rows: unknown[]; fields?: string[]; data?: Uint8Array; error?: undefined } | { id: number; error: Record<string, unknown> & { message: string } };

/**
 * PGlite in `dataDir/pg` (or in memory when dataDir is ':memory:', started from
 * `options.image` when given), on a worker thread of its own (pglite-worker.mjs). PGlite executes SQL as WebAssembly in the thread that calls
 * it; on the main thread each statement stopped the broker, the HTTP API and ingest while
 * it ran (half the embedded server's CPU during ingest). On its own thread it uses the
 * second core, and a command or a live push no longer waits behind a batch's SQL.
 *
 * PGlite is one session: a transaction holds it until commit, so statements are queued
 * here, and those of an open transaction go first. The worker runs what it is sent in the
 * order it arrives, so the turn passes when a statement (or a transaction's `commit`) is
 * sent, not when its answer is back: the session never waits idle while this thread, busy
 * with the broker and the HTTP API, gets round to an answer. Only between a transaction's
 * own statements does the turn stay with it.
 */
export async function openPglite(dataDir: string, options: { image?: Uint8Array } = {}): Promise<Database> {
  let dir: string | undefined;
  if (dataDir !== ':memory:') {
    dir = path.join(dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    // An empty folder: the cluster is created by a process of its own (pglite-init.mjs),
    // whose memory is given back when it exits (in this process about 400 MiB stayed).
    if (!existsSync(path.join(dir, 'PG_VERSION'))) {
      await promisify(execFile)(process.execPath, [fileURLToPath(new URL('./pglite-init.mjs', import.meta.url)), dir]).catch((err: Error & { stderr?: string }) => {
        throw new Error(`the embedded database could not be created in ${dir}: ${err.stderr || err.message}`);
      });
    }
  }
  let worker = await startPgliteWorker(dir, options.image);
  let nextId = 0;
  const pending = new Map<number, { resolve: (a: WorkerAnswer & { error?: undefined }) => void; reject: (e: Error) => void }>();
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure = err;
    for (const request of pending.values()) request.reject(err);
    pending.clear();
  };
  /** Threads stopped by `restart`: their end is no failure. */
  const retired = new WeakSet<Worker>();
  const listen = (w: Worker) => {
    w.on('message', (answer: WorkerAnswer) => {
      const request = pending.get(answer.id);
      if (!request) return;
      pending.delete(answer.id);
      if (!pending.size) w.unref();
      if (answer.error) request.reject(Object.assign(new Error(answer.error.message), answer.error));
      else request.resolve(answer);
    });
    w.on('error', (err) => !retired.has(w) && failAll(err));
    w.on('exit', () => !retired.has(w) && failAll(new Error('the embedded database has stopped')));
    w.unref();
  };
  listen(worker);

  function send(request: { op: 'query'; text: string; params?: unknown[]; rowMode?: 'array' } | { op: 'exec'; text: string } | { op: 'dump' } | { op: 'close' }) {
    if (failure) return Promise.reject(failure);
    const id = ++nextId;
    return new Promise<WorkerAnswer & { error?: undefined }>((resolve, reject) => {
      // Referenced while a statement is out, so a script awaiting its answer is not ended.
      if (!pending.size) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...request });
    });
  }

  // One session: statements wait their turn; a transaction keeps the turn until it ends.
  let turn: Promise<unknown> = Promise.resolve();
  let queued = 0;
  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    queued++;
    const run = turn.then(work, work);
    turn = run.catch(() => {});
    void turn.then(() => queued--);
    return run;
  }
  /**
   * Takes the turn for as long as `handOver` takes to send its requests to the worker, and
   * answers when the worker has answered: `handOver` returns the answer still to come, in a
   * box so that the turn does not wait for it.
   */
  async function sentInTurn<T>(handOver: () => Promise<{ answer: Promise<T> }>): Promise<T> {
    const { answer } = await exclusive(handOver);
    return answer;
  }
  const inSession: Omit<SqlExecutor, 'transaction'> = {
    query: async <T>(text: string, params?: unknown[]) => (await send({ op: 'query', text, params })).rows as T[],
    exec: async (text) => void (await send({ op: 'exec', text })),
  };
  const sql: SqlExecutor = {
    query: <T>(text: string, params?: unknown[]) => sentInTurn(async () => ({ answer: inSession.query<T>(text, params) })),
    exec: (text) => sentInTurn(async () => ({ answer: inSession.exec(text) })),
    transaction: <T>(fn: (tx: Omit<SqlExecutor, 'transaction'>) => Promise<T>) =>
      sentInTurn<T>(async () => {
        // Not awaited: the worker runs it before the first statement; were it to fail, that
        // statement fails too.
        inSession.exec('begin').catch(() => {});
        try {
          const result = await fn(inSession);
          return { answer: inSession.exec('commit').then(() => result) };
        } catch (err) {
          const rolledBack = inSession.exec('rollback').catch(() => {});
          return {
            answer: rolledBack.then((): never => {
              throw err;
            }),
          };
        }
      }),
  };
  return {
    kind: 'pglite',
    sql,
    ping: async () => void (await sql.query('select 1')),
    dumpDataDir: async () => (await exclusive(() => send({ op: 'dump' }))).data!,
    // One session: busy while a caller holds its turn or a statement sent is not answered yet; the rest wait in the queue.
    poolState: () => ({ total: 1, idle: queued === 0 && pending.size === 0 ? 1 : 0, waiting: Math.max(0, queued - 1) }),
    close: async () => {
      if (failure) return;
      await exclusive(() => send({ op: 'close' }));
      await worker.terminate();
    },
    // Between two statements: PostgreSQL shuts down cleanly (a checkpoint) and starts again
    // on the same files in a new thread. An in-memory database would be lost: kept as it is.
    restart: async () => {
      if (!dir) return;
      await exclusive(async () => {
        await send({ op: 'close' });
        retired.add(worker);
        await worker.terminate();
        try {
          worker = await startPgliteWorker(dir);
        } catch (err) {
          failAll(err instanceof Error ? err : new Error(String(err)));
          throw err;
        }
        listen(worker);
      });
    },
  };
}

/**
 * A PGlite thread on `dir` (in memory without one, started from `image` when given: a data
 * directory's tarball, as `dumpDataDir` makes; a `dir` wins), once PostgreSQL is ready.
 */
async function startPgliteWorker(dir: string | undefined, image?: Uint8Array): Promise<Worker> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
    workerData: { dataDir: dir, image },
    // The thread's JavaScript only passes queries and rows to and from PostgreSQL's WebAssembly:
    // a small young generation (V8 would grow it to 48 MiB, and keep it) is plenty.
    resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
  });
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (m: { ready: boolean; error?: { message: string } }) => (m.ready ? resolve() : reject(new Error(m.error?.message))));
  });
  return worker;
}

/**
 * DATABASE_URL with the session settings every server connection needs added to the
 * operator's own `options` (after them: a later `-c` wins). In the URL, since pg lets the
 * URL's `options` replace a separate one. JIT off: PostgreSQL compiles a statement
 * whose estimated cost passes jit_above_cost, and the availability booking of every status
 * batch passes it (its month split is estimated at hundreds of rows a lift): 665 of its
 * 670 ms went to LLVM for 100 lifts, so that 2,000 lifts reporting every 5 s (400 statuses
 * a second) kept the ingest transaction busy all the time (docs/operations.md 3.2). The
 * server's statements are short; none gains from compiling.
 */
export function withSessionOptions(url: string): string {
  const withOptions = new URL(url);
  const own = withOptions.searchParams.get('options');
  withOptions.searchParams.set('options', [own, '-c jit=off'].filter(Boolean).join(' '));
  return withOptions.toString();
}

export async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: withSessionOptions(url), max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one: a restart can make a client emit 'error' twice (the server's
  // FATAL, then the closed socket), and pg-pool's query listens only `once`, so the second
  // would be unheard and end the process. Every failure still reaches its query's caller.
  pool.on('connect', (client) => client.on('error', () => {}));
  const sql: SqlExecutor = {
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params)).rows as T[],
    exec: async (text) => void (await pool.query(text)),
    transaction: async (fn) => {
      const client = await pool.connect();
      // A connection lost between two statements (database restart) is reported as an
      // 'error' event on the checked-out client; unheard, it would end the process. The
      // next statement fails and the transaction is retried by its caller.
      let broken: Error | undefined;
      const ignore = (err: Error) => (broken = err);
      client.on('error', ignore);
      try {
        await client.query('begin');
        const result = await fn({
          query: async <T>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as T[],
          exec: async (text) => void (await client.query(text)),
        });
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => {});
        throw err;
      } finally {
        client.off('error', ignore);
        // A broken connection is closed rather than handed to the next caller.
        client.release(broken);
      }
    },
  };
  return {
    kind: 'postgres',
    sql,
    ping: async () => void (await pool.query('select 1')),
    poolState: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
  };
}
