/**
 * CPU time of the processes in a benchmark, from /proc (Linux): on a shared 2-core machine
 * the CPU each part spends per message says more about capacity than wall time, and shows
 * which part limits the figure.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

function statFields(pid: number | string): { name: string; ms: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name is in parentheses and may hold spaces; the fields after it are fixed.
    const close = stat.lastIndexOf(')');
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    return { name, ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** CPU milliseconds (user + system) one process has used so far. */
export function cpuMs(pid: number | undefined): number {
  return pid === undefined ? 0 : (statFields(pid)?.ms ?? 0);
}

/** CPU milliseconds used so far by every process of that name (PostgreSQL's backends). */
export function cpuMsByName(name: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields?.name === name) total += fields.ms;
  }
  return total;
}
