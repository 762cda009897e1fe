import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { liftTopic, type LiveChange } from '@liftlink/protocol';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, type TestApp } from './helpers.ts';
import { until } from './support/ports.ts';

/** Device online and offline in the run log: each real transition once, with its time and reason. */
describe.each(DB_KINDS)('presence in the run log on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let fleet: DemoLift[];
  let brokerUrl: string;
  const ids: Record<string, string> = {};
  const live: LiveChange[] = [];
  let seq = 1_000_000;
  const ts = () => new Date().toISOString();
  const send = (deviceNo: string, topic: string, message: object) => t.app.ingest.handle(`lifts/${deviceNo}/${topic}`, JSON.stringify({ seq: ++seq, ts: ts(), ...message }));
  const runLog = async (deviceNo: string, query = '') => {
    const res = await admin.get(`/auth/access/lift/run/logs/get?liftId=${ids[deviceNo]}&pageSize=200${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return body(res).result as { total: number; list: { id: number; ts: string; code: string; text: string; fault: boolean; reason: string | null }[] };
  };
  const presenceOf = async (deviceNo: string, lang = 'en-US') =>
    (await runLog(deviceNo, `&codes=ONLINE,OFFLINE&lang=${lang}`)).list.reverse().map((e) => `${e.code} ${e.reason}`);
  const info = async (deviceNo: string) => body(await admin.post('/auth/access/lift/getInfo', { liftId: ids[deviceNo] })).result;
  /** Connects as the lift over MQTT and says it is online, as a lift does (docs/protocol.md 4.3). */
  const connectLift = async (lift: DemoLift): Promise<{ client: MqttClient; session: number }> => {
    const session = ++seq;
    const client = await mqtt.connectAsync(brokerUrl, { clientId: lift.deviceNo, username: lift.deviceNo, password: lift.secret, clean: false, reconnectPeriod: 0 });
    await client.publishAsync(liftTopic(lift.deviceNo, 'presence'), JSON.stringify({ seq: ++seq, ts: ts(), online: true, session }), { qos: 1, retain: true });
    return { client, session };
  };

  beforeAll(async () => {
    // A short heartbeat window: the silence sweep runs every second.
    t = await startTestApp(kind, { HEARTBEAT_SECONDS: '3' });
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 8);
    brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    for (const l of body(await admin.get('/auth/access/lift/get')).result.list) ids[l.deviceNo] = l.id;
    t.app.live.on((m) => live.push(m));
  }, 60_000);
  afterAll(() => t.close());

  it('writes ONLINE (connected) and OFFLINE (clean disconnect) once each, between the lift events, translated and filterable', async () => {
    const session = ++seq;
    const onlineAt = ts();
    await t.app.ingest.handle('lifts/DEMO-0001/presence', JSON.stringify({ seq: ++seq, ts: onlineAt, online: true, session }));
    // The same connection saying it again, and its redelivery: no transition.
    await send('DEMO-0001', 'presence', { online: true, session });
    await send('DEMO-0001', 'event', { code: 'RZY2' });
    await send('DEMO-0001', 'presence', { online: false, session });
    // The will of that connection arriving after the goodbye: the lift is offline already.
    await t.app.ingest.handle('lifts/DEMO-0001/presence', JSON.stringify({ seq: session, ts: onlineAt, online: false, session }));

    const all = await runLog('DEMO-0001', '&lang=en-US');
    expect(all.list.map((e) => e.code).reverse()).toEqual(['ONLINE', 'RZY2', 'OFFLINE']);
    expect(all.total).toBe(3);
    expect(all.list.map((e) => e.text).reverse()).toEqual(['Device online (connected)', 'Target floor 2 set by cloud command', 'Device offline (clean disconnect)']);
    expect(all.list.map((e) => e.reason).reverse()).toEqual(['connected', null, 'cleanDisconnect']);
    // The ONLINE entry carries the time the lift came online, which is where its online time starts.
    expect(all.list.at(-1)!.ts).toBe(onlineAt);
    expect(all.list.every((e) => !e.fault)).toBe(true);

    // Filters: by code, by class (connection events are states, never faults), by time.
    expect((await runLog('DEMO-0001', '&codes=OFFLINE')).list.map((e) => e.reason)).toEqual(['cleanDisconnect']);
    expect((await runLog('DEMO-0001', '&codes=OFFLINE')).total).toBe(1);
    expect((await runLog('DEMO-0001', '&class=state')).total).toBe(3);
    expect((await runLog('DEMO-0001', '&class=fault')).total).toBe(0);
    expect((await runLog('DEMO-0001', `&codes=ONLINE&from=${encodeURIComponent(onlineAt)}`)).total).toBe(1);

    // The caller's language.
    expect((await runLog('DEMO-0001', '&codes=OFFLINE&lang=ru-RU')).list[0]!.text).toBe('Устройство не в сети (штатное отключение)');
    expect((await runLog('DEMO-0001', '&codes=OFFLINE&lang=zh-CN')).list[0]!.text).toBe('设备离线（正常断开）');
    expect((await runLog('DEMO-0001', '&codes=ONLINE&lang=ru-RU')).list[0]!.text).toBe('Устройство в сети (подключение)');

    // Pushed live like the lift's own events, with the reason.
    const pushed = live.filter((m) => m.type === 'event' && m.liftId === ids['DEMO-0001'] && (m.code === 'ONLINE' || m.code === 'OFFLINE'));
    expect(pushed.map((m) => m.type === 'event' && `${m.code} ${m.reason}`)).toEqual(['ONLINE connected', 'OFFLINE cleanDisconnect']);
    expect(pushed.map((m) => m.type === 'event' && m.id)).toEqual(all.list.filter((e) => e.code !== 'RZY2').map((e) => e.id).reverse());

    // The CSV export says why, too.
    const csv = await admin.get(`/auth/access/lift/run/logs/export?liftId=${ids['DEMO-0001']}&codes=OFFLINE&lang=en-US`);
    expect(csv.body).toContain('Device offline (clean disconnect)');
  });

  it('refuses ONLINE and OFFLINE from a lift: only the cloud writes them', async () => {
    const before = t.app.ingest.stats().drops.schema;
    // A lift no other test uses: its run log is its own.
    const logged = (await runLog('DEMO-0005')).total;
    await send('DEMO-0005', 'event', { code: 'OFFLINE' });
    await send('DEMO-0005', 'event', { code: 'ONLINE' });
    expect(t.app.ingest.stats().drops.schema).toBe(before + 2);
    expect((await runLog('DEMO-0005')).total).toBe(logged);
  });

  it('writes OFFLINE (connection lost) when the connection dies without a goodbye, once', async () => {
    const { client: lift } = await connectLift(fleet[1]!);
    await until('online', async () => (await info('DEMO-0002')).lift.online);
    // As a power cut would: no DISCONNECT, so the broker publishes the will and sees the socket close.
    lift.stream.destroy();
    await until('offline', async () => !(await info('DEMO-0002')).lift.online);
    await new Promise((r) => setTimeout(r, 300));
    lift.end(true);
    expect(await presenceOf('DEMO-0002')).toEqual(['ONLINE connected', 'OFFLINE connectionLost']);
  });

  it('writes OFFLINE (silent past the heartbeat) at the time it was last heard, counted in its online time; ONLINE (message received) when it speaks', async () => {
    await send('DEMO-0003', 'presence', { online: true, session: ++seq });
    const offline = await until('silence', async () => (await runLog('DEMO-0003', '&codes=OFFLINE')).list[0], 10_000);
    expect(offline.reason).toBe('heartbeatSilence');
    expect(offline.text).toBe('设备离线（超过心跳时限无消息）');
    const lift = await info('DEMO-0003');
    expect(lift.lift.online).toBe(false);
    // Offline from when it was last heard: the time the sweep found it silent is not online time.
    expect(offline.ts).toBe(lift.lift.lastSeenAt);
    const online = (await runLog('DEMO-0003', '&codes=ONLINE')).list[0]!;
    expect(lift.stats.onlineMsTotal).toBe(Date.parse(offline.ts) - Date.parse(online.ts));
    const [day] = await t.database.sql.query<{ ms: string }>(`select sum(online_ms) as ms from lift_daily_stats where lift_id = $1`, [ids['DEMO-0003']]);
    expect(Number(day!.ms)).toBe(lift.stats.onlineMsTotal);
    // More sweeps pass: still one OFFLINE.
    await new Promise((r) => setTimeout(r, 2_000));
    await send('DEMO-0003', 'event', { code: 'RZGU' });
    expect(await presenceOf('DEMO-0003')).toEqual(['ONLINE connected', 'OFFLINE heartbeatSilence', 'ONLINE messageReceived']);
    // The ONLINE entry comes before what the lift said, and starts its online time.
    const log = (await runLog('DEMO-0003', '&lang=ru-RU')).list;
    expect(log.slice(0, 2).map((e) => e.code)).toEqual(['RZGU', 'ONLINE']);
    expect(log[1]!.text).toBe('Устройство в сети (получено сообщение)');
    const back = await info('DEMO-0003');
    expect(back.lift.online).toBe(true);
    expect(back.lift.onlineSince).toBe(log[1]!.ts);
  }, 30_000);

  it('writes OFFLINE to lifts silent at once, each at the time it was last heard and with its own online time', async () => {
    const silent = ['DEMO-0007', 'DEMO-0008'];
    await send('DEMO-0007', 'presence', { online: true, session: ++seq });
    await new Promise((r) => setTimeout(r, 300));
    await send('DEMO-0008', 'presence', { online: true, session: ++seq });
    await until('both silent', async () => {
      const counts = await Promise.all(silent.map(async (no) => (await runLog(no, '&codes=OFFLINE')).total));
      return counts.every((n) => n === 1);
    }, 10_000);
    const seen: string[] = [];
    for (const no of silent) {
      const lift = await info(no);
      const offline = (await runLog(no, '&codes=OFFLINE')).list[0]!;
      const online = (await runLog(no, '&codes=ONLINE')).list[0]!;
      expect([lift.lift.online, offline.reason, offline.ts]).toEqual([false, 'heartbeatSilence', lift.lift.lastSeenAt]);
      expect(lift.stats.onlineMsTotal).toBe(Date.parse(offline.ts) - Date.parse(online.ts));
      const [day] = await t.database.sql.query<{ ms: string }>(`select sum(online_ms) as ms from lift_daily_stats where lift_id = $1`, [ids[no]]);
      expect(Number(day!.ms)).toBe(lift.stats.onlineMsTotal);
      seen.push(offline.ts);
    }
    expect(seen[0]).not.toBe(seen[1]);
    // Booked offline from then on (the availability report counts the time since as offline).
    const booked = await t.database.sql.query<{ avail_state: string }>(`select avail_state from lifts where id = any($1::uuid[])`, [silent.map((no) => ids[no])]);
    expect(booked.map((r) => r.avail_state)).toEqual(['offline', 'offline']);
  });

  it('takes wills of several lifts arriving together: OFFLINE for the current connection, nothing for an older one', async () => {
    const [a, b] = ['DEMO-0007', 'DEMO-0008'];
    const sa = ++seq;
    const sbOld = ++seq;
    const sbNew = ++seq;
    await send(a, 'presence', { online: true, session: sa });
    await send(b, 'presence', { online: true, session: sbOld });
    // b reconnected before its old connection's will came in
    await send(b, 'presence', { online: true, session: sbNew });
    const will = (no: string, session: number) => t.app.ingest.handle(`lifts/${no}/presence`, JSON.stringify({ seq: session, ts: ts(), online: false, session }));
    await Promise.all([will(a, sa), will(b, sbOld)]);
    expect([(await info(a)).lift.online, (await info(b)).lift.online]).toEqual([false, true]);
    expect((await presenceOf(a)).slice(-2)).toEqual(['ONLINE connected', 'OFFLINE connectionLost']);
    expect((await presenceOf(b)).at(-1)).toBe('ONLINE connected');
    // Its goodbye (a newer seq than its session) ends the current connection.
    await send(b, 'presence', { online: false, session: sbNew });
    expect((await presenceOf(b)).at(-1)).toBe('OFFLINE cleanDisconnect');
    expect((await info(b)).lift.online).toBe(false);
  });

  it('writes OFFLINE (credential reset) when the credentials of a connected lift are reset, and nothing more when it is thrown off', async () => {
    const { client: lift } = await connectLift(fleet[3]!);
    await until('online', async () => (await info('DEMO-0004')).lift.online);
    const closed = new Promise<void>((resolve) => lift.once('close', () => resolve()));
    const res = await admin.post('/manufacture/lift/resetIot', { liftId: ids['DEMO-0004'] });
    expect(res.statusCode, res.body).toBe(200);
    await closed;
    lift.end(true);
    // The disconnection and the will that follow the kick find the lift offline already.
    await new Promise((r) => setTimeout(r, 500));
    expect(await presenceOf('DEMO-0004')).toEqual(['ONLINE connected', 'OFFLINE credentialReset']);
    expect((await runLog('DEMO-0004', '&codes=OFFLINE&lang=en-US')).list[0]!.text).toBe('Device offline (credentials reset)');
    expect((await info('DEMO-0004')).lift.online).toBe(false);
    // Resetting a lift that is offline is no transition.
    expect((await admin.post('/manufacture/lift/resetIot', { liftId: ids['DEMO-0004'] })).statusCode).toBe(200);
    expect((await runLog('DEMO-0004', '&codes=OFFLINE')).total).toBe(1);
  });

  it('keeps the run log numbered without gaps or clashes with the lift seqs', async () => {
    // Its own lift: cloud entries (ONLINE, OFFLINE) between the lift's, and a redelivery.
    const session = ++seq;
    await send('DEMO-0006', 'presence', { online: true, session });
    await send('DEMO-0006', 'event', { code: 'RZGU' });
    const again = JSON.stringify({ seq: ++seq, ts: ts(), code: 'RZGD' });
    await t.app.ingest.handle('lifts/DEMO-0006/event', again);
    await t.app.ingest.handle('lifts/DEMO-0006/event', again);
    await send('DEMO-0006', 'presence', { online: false, session });
    expect((await runLog('DEMO-0006')).list.map((e) => e.code).reverse()).toEqual(['ONLINE', 'RZGU', 'RZGD', 'OFFLINE']);
    const [row] = await t.database.sql.query<{ entries: string; last: string; total: string; cloud: string; bad: string }>(
      `select (select count(*) from lift_events where lift_id = $1) as entries, (select max(n) from lift_events where lift_id = $1) as last,
              (select events_total from lifts where id = $1) as total,
              (select count(*) from lift_events where lift_id = $1 and seq < 0) as cloud,
              (select count(*) from lift_events where lift_id = $1 and (seq < 0) <> (reason is not null or code in ('ONLINE', 'OFFLINE'))) as bad`,
      [ids['DEMO-0006']],
    );
    expect(Number(row!.entries)).toBe(Number(row!.last));
    expect(Number(row!.total)).toBe(Number(row!.last));
    expect(Number(row!.cloud)).toBe(2);
    expect(Number(row!.bad)).toBe(0);
  });
});
