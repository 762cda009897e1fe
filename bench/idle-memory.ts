/**
 * The embedded server's memory at idle (issue 14). Starts the real server (embedded mode:
 * PGlite on its worker thread, the Aedes broker in the process) on a fresh DATA_DIR and
 * measures it once it is ready and idle (IDLE_SECONDS, default 30, after the demo fleet is
 * online, or after the start with SIMULATOR=0):
 *
 *   - `first-sim8`: SIMULATOR=8 with the demo history written at this first start;
 *   - `restart-sim8`: the same DATA_DIR started again (the history exists: no backfill);
 *   - `first-sim0` / `restart-sim0`: SIMULATOR=0, no demo fleet.
 *
 * One JSON line per case: the server's RSS and peak RSS (VmHWM) and its anonymous and
 * file-backed shares (/proc), the main thread's heap used, external and array buffers
 * (process.memoryUsage through bench/memory-probe.mjs), and the simulator child's RSS
 * counted separately. All in MiB. Asserts nothing. BENCH_CASES=first-sim8,restart-sim8
 * picks cases (BENCH_CASES=first-sim8 runs the first start alone); BENCH_SMAPS=1 adds the
 * server's largest mappings (/proc/<pid>/smaps: size, resident, what is mapped) to each line.
 *
 *   npm run bench:idle-memory
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../apps/server/test/support/ports.ts';
import { startServerProcess, type ServerProcess } from '../apps/server/test/support/server-process.ts';

const IDLE_MS = Number(process.env.IDLE_SECONDS ?? 30) * 1000;
const PROBE = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), 'memory-probe.mjs')).href;
const MiB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

/** Fields of /proc/<pid>/status and smaps_rollup, in MiB (the files give kB). */
function procKb(pid: number, file: 'status' | 'smaps_rollup', fields: string[]): Record<string, number> {
  const text = readFileSync(`/proc/${pid}/${file}`, 'utf8');
  const out: Record<string, number> = {};
  for (const f of fields) {
    const m = new RegExp(`^${f}:\\s+(\\d+) kB`, 'm').exec(text);
    if (m) out[f] = Math.round((Number(m[1]) / 1024) * 10) / 10;
  }
  return out;
}

/** The mappings holding more than 4 MiB, largest first: size and resident MiB, and the file or [anon]. */
function largestMappings(pid: number): { sizeMiB: number; rssMiB: number; what: string }[] {
  const out: { sizeMiB: number; rssMiB: number; what: string }[] = [];
  let current: { sizeMiB: number; rssMiB: number; what: string } | null = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { sizeMiB: mib(parseInt(head[2]!, 16) - parseInt(head[1]!, 16)), rssMiB: 0, what: head[3] || '[anon]' };
      out.push(current);
    } else if (current && line.startsWith('Rss:')) current.rssMiB = Math.round((Number(/(\d+)/.exec(line)![1]) / 1024) * 10) / 10;
  }
  return out.filter((m) => m.rssMiB > 4).sort((a, b) => b.rssMiB - a.rssMiB);
}

function childPids(pid: number): number[] {
  const pids: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const file = `/proc/${pid}/task/${task}/children`;
    if (existsSync(file)) pids.push(...readFileSync(file, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
  }
  return pids;
}

async function until(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The main thread's figures, asked for with SIGUSR2 (bench/memory-probe.mjs). */
async function probe(pid: number, dir: string): Promise<Record<string, number>> {
  const file = path.join(dir, `${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, 'SIGUSR2');
  await until('the memory probe', () => existsSync(file), 10_000);
  await new Promise((r) => setTimeout(r, 100));
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
}

async function measure(name: string, dataDir: string, simulator: number, probeDir: string): Promise<Record<string, unknown>> {
  const started = Date.now();
  const server: ServerProcess = await startServerProcess(
    { MQTT_PORT: String(await freePort()), DATA_DIR: dataDir, SIMULATOR: String(simulator), LOG_LEVEL: 'info', MEMORY_PROBE_DIR: probeDir, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${PROBE}`.trim() },
    { timeoutMs: 300_000 },
  );
  try {
    if (simulator > 0) await until('the demo fleet', () => server.log().includes('demo fleet online'), 300_000);
    const readyMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const pid = server.child.pid!;
    const status = procKb(pid, 'status', ['VmRSS', 'VmHWM']);
    const rollup = procKb(pid, 'smaps_rollup', ['Rss', 'Anonymous']);
    const usage = await probe(pid, probeDir);
    const mappings = process.env.BENCH_SMAPS === '1' ? largestMappings(pid) : undefined;
    const sims = childPids(pid);
    const simRss = sims.reduce((sum, p) => sum + (procKb(p, 'status', ['VmRSS']).VmRSS ?? 0), 0);
    return {
      case: name,
      readyMs,
      idleMs: IDLE_MS,
      rssMiB: status.VmRSS,
      hwmMiB: status.VmHWM,
      anonMiB: rollup.Anonymous,
      fileMiB: Math.round(((rollup.Rss ?? 0) - (rollup.Anonymous ?? 0)) * 10) / 10,
      heapUsedMiB: mib(usage.heapUsed!),
      heapTotalMiB: mib(usage.heapTotal!),
      externalMiB: mib(usage.external!),
      arrayBuffersMiB: mib(usage.arrayBuffers!),
      simulatorRssMiB: sims.length ? Math.round(simRss * 10) / 10 : null,
      ...(mappings ? { mappings } : {}),
    };
  } finally {
    await server.stop();
  }
}

const CASES = (process.env.BENCH_CASES ?? 'first-sim8,restart-sim8,first-sim0,restart-sim0').split(',');
const probeDir = mkdtempSync(path.join(tmpdir(), 'liftlink-memprobe-'));
try {
  for (const simulator of [8, 0]) {
    const first = `first-sim${simulator}`;
    const restart = `restart-sim${simulator}`;
    if (!CASES.includes(first) && !CASES.includes(restart)) continue;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'liftlink-idle-'));
    try {
      // The restart needs the first start's DATA_DIR, so the first start always runs.
      const a = await measure(first, dataDir, simulator, probeDir);
      if (CASES.includes(first)) console.log(JSON.stringify(a));
      if (CASES.includes(restart)) console.log(JSON.stringify(await measure(restart, dataDir, simulator, probeDir)));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(probeDir, { recursive: true, force: true });
}
