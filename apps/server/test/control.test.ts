import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { liftTopic } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { connectLift } from './support/lift-client.ts';
import { openLiveSocket } from './support/live-socket.ts';

/**
 * Safe remote control on the server (docs/remote-control.md): the lease, local use, the
 * approval gate and the cancel window, with simulated lifts on the embedded broker.
 * DEMO-0001 and DEMO-0002 are simulated; DEMO-0003 is simulated by a process of its own, whose
 * platform button the test presses (SIGUSR2); DEMO-0004 is a bare connection that reports
 * local use with the times a test chooses.
 */
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let keys = 0;
const newKey = () => `click-${Date.now().toString(36)}-${++keys}-${Math.random().toString(36).slice(2, 8)}`;

describe.each(DB_KINDS)('safe remote control on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator>;
  let onSite: ReturnType<typeof spawnSimulator>;
  let bare: MqttClient;
  let bareSeq = 1_000_000;
  let httpUrl: string;
  const ids: Record<string, string> = {};
  /** Two operators of the organization the lifts are assigned to (liftControl.enable, not edit). */
  let anna: Awaited<ReturnType<typeof userWithRole>>;
  let boris: Awaited<ReturnType<typeof userWithRole>>;
  /** Watches the lifts (lift.get), may not control them. */
  let viewer: Awaited<ReturnType<typeof userWithRole>>;
  const api = (u: { token: string }) => client(t.app, u.token);
  /** Every command the lifts' topics carried (the lift's side of the wire). */
  const wire: { deviceNo: string; message: { commandId: string; name: string; lease?: { epoch: number; holder: string } } }[] = [];

  beforeAll(async () => {
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '15', COMMAND_WAIT_MS: '5000', COMMAND_CANCEL_WINDOW_MS: '300' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    httpUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    admin = client(t.app, adminToken);
    fleet = await ensureDemoFleet(t.database.sql, 4);
    const brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    // No calls on site but the test's own: each would end a lease (local use).
    sim = spawnSimulator(fleet.slice(0, 2), brokerUrl, () => {}, ['--activity', '0']);
    onSite = spawnSimulator(fleet.slice(2, 3), brokerUrl, () => {}, ['--activity', '0']);
    await Promise.all([sim.ready, onSite.ready]);
    bare = await connectLift(brokerUrl, fleet[3]!.deviceNo, fleet[3]!.secret);
    for (const l of fleet) ids[l.deviceNo] = l.id;
    const op = body(await admin.post('/auth/access/system/orgs/create', { name: `Operator ${kind}`, kind: 'operator' })).result;
    await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: fleet.map((l) => l.id) });
    anna = await userWithRole(t, adminToken, 'operator', `anna-${kind}`, op.id);
    boris = await userWithRole(t, adminToken, 'operator', `boris-${kind}`, op.id);
    viewer = await userWithRole(t, adminToken, 'viewer', `vera-${kind}`, op.id);
    await t.app.mqtt.subscribeAsync('lifts/+/cmd', { qos: 1 });
    t.app.mqtt.on('message', (topic, payload) => {
      const m = /^lifts\/([^/]+)\/cmd$/.exec(topic);
      if (m) wire.push({ deviceNo: m[1]!, message: JSON.parse(payload.toString()) });
    });
    await until('lifts online', async () => {
      const list = body(await admin.get('/auth/access/lift/get?sort=deviceNo')).result.list;
      return list.slice(0, 3).every((l: { online: boolean }) => l.online);
    }, 60_000);
  }, 120_000);
  afterAll(async () => {
    sim?.child.kill('SIGTERM');
    onSite?.child.kill('SIGTERM');
    await bare?.endAsync(true).catch(() => {});
    await t?.close();
  });
  beforeEach(async () => {
    // Every test starts with free leases and no local use (the epochs keep counting: the lifts remember them).
    await t.database.sql.query(`update lift_leases set holder_id = null, holder_name = null, acquired_at = null, expires_at = null, local_until = null`);
    t.app.config.commandCancelWindowMs = 300;
  });

  const lease = async (u: { token: string }, liftId: string) => body(await api(u).get(`/auth/access/lift/lease?liftId=${liftId}`)).result;
  const take = (u: { token: string }, liftId: string, takeOver = false) => api(u).post('/auth/access/lift/lease/take', { liftId, takeOver });
  const keyLights = (u: { token: string }, liftId: string, idempotencyKey?: string) =>
    api(u).post('/auth/access/lift/control', { liftId, command: 'test', args: { item: 'keyLights' }, ...(idempotencyKey ? { idempotencyKey } : {}) });

  it('takes, renews and releases the lease, audited, and refuses a renewal after the release', async () => {
    const liftId = ids['DEMO-0001']!;
    // The holder is shown by the name colleagues know, not the login.
    await t.database.sql.query(`update users set name = 'Anna Petrova' where id = $1`, [anna.id]);
    const taken = await take(anna, liftId);
    expect(taken.statusCode, taken.body).toBe(200);
    const granted = body(taken).result.lease;
    expect(granted).toMatchObject({ liftId, holderId: anna.id, holderName: 'Anna Petrova' });
    expect(await lease(boris, liftId)).toMatchObject({ lease: { epoch: granted.epoch, holderName: 'Anna Petrova' }, localUntil: null });
    // Everyone watching the lift sees who controls it; only those allowed to control it may take it.
    expect((await lease(viewer, liftId)).lease.holderName).toBe('Anna Petrova');
    await t.database.sql.query(`update users set name = username where id = $1`, [anna.id]);
    expect((await take(viewer, liftId)).statusCode).toBe(403);
    await new Promise((r) => setTimeout(r, 20));
    const renewed = await api(anna).post('/auth/access/lift/lease/renew', { liftId, epoch: granted.epoch });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(Date.parse(body(renewed).result.lease.expiresAt)).toBeGreaterThan(Date.parse(granted.expiresAt));
    expect(body(renewed).result.lease.epoch).toBe(granted.epoch);
    const released = await api(anna).post('/auth/access/lift/lease/release', { liftId, epoch: granted.epoch });
    expect([released.statusCode, body(released).result.lease]).toEqual([200, null]);
    const late = await api(anna).post('/auth/access/lift/lease/renew', { liftId, epoch: granted.epoch });
    expect([late.statusCode, body(late).code]).toEqual([409, 'lease.lost']);
    // The next lease is the lift's next epoch.
    const again = body(await take(boris, liftId)).result.lease;
    expect(again.epoch).toBe(granted.epoch + 1);
    const audit = await t.database.sql.query<{ action: string; username: string; detail: { epoch: number } }>(
      `select action, username, detail from audit_log where lift_id = $1 and action in ('lift.leaseTake', 'lift.leaseRelease') and (detail->>'epoch')::int = $2 order by id`,
      [liftId, granted.epoch],
    );
    expect(audit.map((a) => [a.action, a.username])).toEqual([
      ['lift.leaseTake', anna.username],
      ['lift.leaseRelease', anna.username],
    ]);
  });

  it("refuses a second user the lease and leased commands, naming the holder, and sends nothing", async () => {
    const liftId = ids['DEMO-0001']!;
    expect((await take(anna, liftId)).statusCode).toBe(200);
    const refused = await take(boris, liftId);
    expect([refused.statusCode, body(refused).code]).toEqual([409, 'lease.held']);
    expect(body(refused).result).toMatchObject({ holderName: anna.username, expiresAt: expect.any(String) });
    const sentBefore = wire.length;
    const commands = () => t.database.sql.query(`select id from lift_commands where lift_id = $1 and user_id = $2`, [liftId, boris.id]);
    const before = await commands();
    const command = await keyLights(boris, liftId);
    expect([command.statusCode, body(command).code]).toEqual([409, 'lease.held']);
    expect(body(command).result.holderName).toBe(anna.username);
    expect(await commands()).toEqual(before);
    expect(wire.length).toBe(sentBefore);
  });

  it('lets only liftControl.edit take over, and tells the former holder who took it', async () => {
    const liftId = ids['DEMO-0002']!;
    const first = body(await take(anna, liftId)).result.lease;
    const socket = await openLiveSocket(httpUrl, anna.token);
    await socket.next('ready', (m) => m.type === 'ready');
    socket.send({ type: 'subscribe', liftIds: [liftId] });
    // A new subscriber learns who holds the lease.
    expect(await socket.next('lease state', (m) => m.type === 'lease' && m.liftId === liftId)).toMatchObject({ lease: { epoch: first.epoch, holderId: anna.id }, ended: null });
    const denied = await take(boris, liftId, true);
    expect([denied.statusCode, body(denied).code]).toEqual([403, 'forbidden']);
    expect((await lease(anna, liftId)).lease.holderId).toBe(anna.id);
    const takeover = await take({ token: adminToken }, liftId, true);
    expect(takeover.statusCode, takeover.body).toBe(200);
    expect(body(takeover).result.lease).toMatchObject({ holderName: 'Administrator', epoch: first.epoch + 1 });
    const told = await socket.next('taken over', (m) => m.type === 'lease' && m.ended === 'takenOver');
    expect(told).toMatchObject({ liftId, endedHolderId: anna.id, lease: { holderName: 'Administrator' } });
    socket.close();
    // The former holder's command is refused before anything is sent.
    const late = await keyLights(anna, liftId);
    expect([late.statusCode, body(late).code, body(late).result.holderName]).toEqual([409, 'lease.held', 'Administrator']);
    const [audit] = await t.database.sql.query<{ detail: { epoch: number; takenOverFrom: string } }>(`select detail from audit_log where action = 'lift.leaseTake' and lift_id = $1 order by id desc limit 1`, [liftId]);
    expect(audit!.detail).toEqual({ epoch: first.epoch + 1, takenOverFrom: anna.username });
  });

  it('takes a free lease for the first leased command and carries it to the lift', async () => {
    const liftId = ids['DEMO-0001']!;
    expect((await lease(anna, liftId)).lease).toBeNull();
    const res = await keyLights(anna, liftId);
    expect(res.statusCode, res.body).toBe(200);
    const { commandId } = body(res).result;
    const held = (await lease(boris, liftId)).lease;
    expect(held).toMatchObject({ holderId: anna.id, holderName: anna.username });
    const sent = wire.find((w) => w.message.commandId === commandId);
    expect(sent?.message.lease).toEqual({ epoch: held.epoch, holder: anna.username });
    const [row] = await t.database.sql.query<{ lease_epoch: number }>(`select lease_epoch from lift_commands where id = $1`, [commandId]);
    expect(row!.lease_epoch).toBe(held.epoch);
    const [audit] = await t.database.sql.query<{ detail: { lease: number } }>(`select detail from audit_log where action = 'lift.command' and detail->>'name' = 'test' and user_id = $1 order by id desc limit 1`, [anna.id]);
    expect(audit!.detail.lease).toBe(held.epoch);
    const [takeAudit] = await t.database.sql.query(`select id from audit_log where action = 'lift.leaseTake' and user_id = $1 and (detail->>'epoch')::int = $2`, [anna.id, held.epoch]);
    expect(takeAudit).toBeDefined();
  });

  it('treats a lease past its expiry as free, and tells its holder when someone next looks', async () => {
    const liftId = ids['DEMO-0002']!;
    const held = body(await take(anna, liftId)).result.lease;
    const socket = await openLiveSocket(httpUrl, anna.token);
    await socket.next('ready', (m) => m.type === 'ready');
    socket.send({ type: 'subscribe', liftIds: [liftId] });
    await socket.next('lease state', (m) => m.type === 'lease' && m.lease?.epoch === held.epoch);
    // Anna's page stopped renewing a minute ago.
    await t.database.sql.query(`update lift_leases set expires_at = now() - interval '1 second' where lift_id = $1`, [liftId]);
    expect(await lease(boris, liftId)).toEqual({ lease: null, localUntil: null });
    expect(await socket.next('expired', (m) => m.type === 'lease' && m.ended === 'expired')).toMatchObject({ liftId, lease: null, endedHolderId: anna.id });
    socket.close();
    const renew = await api(anna).post('/auth/access/lift/lease/renew', { liftId, epoch: held.epoch });
    expect(body(renew).code).toBe('lease.lost');
    expect(body(await take(boris, liftId)).result.lease).toMatchObject({ holderId: boris.id, epoch: held.epoch + 1 });
  });

  it('lets exactly one of two users taking a free lease at the same instant win', async () => {
    const liftId = ids['DEMO-0002']!;
    for (let round = 0; round < 4; round++) {
      await t.database.sql.query(`update lift_leases set holder_id = null, holder_name = null, acquired_at = null, expires_at = null`);
      const answers = await Promise.all([take(anna, liftId), take(boris, liftId)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      const winner = answers.find((a) => a.statusCode === 200)!;
      const loser = answers.find((a) => a.statusCode === 409)!;
      expect(body(loser).result.holderName).toBe(body(winner).result.lease.holderName);
      expect((await lease(anna, liftId)).lease.holderId).toBe(body(winner).result.lease.holderId);
    }
  });

  it('lets anyone allowed to control the lift stop it while another holds the lease', async () => {
    const liftId = ids['DEMO-0001']!;
    expect((await take(anna, liftId)).statusCode).toBe(200);
    const stop = await api(boris).post('/auth/access/lift/control', { liftId, command: 'pause', args: {} });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(['accepted', 'done']).toContain(body(stop).result.state);
    expect((await lease(boris, liftId)).lease.holderId).toBe(anna.id);
  });

  it('ends the lease when the lift is used on site, and grants none until the settle time has passed', async () => {
    const liftId = ids['DEMO-0003']!;
    const held = body(await take(anna, liftId)).result.lease;
    const socket = await openLiveSocket(httpUrl, anna.token);
    await socket.next('ready', (m) => m.type === 'ready');
    socket.send({ type: 'subscribe', liftIds: [liftId] });
    await socket.next('subscribed', (m) => m.type === 'subscribed');
    const pressedAt = Date.now();
    // Someone presses the platform button of the simulated lift (it logs RZLB).
    onSite.child.kill('SIGUSR2');
    const ended = await socket.next('ended by local use', (m) => m.type === 'lease' && m.ended === 'localControl');
    const pressed = await socket.next('the button in the run log', (m) => m.type === 'event' && m.code === 'RZLB');
    socket.close();
    expect(ended).toMatchObject({ liftId, lease: null, endedHolderId: anna.id });
    expect(Date.parse(ended.localUntil)).toBe(Date.parse(pressed.ts) + 30_000);
    expect(Math.abs(Date.parse(ended.localUntil) - (pressedAt + 30_000))).toBeLessThan(3_000);
    const state = await lease(anna, liftId);
    expect(state).toEqual({ lease: null, localUntil: ended.localUntil });
    const refused = await take(anna, liftId);
    expect([refused.statusCode, body(refused).code, body(refused).result.localUntil]).toEqual([409, 'lease.localControl', ended.localUntil]);
    const command = await keyLights(boris, liftId);
    expect([command.statusCode, body(command).code]).toEqual([409, 'lease.localControl']);
    const renew = await api(anna).post('/auth/access/lift/lease/renew', { liftId, epoch: held.epoch });
    expect(body(renew).code).toBe('lease.lost');
    // Once the settle time has passed, the lease may be taken again (the pause moved into the past here).
    await t.database.sql.query(`update lift_leases set local_until = now() - interval '1 second' where lift_id = $1`, [liftId]);
    expect((await take(anna, liftId)).statusCode).toBe(200);
  });

  it('ignores old local use for the pause, but still ends a lease taken before it', async () => {
    const liftId = ids['DEMO-0004']!;
    expect((await take(anna, liftId)).statusCode).toBe(200);
    // Local use an hour ago (a lift replaying what it kept while offline): the lease was taken after it.
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    await bare.publishAsync(liftTopic(fleet[3]!.deviceNo, 'event'), JSON.stringify({ seq: ++bareSeq, ts: hourAgo, code: 'RZLK' }), { qos: 1 });
    expect(await lease(anna, liftId)).toMatchObject({ lease: { holderId: anna.id }, localUntil: null });
    // A lease taken two hours ago, before that local use, ends.
    await t.database.sql.query(`update lift_leases set acquired_at = now() - interval '2 hours' where lift_id = $1`, [liftId]);
    await bare.publishAsync(liftTopic(fleet[3]!.deviceNo, 'event'), JSON.stringify({ seq: ++bareSeq, ts: hourAgo, code: 'RZM1' }), { qos: 1 });
    expect(await lease(anna, liftId)).toEqual({ lease: null, localUntil: null });
  });

  it('refuses a command of an approval class sent directly, sending nothing', async () => {
    const liftId = ids['DEMO-0002']!;
    const sentBefore = wire.length;
    const res = await api(anna).post('/auth/access/lift/control', { liftId, command: 'aging', args: { target: 'overall' } });
    expect([res.statusCode, body(res).code, body(res).result]).toEqual([409, 'approval.required', { commandClass: 'aging' }]);
    expect(wire.length).toBe(sentBefore);
    // Stopping an aging run is a stop, never under approval.
    const stop = await api(anna).post('/auth/access/lift/control', { liftId, command: 'aging', args: { target: 'stop' } });
    expect(body(stop).code).not.toBe('approval.required');
  });

  it('cancels a command in its cancel window: it ends cancelled and the lift never hears of it', async () => {
    t.app.config.commandCancelWindowMs = 3_000;
    const liftId = ids['DEMO-0001']!;
    const key = newKey();
    const started = Date.now();
    const pending = keyLights(anna, liftId, key);
    await until('the command in its window', async () => (await t.database.sql.query(`select id from lift_commands where idempotency_key = $1`, [key])).length === 1, 2_000);
    const cancel = await api(anna).post('/auth/access/lift/command/cancel', { liftId, idempotencyKey: key });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(body(cancel).result).toMatchObject({ state: 'cancelled', reason: 'cancelled' });
    const answer = await pending;
    // The sender is answered at the cancel, not at the end of the window.
    expect(Date.now() - started).toBeLessThan(2_500);
    expect([answer.statusCode, body(answer).code]).toEqual([409, 'lift.refused']);
    expect(body(answer).result).toMatchObject({ commandId: body(cancel).result.commandId, state: 'cancelled', reason: 'cancelled' });
    // Well past the window: nothing went out.
    await new Promise((r) => setTimeout(r, Math.max(0, started + 4_000 - Date.now())));
    expect(wire.filter((w) => w.message.commandId === body(cancel).result.commandId)).toEqual([]);
    const [row] = await t.database.sql.query<{ state: string; sent_at: Date | null }>(`select state, sent_at from lift_commands where idempotency_key = $1`, [key]);
    expect(row).toEqual({ state: 'cancelled', sent_at: null });
    const [audit] = await t.database.sql.query<{ result: string }>(`select result from audit_log where action = 'lift.commandCancel' and user_id = $1 order by id desc limit 1`, [anna.id]);
    expect(audit!.result).toBe('ok');
  });

  it('never sends a command whose lease was taken over while it waited in its cancel window', async () => {
    t.app.config.commandCancelWindowMs = 3_000;
    const liftId = ids['DEMO-0002']!;
    const key = newKey();
    const pending = keyLights(anna, liftId, key);
    await until('the command in its window', async () => (await t.database.sql.query(`select id from lift_commands where idempotency_key = $1`, [key])).length === 1, 2_000);
    expect((await take({ token: adminToken }, liftId, true)).statusCode).toBe(200);
    const answer = await pending;
    expect([answer.statusCode, body(answer).code]).toEqual([409, 'lift.refused']);
    expect(body(answer).result).toMatchObject({ state: 'rejected', reason: 'leaseHeld' });
    expect(wire.filter((w) => w.message.commandId === body(answer).result.commandId)).toEqual([]);
  });

  it('refuses to cancel a command sent already, and another user cannot cancel it', async () => {
    const liftId = ids['DEMO-0001']!;
    const key = newKey();
    const sent = await keyLights(anna, liftId, key);
    expect(sent.statusCode, sent.body).toBe(200);
    const late = await api(anna).post('/auth/access/lift/command/cancel', { liftId, idempotencyKey: key });
    expect([late.statusCode, body(late).code]).toEqual([409, 'command.cancelTooLate']);
    const other = await api(boris).post('/auth/access/lift/command/cancel', { liftId, idempotencyKey: key });
    expect([other.statusCode, body(other).code]).toEqual([404, 'command.notFound']);
    expect(wire.filter((w) => w.message.commandId === body(sent).result.commandId)).toHaveLength(1);
  });

  it('answers a double click with the first command and sends it once; another command under the same key conflicts', async () => {
    const liftId = ids['DEMO-0001']!;
    const key = newKey();
    const [a, b] = await Promise.all([keyLights(anna, liftId, key), keyLights(anna, liftId, key)]);
    expect([a.statusCode, b.statusCode], a.body + b.body).toEqual([200, 200]);
    expect(body(a).result.commandId).toBe(body(b).result.commandId);
    expect(body(a).result.state).toBe(body(b).result.state);
    expect(await t.database.sql.query(`select id from lift_commands where idempotency_key = $1`, [key])).toHaveLength(1);
    expect(wire.filter((w) => w.message.commandId === body(a).result.commandId)).toHaveLength(1);
    // A retry later answers the same.
    const retry = await keyLights(anna, liftId, key);
    expect(body(retry).result.commandId).toBe(body(a).result.commandId);
    const other = await api(anna).post('/auth/access/lift/control', { liftId, command: 'test', args: { item: 'runningLights' }, idempotencyKey: key });
    expect([other.statusCode, body(other).code]).toEqual([409, 'conflict']);
  });
});
