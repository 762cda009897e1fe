import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, until } from './ports.ts';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');
/** The first administrator's password in every test server (LIFTLINK_ADMIN_PASSWORD). */
export const ADMIN_PASSWORD = 'Admin-Test-Password-1';

export interface ServerProcess {
  url: string;
  port: number;
  /** DATA_DIR: the caller's, or a temporary folder removed by `stop`. */
  dataDir: string;
  child: ChildProcess;
  /** The last lines the server logged (for a failing test's message). */
  log(): string;
  /** JSON API call; returns the HTTP status and the envelope. */
  api<T = any>(method: 'GET' | 'POST', route: string, body?: unknown, token?: string): Promise<{ status: number; body: { success: boolean; code: string; msg: string; result: T } }>;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** The page's address for this port (default http://127.0.0.1:PORT): HTTPS, a host name. */
  url?: (port: number) => string;
  /** When the server counts as started (default: GET /health answers 200). */
  ready?: (url: string) => Promise<boolean>;
  /** How long it may take to start (default 60 s). */
  timeoutMs?: number;
  /** The server's main.ts: another checkout's, to compare an older version (benchmarks). */
  main?: string;
  /** Node.js options for the server process, before its script: a benchmark's `--cpu-prof`. */
  nodeArgs?: string[];
}

/**
 * A real server process (`src/main.ts`), as production runs it, on a free port; resolves
 * when it is ready. `env` may depend on the chosen port and address (PUBLIC_URL). Used by
 * the server's integration tests, the end-to-end tests and the benchmarks alike.
 */
export async function startServerProcess(env: Record<string, string> | ((port: number, url: string) => Record<string, string>), opts: StartOptions = {}): Promise<ServerProcess> {
  // A port found free can still be taken before the child listens on it (ports.ts): then
  // the child exits saying so (main.ts), and it starts again on another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await startOnPort(port, env, opts);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempt >= 3 || !message.includes(`PORT ${port} is already in use`)) throw err;
    }
  }
}

async function startOnPort(port: number, env: Parameters<typeof startServerProcess>[0], opts: StartOptions): Promise<ServerProcess> {
  const url = opts.url?.(port) ?? `http://127.0.0.1:${port}`;
  const settings = typeof env === 'function' ? env(port, url) : env;
  const ownDataDir = settings.DATA_DIR ? null : mkdtempSync(path.join(os.tmpdir(), 'liftlink-instance-'));
  const dataDir = settings.DATA_DIR ?? ownDataDir!;
  const main = opts.main ?? MAIN;
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), '--import', 'tsx', main], {
    cwd: path.resolve(path.dirname(main), '../../..'),
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn', SIMULATOR: '0', METRICS_PORT: '0', ...settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const api: ServerProcess['api'] = async (method, route, body, token) => {
    const res = await fetch(url + route, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { 'access-token': token } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as never };
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  };
  const ready = opts.ready ?? (async (u: string) => (await fetch(`${u}/health`).catch(() => null))?.status === 200);
  try {
    await Promise.race([
      until('server start', () => ready(url).catch(() => false), opts.timeoutMs ?? 60_000, 250),
      exited.then(() => Promise.reject(new Error(`server exited with ${child.exitCode}: ${log}`))),
    ]);
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${log}`);
  }
  return { url, port, dataDir, child, log: () => log, api, stop };
}

export async function signIn(server: ServerProcess, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await server.api<{ token: string }>('POST', '/auth/access/login', { username, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.result.token;
}
