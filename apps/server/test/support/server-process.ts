import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PASSWORD } from '../helpers.ts';
import { freePort, until } from './ports.ts';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** The last lines the server logged (for a failing test's message). */
  log(): string;
  /** JSON API call; returns the HTTP status and the envelope. */
  api<T = any>(method: 'GET' | 'POST', route: string, body?: unknown, token?: string): Promise<{ status: number; body: { success: boolean; code: string; msg: string; result: T } }>;
  stop(): Promise<void>;
}

/** A real server process (`src/main.ts`), as production runs it; resolves when /health answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-instance-'));
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn', SIMULATOR: '0', METRICS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const url = `http://127.0.0.1:${port}`;
  const api: ServerProcess['api'] = async (method, route, body, token) => {
    const res = await fetch(url + route, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { 'access-token': token } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as never };
  };
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await Promise.race([
    until('server health', async () => (await fetch(`${url}/health`).catch(() => null))?.status === 200, 60_000, 250),
    exited.then(() => Promise.reject(new Error(`server exited: ${log}`))),
  ]);
  return {
    url,
    port,
    child,
    log: () => log,
    api,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function signIn(server: ServerProcess, username = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await server.api<{ token: string }>('POST', '/auth/access/login', { username, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
  return res.body.result.token;
}
