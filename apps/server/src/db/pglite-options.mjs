// PGlite's start options, the same for the worker (pglite-worker.mjs) and the first start's
// initialisation (pglite-init.mjs). Plain JavaScript: both run without the TypeScript loader.
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/**
 * PostgreSQL's own buffer pool. PGlite starts with PostgreSQL's default, 128 MB, all of it
 * WebAssembly memory that is never given back, while the data files it reads are cached by
 * the operating system anyway (PGlite's disk is the host's file system). 16 MB keeps the
 * hot pages of the lifts, presence and the current run-log month (idle server 110 MiB
 * smaller, bench/idle-memory.ts). Set on every start, not stored in the data directory.
 */
const SHARED_BUFFERS = '16MB';

export const pgliteOptions = { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`] };

/**
 * V8 compiles PGlite's 9 MB WebAssembly module with its baseline compiler (Liftoff) only,
 * not a second time with its optimising one (TurboFan) for the functions that run often.
 * TurboFan's code, and what its background threads allocated while compiling, stayed in
 * the process: the idle server is 60 to 85 MiB smaller without it, while ingest and the
 * demo history are written as fast (bench/idle-memory.ts, bench/run.ts). A V8 setting,
 * so it holds for the whole process: called before PGlite is started.
 */
export function useBaselineWasmCompiler() {
  v8.setFlagsFromString('--liftoff-only');
}
