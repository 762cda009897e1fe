import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { openPostgres, type Database } from '../src/db/client.ts';
import { mosquittoMissing, startMosquitto, type PrivateMosquitto } from './support/mosquitto.ts';
import { skipWithout } from './support/required.ts';
import { createDatabase, privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from './support/postgres.ts';
import { signIn, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { provisionLifts, type ProvisionedLift } from './support/fleet.ts';
import { brokerAdminFor } from './support/broker-admin.ts';
import { connectLift, publishEvent } from './support/lift-client.ts';
import { openLiveSocket } from './support/live-socket.ts';
import { until } from './support/ports.ts';
import { ADMIN_PASSWORD } from './helpers.ts';

/**
 * Production layout in miniature: two server processes sharing one PostgreSQL and one
 * Mosquitto (dynamic security), with a simulated demo fleet and bare lift connections.
 */
let addressCounter = 0;
/**
 * A client at an address of its own (the servers trust X-Forwarded-For, as behind a proxy):
 * each test spends its own rate-limit and sign-in budget, never another's.
 */
function clientAtOwnAddress() {
  addressCounter += 1;
  const address = `10.77.${addressCounter >> 8}.${addressCounter & 255}`;
  const api = async <T = any>(server: ServerProcess, method: 'GET' | 'POST', route: string, body?: unknown, token?: string) => {
    const res = await fetch(server.url + route, {
      method,
      headers: { 'x-forwarded-for': address, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { 'access-token': token } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as { success: boolean; code: string; msg: string; result: T } };
  };
  const signIn = async (server: ServerProcess, username = 'admin', password = ADMIN_PASSWORD) => {
    const res = await api<{ token: string }>(server, 'POST', '/auth/access/login', { username, password });
    if (res.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(res.body)}`);
    return res.body.result.token;
  };
  return { address, api, signIn };
}

const skip = skipWithout('Mosquitto and PostgreSQL', mosquittoMissing ?? (process.env.TEST_DATABASE_URL ? null : privatePostgresMissing));

describe.skipIf(skip)('two server instances on one PostgreSQL and one Mosquitto', () => {
  let broker: PrivateMosquitto;
  let privatePg: PrivatePostgres | undefined;
  let db: { url: string; drop: () => Promise<void> };
  let database: Database;
  let one: ServerProcess;
  let two: ServerProcess;
  let token: string;
  let bare: ProvisionedLift[];
  const lifts: MqttClient[] = [];
  let demoId: string;

  beforeAll(async () => {
    broker = await startMosquitto();
    let adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) {
      privatePg = await startPrivatePostgres();
      adminUrl = privatePg.url;
    }
    db = await createDatabase(adminUrl);
    const env = { ...broker.env, DATABASE_URL: db.url, HEARTBEAT_SECONDS: '20', COMMAND_WAIT_MS: '60000', RATE_LIMIT_MAX: '400', TRUST_PROXY: 'true' };
    // Instance one migrates the database and runs the demo fleet (registered with Mosquitto through app.brokerAdmin).
    // No calls on site: each is local use, which ends the lease a summon runs under and pauses remote control.
    one = await startServerProcess({ ...env, INSTANCE_ID: 'one', SIMULATOR: '2', DEMO_LOCAL_CALLS_PER_HOUR: '0' });
    two = await startServerProcess({ ...env, INSTANCE_ID: 'two' });
    database = await openPostgres(db.url);
    const registrar = await brokerAdminFor(broker);
    bare = await provisionLifts(database.sql, 'TWO', 4);
    for (const l of bare) await registrar.admin.setDeviceCredential(l.deviceNo, l.secret);
    await registrar.close();
    token = await signIn(one);
    const [demo] = await database.sql.query<{ id: string }>(`select id from lifts where device_no = 'DEMO-0001'`);
    demoId = demo!.id;
    await until('demo lift online', async () => (await one.api('POST', '/auth/access/lift/getInfo', { liftId: demoId }, token)).body.result?.lift.online === true, 60_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(lifts.map((l) => l.endAsync(true).catch(() => {})));
    await one?.stop();
    await two?.stop();
    await database?.close();
    await db?.drop().catch(() => {});
    await privatePg?.destroy();
    await broker?.destroy();
  });

  it('stores each lift message exactly once, whichever instance takes it, and shows it once to a browser on each', async () => {
    const perLift = 300;
    const ids = bare.map((l) => l.id);
    const sockets: Awaited<ReturnType<typeof openLiveSocket>>[] = [];
    for (const server of [one, two]) {
      const socket = await openLiveSocket(server.url, token);
      await socket.next('ready', (m) => m.type === 'ready');
      socket.send({ type: 'subscribe', liftIds: ids });
      await socket.next('subscribed', (m) => m.type === 'subscribed' && m.liftIds.length === ids.length);
      sockets.push(socket);
    }
    await Promise.all(
      bare.map(async (lift) => {
        const c = await connectLift(broker.url, lift.deviceNo, lift.secret);
        lifts.push(c);
        await Promise.all(Array.from({ length: perLift }, (_, i) => publishEvent(c, lift.deviceNo, 10_000 + i, 'RZGU')));
      }),
    );
    await until(
      'all events stored',
      async () => Number((await database.sql.query<{ n: string }>('select count(*) as n from lift_events where lift_id = any($1::uuid[]) and seq > 0', [ids]))[0]!.n) === bare.length * perLift,
      60_000,
    );
    // Each event is a trip start: a message handled twice would count its trip twice. The
    // lift's coming online is written once too, by whichever instance saw it first.
    const rows = await database.sql.query<{ device_no: string; trips_total: string; events: string; online: string }>(
      `select l.device_no, l.trips_total, (select count(*) from lift_events e where e.lift_id = l.id and e.seq > 0) as events,
              (select count(*) from lift_events e where e.lift_id = l.id and e.code = 'ONLINE') as online from lifts l where l.id = any($1::uuid[]) order by l.device_no`,
      [ids],
    );
    expect(rows.map((r) => [r.device_no, Number(r.trips_total), Number(r.events), Number(r.online)])).toEqual(bare.map((l) => [l.deviceNo, perLift, perLift, 1]));
    // Each instance stored about half and heard the rest from the other: every browser has
    // every entry once, those stored by its own instance included.
    const expected = bare.flatMap((l) => Array.from({ length: perLift }, (_, i) => `${l.id}:${10_000 + i}`)).sort();
    const shown = (socket: (typeof sockets)[number]) =>
      socket.messages.filter((m) => m.type === 'event' && m.seq > 0).map((m) => `${m.liftId}:${m.seq}`).sort();
    for (const socket of sockets) {
      await until('every entry live', () => shown(socket).length >= expected.length, 15_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(shown(socket)).toEqual(expected);
      socket.close();
    }
  }, 90_000);

  it('shows a browser on instance one the live changes of a command sent through instance two, and answers on instance two', async () => {
    const c = clientAtOwnAddress();
    const token = await c.signIn(one);
    const live = await openLiveSocket(one.url, token);
    await live.next('ready', (m) => m.type === 'ready');
    live.send({ type: 'subscribe', liftIds: [demoId] });
    await live.next('subscribed', (m) => m.type === 'subscribed' && m.liftIds.includes(demoId));
    const tokenTwo = await c.signIn(two);
    const info = (await c.api(two, 'POST', '/auth/access/lift/getInfo', { liftId: demoId }, tokenTwo)).body.result;
    const target = info.lift.floor === 2 ? 1 : 2;
    // COMMAND_WAIT_MS is 60 s: only the live bus (the answer may be ingested by instance one) ends the wait in time.
    const res = await c.api(two, 'POST', '/auth/access/lift/control', { liftId: demoId, command: 'summon', args: { floor: target } }, tokenTwo);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(['accepted', 'done']).toContain(res.body.result.state);
    const commandId = res.body.result.commandId;
    await live.next('command accepted', (m) => m.type === 'command' && m.commandId === commandId && m.state === 'accepted');
    await live.next(`RZY${target}`, (m) => m.type === 'event' && m.liftId === demoId && m.code === `RZY${target}`);
    await live.next('status while moving', (m) => m.type === 'status' && m.liftId === demoId && m.status.targetFloor === target);
    await live.next(`RZD${target}`, (m) => m.type === 'event' && m.liftId === demoId && m.code === `RZD${target}`, 90_000);
    await live.next('command done', (m) => m.type === 'command' && m.commandId === commandId && m.state === 'done');
    live.close();

    // More answers through both instances: every one reaches the instance whose request waits.
    for (const [server, t] of [[one, token], [two, tokenTwo], [one, token], [two, tokenTwo]] as const) {
      for (const on of [true, false]) {
        const r = await c.api(server, 'POST', '/auth/access/lift/control', { liftId: demoId, command: 'lock', args: { on } }, t);
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.result.state).toBe('done');
      }
    }
  }, 120_000);

  it('shares sessions: signed in on one, used and signed out on two, refused on one', async () => {
    const c = clientAtOwnAddress();
    const t = await c.signIn(one);
    expect((await c.api(two, 'GET', '/auth/access/info', undefined, t)).status).toBe(200);
    expect((await c.api(two, 'POST', '/auth/access/logout', {}, t)).status).toBe(200);
    expect((await c.api(one, 'GET', '/auth/access/info', undefined, t)).status).toBe(401);
  });

  it('shares the sign-in throttle: failures on both instances add up', async () => {
    // An account of its own, blocked here and nowhere else.
    const c = clientAtOwnAddress();
    const roles = await c.api<{ list: { id: string; name: string }[] }>(one, 'GET', '/auth/access/system/roles', undefined, token);
    const username = `throttled-${addressCounter}`;
    const password = 'Throttled-Pass-8317';
    const created = await c.api(one, 'POST', '/auth/access/system/users/create', { username, name: username, password, roleId: roles.body.result.list.find((r) => r.name === 'viewer')!.id }, token);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const attempt = (server: ServerProcess) => c.api(server, 'POST', '/auth/access/login', { username, password: 'wrong-password-1' });
    for (const server of [one, two, one, two, one]) expect((await attempt(server)).status).toBe(401);
    // The sixth failure, on the other instance, blocks the account everywhere.
    await attempt(two);
    const blocked = await attempt(one);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('auth.tooManyAttempts');
    expect((await c.api(two, 'POST', '/auth/access/login', { username, password })).status).toBe(429);
  });

  it('shares the global rate limit: requests to both instances count together', async () => {
    const { address } = clientAtOwnAddress();
    const hit = (server: ServerProcess) => fetch(`${server.url}/auth/public/site`, { headers: { 'x-forwarded-for': address } }).then((r) => r.status);
    // 400 a minute per address, this test's own: spend it all on both instances.
    const statuses: number[] = [];
    for (let i = 0; i < 210; i++) statuses.push(await hit(one), await hit(two));
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(400);
    // Another address still has its budget: the limit is per client.
    expect((await clientAtOwnAddress().api(two, 'GET', '/auth/public/site')).status).toBe(200);
    expect(statuses.slice(-2)).toEqual([429, 429]);
    // Instance two alone has seen about 210: it refuses only because the counts are shared.
    expect(statuses.filter((s, i) => i % 2 === 1 && s === 200).length).toBeLessThan(210);
  }, 60_000);
});
