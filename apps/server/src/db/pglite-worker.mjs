// PGlite on a thread of its own (see openPglite in client.ts). PGlite runs PostgreSQL as
// WebAssembly in the thread that calls it; on the main thread every statement would stop
// the broker, the HTTP API and ingest while it runs. Here it runs beside them.
//
// Plain JavaScript on purpose: a worker does not inherit the TypeScript loader in every
// runner (vitest's workers have none), and this file only relays messages.
//
// Requests: { id, op: 'query', text, params, rowMode } | { id, op: 'exec', text } | { id, op: 'dump' } | { id, op: 'close' }
// Answers:  { id, rows, data? } | { id, error: { message, ...fields of PostgreSQL's error } }
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions, useBaselineWasmCompiler } from './pglite-options.mjs';

useBaselineWasmCompiler();
// In memory, from an image of a data directory when given one (a tarball, as dumpDataDir makes).
const client = workerData.dataDir
  ? new PGlite(workerData.dataDir, pgliteOptions)
  : new PGlite({ ...pgliteOptions, ...(workerData.image ? { loadDataDir: new Blob([workerData.image]) } : {}) });

/** The fields of a PostgreSQL error (code, detail, constraint, ...) cross the thread as plain data. */
function plainError(err) {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || (typeof value === 'object' && value !== null)) continue;
    fields[key] = value;
  }
  return fields;
}

async function run(request) {
  switch (request.op) {
    case 'query': {
      const result = await client.query(request.text, request.params, request.rowMode === 'array' ? { rowMode: 'array' } : undefined);
      return { rows: result.rows, fields: request.rowMode === 'array' ? result.fields.map((f) => f.name) : undefined };
    }
    case 'exec':
      await client.exec(request.text);
      return { rows: [] };
    case 'dump': {
      // A checkpoint first, so the data files hold every committed change; nothing else
      // runs meanwhile (statements reach this thread one at a time).
      await client.exec('checkpoint');
      const blob = await client.dumpDataDir('gzip');
      return { rows: [], data: new Uint8Array(await blob.arrayBuffer()) };
    }
    case 'close':
      await client.close();
      return { rows: [] };
    default:
      throw new Error(`unknown request ${request.op}`);
  }
}

// One request after the other, in the order they arrive: the server sends the next
// statement before the answer to the last is back (client.ts), and a transaction's
// statements must not pass its `begin`, nor another's pass its `commit`.
let previous = Promise.resolve();
parentPort.on('message', (request) => {
  previous = previous.then(() => answer(request));
});

function answer(request) {
  return run(request).then(
    (answer) => {
      parentPort.postMessage({ id: request.id, ...answer }, answer.data ? [answer.data.buffer] : []);
      if (request.op === 'close') parentPort.close();
    },
    (err) => parentPort.postMessage({ id: request.id, error: plainError(err) }),
  );
}

client.waitReady.then(
  () => parentPort.postMessage({ ready: true }),
  (err) => parentPort.postMessage({ ready: false, error: plainError(err) }),
);
