import { createInterface } from 'node:readline';
import { formatPairingCode } from '@liftlink/protocol';
import { startBridgeServer } from './bridge-server.ts';
import { USAGE, parseBridgeCli } from './cli.ts';
import { verifyWithServer } from './pairing.ts';
import { nodeSerialAccess } from './serial-access.ts';
import { TokenStore } from './token-store.ts';

const say = (line: string): void => void process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const cli = parseBridgeCli(process.argv.slice(2));
  if (!cli) return say(USAGE);
  const tokens = await TokenStore.open(cli.stateFile);
  if (cli.forget) await tokens.forgetAll();
  const bridge = await startBridgeServer({ port: cli.port, origins: cli.origins, tokens, serial: nodeSerialAccess(cli.extraPorts), log: (l) => process.stderr.write(`${l}\n`) });
  say(`LiftLink serial bridge listening on ws://127.0.0.1:${bridge.port} for ${cli.origins.join(', ')}`);

  async function pair(typed: string): Promise<void> {
    const result = await verifyWithServer(cli!.server, typed);
    if (!result.ok) return say(`Pairing failed: ${result.message}`);
    bridge.setPending(result.pairing);
    say(`Code ${formatPairingCode(result.pairing.code)} verified for ${result.pairing.user}. Go back to the web page: it connects by itself.`);
  }

  if (cli.pair) await pair(cli.pair);
  // A code can be typed (or piped) at any time: one per line.
  const input = createInterface({ input: process.stdin, terminal: false });
  if (process.stdin.isTTY) say('Type the pairing code the web page shows (Register plugin), then Enter:');
  input.on('line', (line) => {
    if (line.trim()) void pair(line.trim());
  });

  const stop = () => {
    input.close();
    bridge.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`serial bridge: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
