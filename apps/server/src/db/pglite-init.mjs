// The first start on an empty PGlite folder (openPglite in client.ts): creates the database
// cluster (PGlite's initdb) in a process of its own, then exits. Creating it takes a second
// PGlite instance and about 600 MiB; in the server's process most of that stayed resident
// after it was done (WebAssembly memory and the allocator's arenas are not given back).
//
//   node pglite-init.mjs <folder>
import { PGlite } from '@electric-sql/pglite';
import { pgliteOptions, useBaselineWasmCompiler } from './pglite-options.mjs';

useBaselineWasmCompiler();
try {
  const client = new PGlite(process.argv[2], pgliteOptions);
  await client.waitReady;
  await client.close();
  process.exit(0);
} catch (err) {
  process.stderr.write(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
