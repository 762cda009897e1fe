import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { liftTopic } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe.each(DB_KINDS)('lifts on the wire on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator>;
  let stopped: ReturnType<typeof spawnSimulator> | undefined;
  let brokerUrl: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '15', COMMAND_WAIT_MS: '3000' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    // Five lifts provisioned; two simulated for every test, the third never connects, the
    // fourth gets a simulator of its own to stop, the fifth's credentials are the intruder's.
    fleet = await ensureDemoFleet(t.database.sql, 5);
    brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    // No calls on site: each is local use, which ends the lease a summon runs under and pauses remote control.
    sim = spawnSimulator(fleet.slice(0, 2), brokerUrl, () => {}, ['--activity', '0']);
    await sim.ready;
    const list = body(await admin.get('/auth/access/lift/get')).result.list;
    for (const l of list) ids[l.deviceNo] = l.id;
  }, 90_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    stopped?.child.kill('SIGTERM');
    await t.close();
  });

  it('shows the simulated lifts online with their fields', async () => {
    const list = await until('lifts online', async () => {
      const res = body(await admin.get('/auth/access/lift/get?sort=deviceNo')).result;
      return res.list.slice(0, 2).every((l: any) => l.online && l.mode) && res.list;
    });
    expect(list.slice(0, 3).map((l: any) => [l.deviceNo, l.online])).toEqual([['DEMO-0001', true], ['DEMO-0002', true], ['DEMO-0003', false]]);
    expect(list[0]).toMatchObject({ kind: 'inclinedStraightRack', floors: 2, floor: 1, mode: 'standby', activeFault: null });
    const filtered = body(await admin.get('/auth/access/lift/get?kind=inclined2dRack')).result;
    expect(filtered.list.map((l: any) => l.deviceNo)).toEqual(['DEMO-0002']);
  });

  it('summon floor 2: the lift reports RZY2 then RZD2 in its run log, with text in the caller language', async () => {
    const liftId = ids['DEMO-0001']!;
    const res = await admin.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 2 } });
    expect(res.statusCode).toBe(200);
    expect(['accepted', 'done']).toContain(body(res).result.state);
    const log = await until(
      'RZD2',
      async () => {
        const entries = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&pageSize=50&lang=en-US`)).result.list;
        return entries.some((e: any) => e.code === 'RZD2') && entries;
      },
      120_000,
    );
    const codes = log.map((e: any) => e.code).reverse();
    expect(codes.indexOf('RZY2')).toBeGreaterThanOrEqual(0);
    expect(codes.indexOf('RZY2')).toBeLessThan(codes.indexOf('RZD2'));
    expect(log.find((e: any) => e.code === 'RZY2').text).toMatch(/floor 2/i);
    const ru = body(await admin.get(`/auth/access/lift/run/logs/get?liftId=${liftId}&codes=RZD2&lang=ru-RU`)).result;
    expect(ru.total).toBe(1);
    expect(ru.list[0].text).toMatch(/2/);
    const info = body(await admin.post('/auth/access/lift/getInfo', { liftId })).result;
    expect(info.lift.floor).toBe(2);
    expect(info.stats.tripsTotal).toBeGreaterThanOrEqual(1);
    expect(info.status.platform).toHaveProperty('voltage');
    const commands = body(await admin.get(`/auth/access/lift/commands?liftId=${liftId}`)).result.list;
    expect(commands[0]).toMatchObject({ name: 'summon', state: 'done' });
  }, 150_000);

  it('refuses bad command arguments with 400 before anything reaches the lift', async () => {
    const liftId = ids['DEMO-0001']!;
    const before = await t.database.sql.query('select count(*) as n from lift_commands');
    const tooHigh = await admin.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 3 } });
    expect(tooHigh.statusCode).toBe(400);
    const unknown = await admin.post('/auth/access/lift/control', { liftId, command: 'fly', args: {} });
    expect(unknown.statusCode).toBe(400);
    expect(await t.database.sql.query('select count(*) as n from lift_commands')).toEqual(before);
  });

  it('passes the lift refusal reason to the user', async () => {
    const liftId = ids['DEMO-0002']!;
    const locked = await admin.post('/auth/access/lift/control', { liftId, command: 'lock', args: { on: true } });
    expect(locked.statusCode, locked.body).toBe(200);
    const refused = await admin.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 2 } });
    expect(refused.statusCode).toBe(409);
    expect(body(refused).result).toMatchObject({ state: 'rejected', reason: 'lockout' });
    expect(body(refused).result.reasonText).toBe('设备处于锁定状态');
    await admin.post('/auth/access/lift/control', { liftId, command: 'lock', args: { on: false } });
    const audit = await t.database.sql.query<{ result: string }>(`select result from audit_log where action = 'lift.command' and lift_id = $1`, [liftId]);
    expect(audit.map((a) => a.result)).toContain('rejected');
  });

  it('reads the configuration from the lift and writes a change that is read back, logged with before and after', async () => {
    const liftId = ids['DEMO-0002']!;
    const read = body(await admin.post('/auth/access/lift/config/read', { liftId })).result;
    expect(read.state, JSON.stringify(read)).toBe('done');
    // A lift fresh from the factory reports version 0: never configured, so no confirmation is asked.
    expect(read.version).toBe(0);
    const first = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: { ...read.config, stopDecelMs: 1400 }, version: 0 });
    expect(first.statusCode, first.body).toBe(200);
    const configured = await until('config report', async () => {
      const info = body(await admin.post('/auth/access/lift/getInfo', { liftId })).result;
      return info.lift.configVersion > 0 && info;
    });
    const current = configured.config;
    const next = { ...current, stopDecelMs: 1600 };
    const noConfirm = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: next, version: configured.lift.configVersion });
    expect(noConfirm.statusCode).toBe(409);
    expect(body(noConfirm).code).toBe('config.reconfigure');
    const res = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: next, version: configured.lift.configVersion, confirmReconfigure: true });
    expect(res.statusCode, res.body).toBe(200);
    const after = await until('second config report', async () => {
      const info = body(await admin.post('/auth/access/lift/getInfo', { liftId })).result;
      return info.lift.configVersion > configured.lift.configVersion && info;
    });
    expect(after.config.stopDecelMs).toBe(1600);
    const read2 = body(await admin.post('/auth/access/lift/config/read', { liftId })).result;
    expect(read2.config.stopDecelMs).toBe(1600);
    const logs = body(await admin.get(`/auth/access/lift/config/logs?liftId=${liftId}`)).result.list;
    expect(logs[0]).toMatchObject({ username: 'admin', source: 'cloud' });
    expect(logs[0].before.stopDecelMs).toBe(current.stopDecelMs);
    expect(logs[0].after.stopDecelMs).toBe(next.stopDecelMs);
    const stale = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: next, version: configured.lift.configVersion, confirmReconfigure: true });
    expect(body(stale).code).toBe('config.versionConflict');
  }, 60_000);

  it('refuses an invalid configuration with field messages and sends nothing', async () => {
    const liftId = ids['DEMO-0002']!;
    const read = body(await admin.post('/auth/access/lift/config/read', { liftId })).result;
    expect(read.state, JSON.stringify(read)).toBe('done');
    const info = { config: read.config, lift: { configVersion: read.version } };
    const before = await t.database.sql.query('select count(*) as n from lift_commands where lift_id = $1', [liftId]);
    const moved = { ...info.config, parkingMemory2: info.config.parkingMemory2 + 501 };
    const res = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: moved, version: info.lift.configVersion, confirmReconfigure: true });
    expect(res.statusCode).toBe(400);
    expect(body(res).result.issues).toContainEqual({ path: 'config.parkingMemory2', message: 'validation.positionRange', params: { tolerance: 500 } });
    const tooLow = { ...info.config, parkingMemory1: 100 };
    const low = await admin.post('/auth/access/lift/run/setting/update', { liftId, config: tooLow, version: info.lift.configVersion, confirmReconfigure: true });
    expect(body(low).result.issues.map((i: any) => i.message)).toContain('validation.minConfigured');
    expect(await t.database.sql.query('select count(*) as n from lift_commands where lift_id = $1', [liftId])).toEqual(before);
  });

  it('keeps other organizations out: their lift is not found, and a viewer cannot command', async () => {
    const liftId = ids['DEMO-0001']!;
    const op = body(await admin.post('/auth/access/system/orgs/create', { name: `Operator ${kind}`, kind: 'operator' })).result;
    const adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    const operator = await userWithRole(t, adminToken, 'operator', undefined, op.id);
    const opApi = client(t.app, operator.token);
    expect(body(await opApi.get('/auth/access/lift/get')).result.total).toBe(0);
    expect((await opApi.post('/auth/access/lift/getInfo', { liftId })).statusCode).toBe(404);
    expect((await opApi.post('/auth/access/lift/control', { liftId, command: 'pause', args: {} })).statusCode).toBe(404);
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: [liftId] });
    expect(body(await opApi.get('/auth/access/lift/get')).result.list.map((l: any) => l.id)).toEqual([liftId]);
    const viewer = await userWithRole(t, adminToken, 'viewer', undefined, op.id);
    const res = await client(t.app, viewer.token).post('/auth/access/lift/control', { liftId, command: 'pause', args: {} });
    expect(res.statusCode).toBe(403);
  });

  it('lets a lift publish and subscribe only under its own topics, wildcards included', async () => {
    const [, b, , , c] = fleet as [DemoLift, DemoLift, DemoLift, DemoLift, DemoLift];
    const spy = await mqtt.connectAsync(brokerUrl, { clientId: b.deviceNo + '-x', username: 'liftlink-server', password: 'wrong', reconnectPeriod: 0 }).catch((e: Error) => e);
    expect(spy).toBeInstanceOf(Error);
    // An intruder with lift C's own credentials (the client id must equal the device number).
    const intruder = await mqtt.connectAsync(brokerUrl, { clientId: c.deviceNo, username: c.deviceNo, password: c.secret, reconnectPeriod: 0, clean: true });
    const got: string[] = [];
    intruder.on('message', (topic) => got.push(topic));
    for (const filter of [liftTopic(b.deviceNo, 'cmd'), 'lifts/+/cmd', 'lifts/#', '#', liftTopic(b.deviceNo, 'status'), 'liftlink-live/#']) {
      // The broker answers a refused subscription with return code 128, which MQTT.js raises.
      await expect(intruder.subscribeAsync(filter), filter).rejects.toThrow();
    }
    // A command to B goes out (B answers it), then a marker to the intruder's own command
    // topic: a leaked command to B would have reached the intruder before the marker.
    await intruder.subscribeAsync(liftTopic(c.deviceNo, 'cmd'), { qos: 1 });
    const command = await admin.post('/auth/access/lift/control', { liftId: ids[b.deviceNo], command: 'test', args: { item: 'keyLights' } });
    expect(command.statusCode, command.body).toBe(200);
    await t.app.mqtt.publishAsync(liftTopic(c.deviceNo, 'cmd'), '{"marker":true}', { qos: 1 });
    await until('the marker', async () => got.length > 0, 10_000);
    expect(got).toEqual([liftTopic(c.deviceNo, 'cmd')]);
    // Publishing under another lift's topic is refused and the broker drops the connection.
    const closed = new Promise<void>((r) => intruder.once('close', () => r()));
    intruder.publish(liftTopic(b.deviceNo, 'event'), JSON.stringify({ seq: 9e15, ts: new Date().toISOString(), code: 'EA' }), { qos: 1 });
    await closed;
    await intruder.endAsync(true).catch(() => {});
    // The marker for storage: an event of its own, acknowledged once stored, after the forged one.
    const again = await mqtt.connectAsync(brokerUrl, { clientId: c.deviceNo, username: c.deviceNo, password: c.secret, reconnectPeriod: 0, clean: true });
    await again.publishAsync(liftTopic(c.deviceNo, 'event'), JSON.stringify({ seq: 9e15, ts: new Date().toISOString(), code: 'EA' }), { qos: 1 });
    await until('the marker event', async () => (await t.database.sql.query('select id from lift_events where lift_id = $1 and seq = $2', [ids[c.deviceNo], 9e15])).length === 1, 10_000);
    await again.endAsync(true).catch(() => {});
    expect(await t.database.sql.query('select id from lift_events where lift_id = $1 and seq = $2', [ids[b.deviceNo], 9e15])).toEqual([]);
    const wrongSecret = await mqtt.connectAsync(brokerUrl, { clientId: b.deviceNo, username: b.deviceNo, password: 'not-the-secret', reconnectPeriod: 0 }).catch((e: Error) => e);
    expect(wrongSecret).toBeInstanceOf(Error);
  });

  it('drops and counts malformed uplink messages without storing them or stopping ingest', async () => {
    const before = t.app.ingest.stats();
    await t.app.ingest.handle('lifts/DEMO-0001/event', '{not json');
    await t.app.ingest.handle('lifts/DEMO-0001/event', JSON.stringify({ seq: 1, ts: 'yesterday', code: 'RZZZ' }));
    await t.app.ingest.handle('lifts/DEMO-0001/status', 'x'.repeat(20_000));
    await t.app.ingest.handle('elsewhere/DEMO-0001/event', '{}');
    const after = t.app.ingest.stats();
    expect(after.drops.json).toBe(before.drops.json + 1);
    expect(after.drops.schema).toBe(before.drops.schema + 1);
    expect(after.drops.tooLarge).toBe(before.drops.tooLarge + 1);
    expect(after.drops.topic).toBe(before.drops.topic + 1);
  });

  it('stores a redelivered message once (idempotent on device and seq)', async () => {
    const msg = JSON.stringify({ seq: 8_000_000_000_000, ts: new Date().toISOString(), code: 'EC' });
    await Promise.all([t.app.ingest.handle('lifts/DEMO-0002/event', msg), t.app.ingest.handle('lifts/DEMO-0002/event', msg)]);
    await t.app.ingest.handle('lifts/DEMO-0002/event', msg);
    const rows = await t.database.sql.query('select id from lift_events where lift_id = $1 and seq = $2', [ids['DEMO-0002'], 8_000_000_000_000]);
    expect(rows).toHaveLength(1);

    // The redelivery arriving in one batch with a new message: the new one is stored, the
    // old one not again, and the run log's ordinals stay without a gap (pages stay full).
    const fresh = JSON.stringify({ seq: 8_000_000_000_001, ts: new Date().toISOString(), code: 'EC' });
    await Promise.all([t.app.ingest.handle('lifts/DEMO-0002/event', msg), t.app.ingest.handle('lifts/DEMO-0002/event', fresh)]);
    const [log] = await t.database.sql.query<{ entries: string; first: string; last: string; total: string; copies: string }>(
      `select (select count(*) from lift_events where lift_id = $1) as entries, (select min(n) from lift_events where lift_id = $1) as first,
              (select max(n) from lift_events where lift_id = $1) as last, (select events_total from lifts where id = $1) as total,
              (select count(*) from lift_events where lift_id = $1 and seq = any($2::bigint[])) as copies`,
      [ids['DEMO-0002'], [8_000_000_000_000, 8_000_000_000_001]],
    );
    expect(Number(log!.copies)).toBe(2);
    expect(Number(log!.first)).toBe(1);
    expect(Number(log!.last)).toBe(Number(log!.entries));
    expect(Number(log!.total)).toBe(Number(log!.last));
  });

  it('turns a stopped lift offline within the heartbeat window and refuses commands to it at once', async () => {
    const liftId = ids['DEMO-0004']!;
    stopped = spawnSimulator([fleet[3]!], brokerUrl, () => {});
    await stopped.ready;
    await until('online', async () => body(await admin.post('/auth/access/lift/getInfo', { liftId })).result.lift.online, 30_000);
    stopped.child.kill('SIGKILL');
    await until('offline', async () => !body(await admin.post('/auth/access/lift/getInfo', { liftId })).result.lift.online, 20_000);
    const commands = () => t.database.sql.query('select count(*) as n from lift_commands where lift_id = $1', [liftId]);
    const before = await commands();
    // At once: refused as offline (not left to expire after COMMAND_WAIT_MS), and nothing is sent.
    const res = await admin.post('/auth/access/lift/control', { liftId, command: 'summon', args: { floor: 1 } });
    expect(res.statusCode).toBe(503);
    expect(body(res).code).toBe('lift.offline');
    expect(body(res).result).toMatchObject({ commandId: null, state: 'failed', reason: 'offline' });
    expect(await commands()).toEqual(before);
    const info = body(await admin.post('/auth/access/lift/getInfo', { liftId })).result;
    expect(info.stats.onlineMsTotal).toBeGreaterThan(0);
  }, 90_000);
});
