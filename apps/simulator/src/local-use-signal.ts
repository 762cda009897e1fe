import type { LiftMachine } from './lift-machine.ts';

/**
 * The signal that makes "someone on site use the lifts": a demo affordance, and how the
 * end-to-end tests cause local use on lifts simulated by a child process they cannot reach
 * otherwise. Node leaves SIGUSR2 to the program (its inspector listens on SIGUSR1); only
 * `--report-on-signal` or `--heapsnapshot-signal=SIGUSR2` would take it, and the simulator
 * is started with neither.
 */
export const LOCAL_USE_SIGNAL = 'SIGUSR2';

/**
 * On LOCAL_USE_SIGNAL, presses the platform button (RZLB) of every lift `machines()` returns
 * now: each refuses remote leased commands for LOCAL_SETTLE_MS and forgets the leases it has
 * seen. What the lifts say goes out with the fleet's next tick. Installed before the lifts
 * start, so the signal never ends the process (its default action would).
 */
export function pressPlatformButtonsOnSignal(machines: () => readonly LiftMachine[], log: (line: string) => void): void {
  if (process.platform === 'win32') return; // no SIGUSR2 there
  process.on(LOCAL_USE_SIGNAL, () => {
    const lifts = machines();
    for (const machine of lifts) machine.useLocally({ kind: 'platformButton' });
    log(`simulator: ${LOCAL_USE_SIGNAL}, pressed the platform button of ${lifts.length} lift${lifts.length === 1 ? '' : 's'}`);
  });
}
