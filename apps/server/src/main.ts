import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { BrokerPortBusyError } from './plugins/mqtt.ts';

/** A graceful stop must be over by then; past it the process exits with 1. */
const STOP_TIMEOUT_MS = 10_000;

/** Starts LiftLink; a bad configuration or a busy port ends with one clear line, not a trace. */
async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({
    config,
    onAdminPassword: (username, password) => {
      // Printed once, on the console only (not the JSON log), on the first start.
      process.stdout.write(`\n  Administrator created: ${username} / ${password}\n  Keep it now: it is not shown again.\n\n`);
    },
  });
  // SIGTERM/SIGINT: a graceful stop (docs/operations.md, "Stopping and restarting"). A
  // second signal, or a stop that overruns STOP_TIMEOUT_MS, ends the process at once.
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`liftlink: ${signal} again: stopping at once\n`);
      process.exit(130);
    }
    stopping = true;
    app.log.info({ signal }, 'stopping: finishing what is in hand');
    const started = Date.now();
    const hard = setTimeout(() => {
      process.stderr.write(`liftlink: the stop took longer than ${STOP_TIMEOUT_MS / 1000} s: exiting anyway\n`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    hard.unref();
    app.close().then(
      () => {
        app.log.info({ ms: Date.now() - started }, 'stopped');
        process.exit(0);
      },
      (err: unknown) => {
        process.stderr.write(`liftlink: stop failed: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new ConfigError(`PORT ${config.port} is already in use. Set PORT to a free port.`);
    throw err;
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof BrokerPortBusyError) {
    process.stderr.write(`liftlink: ${err.message}\n`);
  } else {
    process.stderr.write(`liftlink: failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.exit(1);
});
