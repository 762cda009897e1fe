import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { parseCli, USAGE, type FleetSource } from './cli.ts';
import { fleetSpecSchema, generateFleet, startFleet, type FleetHandle } from './fleet.ts';
import { pressPlatformButtonsOnSignal } from './local-use-signal.ts';
import type { SimLiftSpec } from './mqtt-lift.ts';
import { runSerialController } from './serial/run.ts';
import { stopOnSignals } from './shutdown.ts';

/** How long a stop may take before the process exits anyway. */
const STOP_TIMEOUT_MS = 3_000;

/** stdout carries only the ready line (a parent process reads it); everything else goes to stderr. */
const log = (line: string) => process.stderr.write(`${line}\n`);

async function loadLifts(source: FleetSource): Promise<SimLiftSpec[]> {
  if (source.type === 'count') return generateFleet(source.count, source.prefix);
  const raw =
    source.type === 'file' ? await readFile(source.path, 'utf8') : await text(process.stdin);
  const parsed = fleetSpecSchema.safeParse(JSON.parse(raw));
  if (!parsed.success)
    throw new Error(
      `fleet JSON is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2));
  if (!cli) {
    log(USAGE);
    return;
  }
  if (cli.source.type === 'serial') return runSerialController(cli.source, log, cli.fleet.firmwareBaseUrl);
  let fleet: FleetHandle | null = null;
  pressPlatformButtonsOnSignal(() => fleet?.lifts.map((l) => l.machine) ?? [], log);
  const lifts = await loadLifts(cli.source);
  // Each lift says goodbye to the broker; a broker that is gone must not keep us alive.
  const exit = stopOnSignals(
    `${lifts.length} lifts`,
    () => (fleet ? fleet.stop() : Promise.resolve()),
    log,
    STOP_TIMEOUT_MS,
  );
  if (cli.source.type === 'stdin') {
    // Fed by a server (embedded mode): when that process dies without stopping us (killed,
    // crashed), we are adopted by another and stop too instead of running on as an orphan.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) exit.shutdown('parent process gone');
    }, 1_000).unref();
  }
  log(`simulator: starting ${lifts.length} lifts against ${cli.fleet.mqttUrl}`);
  fleet = await startFleet({ ...cli.fleet, lifts, log });
  if (exit.stopping) return;
  process.stdout.write(`${JSON.stringify({ ready: true, count: lifts.length })}\n`);
  log(`simulator: ${fleet.connectedCount()} of ${lifts.length} lifts connected`);
}

main().catch((err: unknown) => {
  log(`simulator: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
