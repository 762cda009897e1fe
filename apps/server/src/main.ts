import { ConfigError, loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { BrokerPortBusyError } from './plugins/mqtt.ts';

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
  const shutdown = (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
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
