// Loaded into a measured process with NODE_OPTIONS=--import (bench/idle-memory.ts): on
// SIGUSR2 it writes the main thread's process.memoryUsage() and V8 heap statistics as JSON
// to MEMORY_PROBE_DIR/<pid>.json. Does nothing without MEMORY_PROBE_DIR.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

const dir = process.env.MEMORY_PROBE_DIR;
if (dir) {
  process.on('SIGUSR2', () => {
    const usage = process.memoryUsage();
    const heap = v8.getHeapStatistics();
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ ...usage, heapTotalAvailable: heap.total_available_size, mallocedMemory: heap.malloced_memory }));
  });
}
