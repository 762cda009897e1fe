import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BRIDGE_DEFAULT_PORT } from '@liftlink/protocol';

export const USAGE = `LiftLink serial bridge: lets the factory bench web page use a serial port of this PC.

Usage: npm start -- --server https://cloud.example.com [options]

  --server URL       the LiftLink server: pairing codes are verified there (required)
  --origin URL       the web page's origin, if it is not the server's (repeatable)
  --port N           the local WebSocket port, on 127.0.0.1 only (default ${BRIDGE_DEFAULT_PORT})
  --pair CODE        the pairing code the web page shows (otherwise type it when asked)
  --extra-port PATH  offer this serial device as well (a symlink, a pseudo-terminal; repeatable)
  --state FILE       where paired browsers are remembered (default ~/.liftlink-bridge.json)
  --forget           forget every paired browser, then run
  --help             this text`;

export interface BridgeCli {
  server: string;
  origins: string[];
  port: number;
  pair?: string;
  extraPorts: string[];
  stateFile: string;
  forget: boolean;
}

const httpUrl = (name: string, value: string): string => {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) throw new Error(`--${name} must be an http:// or https:// address`);
  return new URL(value).origin;
};

/** Parses the command line; throws an Error with a readable message; null for --help. */
export function parseBridgeCli(argv: string[]): BridgeCli | null {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      server: { type: 'string' },
      origin: { type: 'string', multiple: true },
      port: { type: 'string' },
      pair: { type: 'string' },
      'extra-port': { type: 'string', multiple: true },
      state: { type: 'string' },
      forget: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return null;
  if (!values.server) throw new Error('--server is required (the address of the LiftLink web page)');
  const server = httpUrl('server', values.server);
  const port = Number(values.port ?? BRIDGE_DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error('--port must be a port number');
  return {
    server,
    origins: values.origin?.length ? values.origin.map((o) => httpUrl('origin', o)) : [server],
    port,
    ...(values.pair ? { pair: values.pair } : {}),
    extraPorts: values['extra-port'] ?? [],
    stateFile: values.state ?? path.join(os.homedir(), '.liftlink-bridge.json'),
    forget: values.forget === true,
  };
}
