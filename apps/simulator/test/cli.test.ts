import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { liftTopic } from '@liftlink/protocol';
import { Observer, startBroker, waitFor } from './harness.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function simulator(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (b: Buffer) => (out.stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out.stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out, exited };
}

describe('simulator process', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const kill = (child: ChildProcessWithoutNullStreams) => () => Promise.resolve(child.exitCode === null && child.kill('SIGKILL'));

  it('--count: prints one ready line on stdout, lifts come online, SIGTERM says offline and exits 0', async () => {
    const broker = await startBroker();
    cleanups.push(() => broker.close());
    const observer = await Observer.connect(broker.url);
    cleanups.push(() => observer.close());
    const sim = simulator(['--count', '3', '--mqtt', broker.url, '--fault-rate', '0', '--activity', '0']);
    cleanups.push(kill(sim.child));
    await waitFor(() => sim.out.stdout.includes('\n'), 20_000, 'ready line');
    expect(JSON.parse(sim.out.stdout)).toEqual({ ready: true, count: 3 });
    await waitFor(() => observer.of('presence').filter((p) => p.online).length === 3, 5_000, 'online presences');
    expect(new Set(observer.messages.map((m) => m.deviceNo))).toEqual(new Set(['SIM-0001', 'SIM-0002', 'SIM-0003']));
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
    await waitFor(() => observer.of('presence').filter((p) => !p.online).length === 3, 5_000, 'offline presences');
    expect(sim.out.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('SIGUSR2: someone on site presses the platform button of every lift (RZLB); they refuse remote movement, the process runs on', async () => {
    const broker = await startBroker();
    cleanups.push(() => broker.close());
    const observer = await Observer.connect(broker.url);
    cleanups.push(() => observer.close());
    const sim = simulator(['--count', '2', '--mqtt', broker.url, '--fault-rate', '0', '--activity', '0']);
    cleanups.push(kill(sim.child));
    await waitFor(() => sim.out.stdout.includes('\n'), 20_000, 'ready line');
    await waitFor(() => observer.of('presence').filter((p) => p.online).length === 2, 5_000, 'online presences');
    const summon = async (commandId: string) => {
      const lease = { epoch: 1, holder: 'Operator' };
      await observer.send(liftTopic('SIM-0001', 'cmd'), { commandId, name: 'summon', args: { floor: 1 }, expiresAt: new Date(Date.now() + 15_000).toISOString(), lease });
      const ack = await waitFor(() => observer.of('cmd/ack', 'SIM-0001').find((a) => a.commandId === commandId), 5_000, `answer to ${commandId}`);
      return [ack.state, ack.reason].filter(Boolean).join(':');
    };
    expect(await summon('before')).toBe('accepted');
    expect(observer.of('event').some((e) => e.code === 'RZLB')).toBe(false);
    sim.child.kill('SIGUSR2');
    for (const no of ['SIM-0001', 'SIM-0002']) await waitFor(() => observer.of('event', no).some((e) => e.code === 'RZLB'), 5_000, `RZLB of ${no}`);
    expect(await summon('after')).toBe('rejected:localControl');
    expect(sim.child.exitCode).toBeNull();
    expect(sim.out.stderr).toMatch(/SIGUSR2, pressed the platform button of 2 lifts/);
    sim.child.kill('SIGTERM');
    expect(await sim.exited).toBe(0);
  });

  it('--fleet-stdin: takes lifts with secrets from stdin (embedded mode)', async () => {
    const broker = await startBroker({ 'LL-0001': 'alpha-secret', 'LL-0002': 'beta-secret' });
    cleanups.push(() => broker.close());
    const sim = simulator(['--fleet-stdin', '--mqtt', broker.url, '--fault-rate', '0']);
    cleanups.push(kill(sim.child));
    sim.child.stdin.end(
      JSON.stringify([
        { deviceNo: 'LL-0001', secret: 'alpha-secret', kind: 'inclined3dSprocket', floors: 4 },
        { deviceNo: 'LL-0002', secret: 'beta-secret', kind: 'verticalHydraulic', floors: 2 },
      ]),
    );
    await waitFor(() => sim.out.stdout.includes('\n'), 20_000, 'ready line');
    expect(JSON.parse(sim.out.stdout)).toEqual({ ready: true, count: 2 });
    expect(broker.broker.connectedClients).toBe(2);
    sim.child.kill('SIGINT');
    expect(await sim.exited).toBe(0);
  });

  it('--fleet-stdin: stops by itself when the server that fed it dies', async () => {
    const broker = await startBroker({ 'LL-0001': 'alpha-secret' });
    cleanups.push(() => broker.close());
    // A stand-in for the server: a process that starts the simulator, prints its pid and
    // is then killed without a chance to stop it.
    const fleet = JSON.stringify([{ deviceNo: 'LL-0001', secret: 'alpha-secret', kind: 'inclinedStraightRack', floors: 2 }]);
    const script = `
      const { spawn } = require('node:child_process');
      const sim = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(MAIN)}, '--fleet-stdin', '--mqtt', ${JSON.stringify(broker.url)}, '--fault-rate', '0'], { stdio: ['pipe', 'ignore', 'ignore'] });
      sim.stdin.end(${JSON.stringify(fleet)});
      console.log(sim.pid);
      setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => Promise.resolve(parent.exitCode === null && parent.kill('SIGKILL')));
    let out = '';
    parent.stdout.on('data', (b: Buffer) => (out += b.toString()));
    await waitFor(() => out.includes('\n'), 10_000, 'simulator pid');
    const simPid = Number(out.trim());
    const alive = () => {
      try {
        process.kill(simPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    cleanups.push(() => Promise.resolve(alive() && process.kill(simPid, 'SIGKILL')));
    await waitFor(() => broker.broker.connectedClients === 1, 20_000, 'the lift connected');
    parent.kill('SIGKILL');
    await waitFor(() => !alive(), 10_000, 'the orphaned simulator stopped');
  });

  it('exits 1 with a message on a bad fleet', async () => {
    const sim = simulator(['--fleet-stdin', '--mqtt', 'mqtt://127.0.0.1:1']);
    cleanups.push(kill(sim.child));
    sim.child.stdin.end('[{"deviceNo":"x","kind":"boat","floors":9}]');
    expect(await sim.exited).toBe(1);
    expect(sim.out.stdout).toBe('');
    expect(sim.out.stderr).toMatch(/fleet JSON is not valid/);
  });
});
