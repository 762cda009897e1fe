import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { initialLiftStatus } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';

/** A WebSocket client that collects what the server pushes. */
async function connect(url: string, token: string, viaCookie = true) {
  const socket = new WebSocket(url, viaCookie ? { headers: { cookie: `Access-Token=${token}` } } : {});
  const messages: any[] = [];
  socket.on('message', (raw: Buffer) => messages.push(JSON.parse(raw.toString())));
  await once(socket, 'open');
  const next = async (pred: (m: any) => boolean, timeoutMs = 5_000) => {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const i = messages.findIndex(pred);
      if (i >= 0) return messages.splice(i, 1)[0];
      if (Date.now() > end) throw new Error(`no message matching in ${JSON.stringify(messages)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { socket, messages, next, send: (m: unknown) => socket.send(typeof m === 'string' ? m : JSON.stringify(m)) };
}

describe('live updates over the WebSocket', () => {
  let t: TestApp;
  let url: string;
  let adminToken: string;
  const ids: Record<string, string> = {};
  let seq = 5_000;
  const send = (deviceNo: string, topic: string, message: object) => t.app.ingest.handle(`lifts/${deviceNo}/${topic}`, JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), ...message }));

  beforeAll(async () => {
    t = await startTestApp('pglite');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/ws/live`;
    adminToken = await login(t.app, 'admin', ADMIN_PASSWORD);
    await ensureDemoFleet(t.database.sql, 2);
    for (const l of body(await client(t.app, adminToken).get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
  });
  afterAll(() => t.close());

  it('pushes events, status and presence of a subscribed lift after they are stored', async () => {
    const ws = await connect(url, adminToken);
    await ws.next((m) => m.type === 'ready');
    ws.send({ type: 'subscribe', liftIds: [ids['DEMO-0001']] });
    expect(await ws.next((m) => m.type === 'subscribed')).toMatchObject({ liftIds: [ids['DEMO-0001']], denied: [] });
    await send('DEMO-0001', 'presence', { online: true, session: ++seq });
    expect(await ws.next((m) => m.type === 'presence' && m.online)).toMatchObject({ liftId: ids['DEMO-0001'] });
    // Coming online is a run-log entry too, written by the cloud with its reason.
    expect(await ws.next((m) => m.type === 'event')).toMatchObject({ liftId: ids['DEMO-0001'], code: 'ONLINE', reason: 'connected', fault: false });
    await send('DEMO-0001', 'event', { code: 'RZY2' });
    const event = await ws.next((m) => m.type === 'event');
    expect(event).toMatchObject({ liftId: ids['DEMO-0001'], code: 'RZY2', fault: false });
    const [stored] = await t.database.sql.query<{ id: string }>('select id from lift_events where lift_id = $1 and code = $2', [ids['DEMO-0001'], 'RZY2']);
    expect(event.id).toBe(Number(stored!.id));
    // A lift this socket did not subscribe to, then a marker from the subscribed one through
    // the same path: had the first been pushed, it would have arrived before the marker.
    await send('DEMO-0002', 'event', { code: 'RZY1' });
    await send('DEMO-0001', 'event', { code: 'RZD1' });
    await ws.next((m) => m.type === 'event' && m.code === 'RZD1');
    expect(ws.messages.filter((m) => m.liftId === ids['DEMO-0002'])).toEqual([]);
    ws.socket.close();
  });

  it('replays what a reconnecting client missed when it resubscribes with since', async () => {
    const first = await connect(url, adminToken);
    await first.next((m) => m.type === 'ready');
    first.send({ type: 'subscribe', liftIds: [ids['DEMO-0002']] });
    await first.next((m) => m.type === 'subscribed');
    await send('DEMO-0002', 'event', { code: 'RZGU' });
    const last = await first.next((m) => m.type === 'event' && m.code === 'RZGU');
    first.socket.close();
    await send('DEMO-0002', 'event', { code: 'RZD3', floor: 3 });
    await send('DEMO-0002', 'event', { code: 'RZF1' });
    const again = await connect(url, adminToken);
    await again.next((m) => m.type === 'ready');
    again.send({ type: 'subscribe', liftIds: [ids['DEMO-0002']], since: { [ids['DEMO-0002']!]: last.id } });
    expect((await again.next((m) => m.type === 'event')).code).toBe('RZD3');
    expect((await again.next((m) => m.type === 'event')).code).toBe('RZF1');
    again.socket.close();
  });

  it('checks every lift id against the caller, and authenticates by a first message too', async () => {
    const op = body(await client(t.app, adminToken).post('/auth/access/system/orgs/create', { name: 'Live ops', kind: 'operator' })).result;
    await client(t.app, adminToken).post('/auth/access/system/orgs/assign-lifts', { orgId: op.id, liftIds: [ids['DEMO-0001']] });
    const operator = await userWithRole(t, adminToken, 'operator', undefined, op.id);
    const ws = await connect(url, operator.token, false);
    ws.send({ type: 'subscribe', liftIds: [ids['DEMO-0001']] });
    expect(await ws.next((m) => m.type === 'error')).toMatchObject({ code: 'auth.unauthorized' });
    ws.send({ type: 'auth', token: operator.token });
    await ws.next((m) => m.type === 'ready');
    ws.send({ type: 'subscribe', liftIds: [ids['DEMO-0001'], ids['DEMO-0002']] });
    expect(await ws.next((m) => m.type === 'subscribed')).toMatchObject({ liftIds: [ids['DEMO-0001']], denied: [ids['DEMO-0002']] });
    ws.send('{oops');
    expect(await ws.next((m) => m.type === 'error')).toMatchObject({ code: 'request.malformed' });
    ws.send({ type: 'subscribe', liftIds: ['not-a-uuid'] });
    expect(await ws.next((m) => m.type === 'error')).toMatchObject({ code: 'validation.failed' });
    ws.send({ type: 'ping' });
    expect(await ws.next((m) => m.type === 'pong')).toEqual({ type: 'pong' });
    ws.socket.close();
    const bad = await connect(url, 'nonsense', false);
    bad.send({ type: 'auth', token: 'nonsense' });
    const [code] = (await once(bad.socket, 'close')) as [number];
    expect(code).toBe(4401);
  });

  it('catches a control room up on every lift at once, and sends each change to each of its browsers', async () => {
    await send('DEMO-0001', 'status', { status: initialLiftStatus(2) });
    const statusSeq = seq;
    const room = await Promise.all([connect(url, adminToken), connect(url, adminToken)]);
    for (const ws of room) {
      await ws.next((m) => m.type === 'ready');
      ws.send({ type: 'subscribe', liftIds: [ids['DEMO-0001'], ids['DEMO-0002']] });
      await ws.next((m) => m.type === 'subscribed');
      for (const deviceNo of ['DEMO-0001', 'DEMO-0002']) {
        await ws.next((m) => m.type === 'presence' && m.liftId === ids[deviceNo]);
        expect(await ws.next((m) => m.type === 'lease' && m.liftId === ids[deviceNo])).toMatchObject({ lease: null, localUntil: null });
      }
      expect(await ws.next((m) => m.type === 'status' && m.liftId === ids['DEMO-0001'])).toMatchObject({ seq: statusSeq, status: { floor: 2 } });
    }
    const fleet = await connect(url, adminToken);
    await fleet.next((m) => m.type === 'ready');
    fleet.send({ type: 'subscribeFleet' });
    await fleet.next((m) => m.type === 'fleetSubscribed');
    await send('DEMO-0001', 'status', { status: { ...initialLiftStatus(2), floor: 1, faults: ['EC'] } });
    for (const ws of room) expect(await ws.next((m) => m.type === 'status' && m.seq === seq)).toMatchObject({ liftId: ids['DEMO-0001'], status: { floor: 1, faults: ['EC'] } });
    // The fleet list gets the short form only.
    expect(await fleet.next((m) => m.type === 'fleetStatus')).toEqual({ type: 'fleetStatus', liftId: ids['DEMO-0001'], mode: expect.any(String), floor: 1, activeFault: 'EC' });
    for (const ws of [...room, fleet]) ws.socket.close();
  });

  it('tells fleet subscribers about presence and faults of every lift they may see', async () => {
    const ws = await connect(url, adminToken);
    await ws.next((m) => m.type === 'ready');
    ws.send({ type: 'subscribeFleet' });
    expect(await ws.next((m) => m.type === 'fleetSubscribed')).toMatchObject({ count: 2 });
    await send('DEMO-0002', 'event', { code: 'EB' });
    expect(await ws.next((m) => m.type === 'alert')).toMatchObject({ liftId: ids['DEMO-0002'], alert: { kind: 'fault', code: 'EB' } });
    ws.socket.close();
  });
});
