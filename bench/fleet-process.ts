/**
 * The benchmark's lifts as a process of their own (bench/lift-fleet.ts), started by the
 * benchmark and the profiles, with a request/answer helper over IPC.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LiftMachine } from '../apps/simulator/src/lift-machine.ts';
import type { FleetReply, FleetRequest } from './lift-fleet.ts';

export interface FleetProcess {
  child: ChildProcess;
  ask: <T = Record<string, unknown>>(req: FleetRequest) => Promise<T>;
}

export async function startFleet(): Promise<FleetProcess> {
  const child = fork(path.join(path.dirname(fileURLToPath(import.meta.url)), 'lift-fleet.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await once(child, 'message');
  const ask = <T>(req: FleetRequest) =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (reply: FleetReply) => (reply.ok ? resolve(reply as T) : reject(new Error(reply.error))));
      child.send(req);
    });
  return { child, ask };
}

/** A real status snapshot (what a standing lift reports) that every benchmark lift sends on connect. */
export function sampleStatus(deviceNo: string): unknown {
  return new LiftMachine({ deviceNo, kind: 'inclinedStraightRack', floors: 2, now: Date.now(), random: Math.random }).status();
}
