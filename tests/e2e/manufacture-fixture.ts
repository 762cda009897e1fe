import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function until(what: string, probe: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A child process with its output kept for the failure message. */
class Proc {
  out = '';
  constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (b: Buffer) => (this.out += b.toString()));
    child.stderr?.on('data', (b: Buffer) => (this.out += b.toString()));
  }
  async waitFor(text: string, ms = 30_000): Promise<void> {
    await until(
      `"${text}" in:\n${this.out}`,
      () => this.out.includes(text) || this.child.exitCode !== null,
      ms,
    );
    if (!this.out.includes(text))
      throw new Error(`exited with ${this.child.exitCode}:\n${this.out}`);
  }
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * The factory bench on one machine: socat pseudo-terminal pairs for the cables, simulated
 * controllers on one end (`--serial`), and the serial bridge offering the other ends to
 * the web page. Every process is stopped by `close()`.
 */
export class Bench {
  readonly dir = mkdtempSync(path.join(tmpdir(), 'liftlink-bench-'));
  private readonly procs: Proc[] = [];

  /** A cable: bytes written to `controller` come out of `pc`, and back. */
  async cable(
    name: string,
  ): Promise<{ controller: string; pc: string; stop: () => Promise<void> }> {
    const controller = path.join(this.dir, `${name}-controller`);
    const pc = path.join(this.dir, `${name}-pc`);
    const proc = new Proc(
      spawn('socat', [`pty,raw,echo=0,link=${controller}`, `pty,raw,echo=0,link=${pc}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    this.procs.push(proc);
    await until('socat ptys', () => existsSync(controller) && existsSync(pc), 10_000);
    return { controller, pc, stop: () => proc.stop() };
  }

  /** A simulated controller (`npm run simulator -- --serial PATH`); its flash is a state file in the bench folder. */
  async controller(
    portPath: string,
    controllerSerial: string,
    kind = 'inclinedStraightRack',
    floors = 2,
  ): Promise<{ stateFile: string; stop: () => Promise<void> }> {
    const stateFile = path.join(this.dir, `${controllerSerial}.json`);
    const proc = new Proc(
      spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'apps/simulator/src/main.ts',
          '--serial',
          portPath,
          '--state',
          stateFile,
          '--controller-serial',
          controllerSerial,
          '--kind',
          kind,
          '--floors',
          String(floors),
        ],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      ),
    );
    this.procs.push(proc);
    await proc.waitFor('"ready":true');
    return { stateFile, stop: () => proc.stop() };
  }

  /** The serial bridge for `serverUrl`'s pages on a free loopback port; `pair(code)` types a code into it. */
  async bridge(
    serverUrl: string,
    extraPorts: string[],
  ): Promise<{ port: number; pair: (code: string) => Promise<void>; stop: () => Promise<void> }> {
    const proc = new Proc(
      spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          'apps/serial-bridge/src/main.ts',
          '--server',
          serverUrl,
          '--port',
          '0',
          '--state',
          path.join(this.dir, 'bridge.json'),
          ...extraPorts.flatMap((p) => ['--extra-port', p]),
        ],
        { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
      ),
    );
    this.procs.push(proc);
    await proc.waitFor('listening on ws://127.0.0.1:');
    const port = Number(/listening on ws:\/\/127\.0\.0\.1:(\d+)/.exec(proc.out)![1]);
    return {
      port,
      pair: async (code) => {
        proc.child.stdin!.write(`${code}\n`);
        await proc.waitFor(' verified for ');
      },
      stop: () => proc.stop(),
    };
  }

  async close(): Promise<void> {
    for (const proc of this.procs.reverse()) await proc.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
