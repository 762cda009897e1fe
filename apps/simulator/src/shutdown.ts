/**
 * Ends the process on SIGTERM or SIGINT, or when `shutdown` is called (a parent that is
 * gone): `stop` runs once, then the process exits 0, or 1 when stopping failed. With
 * `timeoutMs`, a stop that hangs (lifts saying goodbye to a broker that is gone) ends the
 * process anyway.
 */
export function stopOnSignals(
  what: string,
  stop: () => Promise<void>,
  log: (line: string) => void,
  timeoutMs?: number,
): { shutdown: (reason: string) => void; readonly stopping: boolean } {
  let stopping = false;
  const shutdown = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`simulator: ${reason}, stopping ${what}`);
    if (timeoutMs !== undefined) {
      setTimeout(() => {
        log('simulator: the broker did not answer, stopping anyway');
        process.exit(0);
      }, timeoutMs).unref();
    }
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log(`simulator: stop failed: ${String(err)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  return {
    shutdown,
    get stopping() {
      return stopping;
    },
  };
}
