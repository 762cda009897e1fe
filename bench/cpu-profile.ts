/**
 * Where a process's CPU went, from a V8 CPU profile (`node --cpu-prof`; for the benchmark's
 * server: BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" npm run bench, one file per
 * thread, the main thread's ending in `.0.001.cpuprofile`).
 *
 *   node --import tsx bench/cpu-profile.ts FILE [FROM_S TO_S]
 *
 * Prints the time in the window (seconds from the profile's start; the whole profile without
 * one), then the self time by source file and by function, and the inclusive time by function
 * (a function's own time and that of everything it called). "(idle)" is the thread waiting;
 * "(garbage collector)" and native calls such as "writev" have their own rows.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, fromArg, toArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node --import tsx bench/cpu-profile.ts FILE [FROM_S TO_S]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const fromUs = Number(fromArg ?? 0) * 1e6;
const toUs = toArg === undefined ? Infinity : Number(toArg) * 1e6;

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);

// Microseconds spent with each node on top of the stack, within the window.
const selfUs = new Map<number, number>();
let windowUs = 0;
let at = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (at < fromUs || at > toUs) return;
  selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  windowUs += delta;
});

const shortUrl = (url: string) => url.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1').replace(/^file:\/\/.*?\/(apps|packages|bench)\//, '$1/');
const fileOf = (n: ProfileNode) => (n.callFrame.url ? shortUrl(n.callFrame.url) : `(${n.callFrame.functionName})`);
const functionOf = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url ? `${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}` : ''}`.trim();

const add = (into: Map<string, number>, key: string, us: number) => into.set(key, (into.get(key) ?? 0) + us);
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = nodes.get(id)!;
  add(byFile, fileOf(node), us);
  add(byFunction, functionOf(node), us);
  // Each function once per sample, however deep it recurses.
  const seen = new Set<string>();
  for (let n: ProfileNode | undefined = node; n; n = nodes.get(parentOf.get(n.id) ?? -1)) {
    const key = functionOf(n);
    if (seen.has(key) || key === '(root)') continue;
    seen.add(key);
    add(inclusive, key, us);
  }
}

const table = (title: string, rows: Map<string, number>, count: number) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / windowUs).toFixed(1).padStart(5)} %  ${key}`);
  }
};
console.log(`${(windowUs / 1e6).toFixed(1)} s of samples${fromArg === undefined ? '' : ` from ${fromArg} s to ${toArg ?? 'the end'}`}`);
table('self time by file', byFile, 25);
table('self time by function', byFunction, 40);
table('inclusive time by function', inclusive, 40);
