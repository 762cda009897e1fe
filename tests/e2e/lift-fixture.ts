import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LiftInfo, LiftListItem } from '@liftlink/protocol';
import { until } from '../../apps/server/test/support/ports.ts';
import { test as base, ADMIN, Api, expect, startOwnServer } from './fixtures.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The lift screens need lifts: a server of their own (one per Playwright worker) with four
 * simulated lifts speaking real MQTT to the embedded broker. DEMO-0001..4 are, in order,
 * inclined straight rack (2 floors), inclined 2-D rack (3), inclined 2-D sprocket (4),
 * inclined 3-D sprocket (2).
 *
 * HEARTBEAT_SECONDS is 15, not 6: an idle simulated lift sends a status every 10 s, so with
 * a shorter window every idle lift flaps offline and online between two statuses.
 */
export const HEARTBEAT_SECONDS = 15;

/** The API client (fixtures.ts) against a lift server, with the lift steps the tests use. */
export class LiftApi extends Api {
  /** Signed in as `username` on the server at `url`. */
  static async on(url: string, username: string, password: string): Promise<LiftApi> {
    return new LiftApi(url).signIn(username, password);
  }

  async lifts(): Promise<LiftListItem[]> {
    const res = await this.call<{ list: LiftListItem[] }>(
      'GET',
      '/auth/access/lift/get?pageSize=50',
    );
    return res.result.list;
  }

  async lift(deviceNo: string): Promise<LiftListItem> {
    const lift = (await this.lifts()).find((l) => l.deviceNo === deviceNo);
    if (!lift) throw new Error(`no lift ${deviceNo}`);
    return lift;
  }

  async info(liftId: string): Promise<LiftInfo> {
    const res = await this.call<LiftInfo>('POST', '/auth/access/lift/getInfo', { liftId });
    if (res.status !== 200) throw new Error(`getInfo: ${res.status} ${res.code}`);
    return res.result;
  }

  control(liftId: string, command: string, args: Record<string, unknown> = {}) {
    return this.call<{ state: string; reason: string | null }>(
      'POST',
      '/auth/access/lift/control',
      {
        liftId,
        command,
        args,
      },
    );
  }

  /** Writes a whole configuration (confirming a reconfiguration) and returns the answer's code. */
  async configure(liftId: string, patch: Record<string, unknown>): Promise<string> {
    const info = await this.info(liftId);
    const res = await this.call('POST', '/auth/access/lift/run/setting/update', {
      liftId,
      config: { ...info.config, ...patch },
      version: info.lift.configVersion,
      confirmReconfigure: true,
    });
    return res.code;
  }

  /** Waits until the lift's stored status satisfies `ok` (the simulator reports every second while it moves). */
  async waitForStatus(
    liftId: string,
    ok: (info: LiftInfo) => boolean,
    timeoutMs = 120_000,
  ): Promise<LiftInfo> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const info = await this.info(liftId);
      if (ok(info)) return info;
      if (Date.now() > deadline)
        throw new Error(`lift ${liftId} never reached the state: ${JSON.stringify(info.status)}`);
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
}

export interface MakerUser {
  id: string;
  username: string;
  password: string;
  name: string;
  orgId: string;
}

/** A user of a built-in role in the lifts' maker organization (served scope: the simulated and bench-registered lifts). */
export async function createMakerUser(admin: LiftApi, roleName: string, name: string): Promise<MakerUser> {
  const orgs = await admin.call<{ list: { id: string; kind: string }[] }>('GET', '/auth/access/system/orgs');
  const maker = orgs.result.list.find((o) => o.kind === 'manufacturer')!;
  const roles = await admin.call<{ list: { id: string; name: string }[] }>('GET', '/auth/access/system/roles');
  const role = roles.result.list.find((r) => r.name === roleName);
  if (!role) throw new Error(`no role ${roleName}`);
  const username = `${roleName.slice(0, 4)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const password = 'Tr1cky-Passw0rd-e2e';
  const created = await admin.call<{ id: string }>('POST', '/auth/access/system/users/create', { username, name, password, roleId: role.id, orgId: maker.id });
  if (created.status !== 200) throw new Error(`create ${roleName}: ${created.status} ${created.code}`);
  return { id: created.result.id, username, password, name, orgId: maker.id };
}

/** An operator of the lifts' maker (served scope): may control them, may not take control from another. */
export function createMakerOperator(admin: LiftApi, name: string): Promise<MakerUser> {
  return createMakerUser(admin, 'operator', name);
}

/**
 * An operator organization (installation windows in its own time zone) holding `liftIds`,
 * and an operator user of it: the lifts' operator, with no right on the maker's firmware.
 */
export async function createOperatorOf(admin: LiftApi, orgName: string, liftIds: string[], timeZone = 'Europe/Moscow'): Promise<{ username: string; password: string; orgId: string }> {
  const org = await admin.call<{ id: string }>('POST', '/auth/access/system/orgs/create', { name: orgName, kind: 'operator', timeZone });
  if (org.status !== 200) throw new Error(`create ${orgName}: ${org.status} ${org.code}`);
  if (liftIds.length > 0) {
    const assigned = await admin.call('POST', '/auth/access/system/orgs/assign-lifts', { orgId: org.result.id, liftIds });
    if (assigned.status !== 200) throw new Error(`assign lifts to ${orgName}: ${assigned.status} ${assigned.code}`);
  }
  const roles = await admin.call<{ list: { id: string; name: string }[] }>('GET', '/auth/access/system/roles');
  const role = roles.result.list.find((r) => r.name === 'operator')!;
  const username = `oper${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const password = 'Tr1cky-Passw0rd-e2e';
  const user = await admin.call('POST', '/auth/access/system/users/create', { username, name: 'Olga Operator', password, roleId: role.id, orgId: org.result.id });
  if (user.status !== 200) throw new Error(`create operator user: ${user.status} ${user.code}`);
  return { username, password, orgId: org.result.id };
}

/** A lift registered at the bench (in the maker's scope) and given broker credentials: its id, number, secret and broker. */
export async function registerBenchLift(admin: LiftApi, prefix: string): Promise<{ liftId: string; deviceNo: string; secret: string; mqttUrl: string }> {
  const deviceNo = `${prefix}-${Date.now().toString(36).toUpperCase()}`;
  const registered = await admin.call<{ liftId: string }>('POST', '/manufacture/lift/updateLiftIotInfo', {
    mode: 'assign',
    deviceNo,
    kind: 'inclinedStraightRack',
    floors: 2,
    firmware: '1.0.0',
    controllerSerial: `E2E-${deviceNo}`,
  });
  if (registered.status !== 200) throw new Error(`register ${deviceNo}: ${registered.status} ${registered.code}`);
  const liftId = registered.result.liftId;
  const issued = await admin.call<{ secret: string; mqttUrl: string }>('GET', `/manufacture/lift/getNewIot?liftId=${liftId}`);
  if (issued.status !== 200) throw new Error(`credentials ${deviceNo}: ${issued.status} ${issued.code}`);
  return { liftId, deviceNo, ...issued.result };
}

export interface LiftServer {
  url: string;
  admin: LiftApi;
  /**
   * Signals the simulator process: SIGSTOP / SIGCONT pause and resume it (every simulated
   * lift goes silent); SIGUSR2 presses the platform button of every simulated lift (local use).
   */
  signalSimulator(signal: 'SIGSTOP' | 'SIGCONT' | 'SIGUSR2'): void;
}

/** The server's child processes running the simulator (not its other children, which SIGUSR2 would end). */
function simulatorPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes('apps/simulator'))
      .map((line) => Number(line.trim().split(/\s+/)[0]))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/**
 * A private copy of the built client: apps/web/dist is shared, and another run's build
 * empties it for a while (the server would answer 404 to a page load meanwhile). WEB_DIST,
 * when set, names another build to copy (as it does for the server).
 */
async function copyWebClient(target: string): Promise<void> {
  const dist = process.env.WEB_DIST ?? path.join(root, 'apps/web/dist');
  for (let attempt = 0; attempt < 60; attempt++) {
    if (existsSync(path.join(dist, 'index.html'))) {
      try {
        cpSync(dist, target, { recursive: true });
        if (existsSync(path.join(target, 'index.html'))) return;
      } catch {
        // a build replaced files while they were copied: try again
      }
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(`${dist} has no built client (run the e2e global setup or vite build)`);
}

/** A server with four simulated lifts (DEMO-0001..4), online, and its stop. */
export async function startLiftServer(): Promise<{ server: LiftServer; stop: () => Promise<void> }> {
  const webDist = path.join(mkdtempSync(path.join(tmpdir(), 'liftlink-e2e-web-')), 'web');
  await copyWebClient(webDist);
  const process_ = await startOwnServer({
    SIMULATOR: '4',
    HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
    // Lifts as they come from the factory: the tests count what they make happen, so no
    // 30-day demo history and no demo fault (both have their integration test).
    DEMO_HISTORY_DAYS: '0',
    DEMO_FAULT_SECONDS: '0',
    // No calls on site at random: each would end a remote control lease in the middle of a test.
    DEMO_LOCAL_CALLS_PER_HOUR: '0',
    // Escalation steps are minutes; the job looks every second so a step is seen when due.
    ESCALATION_POLL_MS: '1000',
    // Firmware campaigns move on every second, so a stage starts as soon as the one before ended.
    FIRMWARE_CAMPAIGN_POLL_MS: '1000',
    WEB_DIST: webDist,
  });
  const { url, child } = process_;
  const stop = async () => {
    await process_.stop();
    rmSync(path.dirname(webDist), { recursive: true, force: true });
  };
  try {
    const admin = await LiftApi.on(url, ADMIN.username, ADMIN.password);
    await until(
      'the simulated lifts online',
      async () => {
        const lifts = await admin.lifts();
        return lifts.length === 4 && lifts.every((l) => l.online);
      },
      150_000,
      500,
    );
    const signalSimulator = (signal: 'SIGSTOP' | 'SIGCONT' | 'SIGUSR2') => {
      const pids = simulatorPids(child.pid!);
      if (pids.length === 0) throw new Error('no simulator process');
      for (const pid of pids) process.kill(pid, signal);
    };
    return { server: { url, admin, signalSimulator }, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A worker fixture: a lift server started once per worker, stopped at its end. */
export const liftServerFixture: [(args: object, use: (server: LiftServer) => Promise<void>) => Promise<void>, { scope: 'worker'; timeout: number }] = [
  // Playwright's fixture signature needs the (empty) destructuring.
  // eslint-disable-next-line no-empty-pattern
  async ({}, use: (server: LiftServer) => Promise<void>) => {
    const { server, stop } = await startLiftServer();
    try {
      await use(server);
    } finally {
      await stop();
    }
  },
  { scope: 'worker', timeout: 180_000 },
];

/** Tests of the lift screens: `liftServer` is started once per worker; pages open on it. */
export const test = base.extend<object, { liftServer: LiftServer }>({
  liftServer: liftServerFixture,
  baseURL: async ({ liftServer }, use) => use(liftServer.url),
});

export { expect, ADMIN };
