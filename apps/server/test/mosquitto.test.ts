import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import net from 'node:net';
import { liftTopic, MAX_PACKET_BYTES } from '@liftlink/protocol';
import { ensureDemoFleet } from '../src/modules/lifts/demo-fleet.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { mosquittoMissing, startMosquitto, type PrivateMosquitto } from './support/mosquitto.ts';
import { rabbitmqMissing, rabbitmqServerEnv, startBrokerCluster, type BrokerCluster } from './support/broker-cluster.ts';
import { skipWithout } from './support/required.ts';
import { closedWithin, connectLift, publishEvent } from './support/lift-client.ts';
import { until } from './support/ports.ts';

/**
 * Per-lift credentials and topic ACLs, the same tests on every broker: the embedded one
 * (aedes hooks), Mosquitto with the dynamic-security plugin driven by the server, and a
 * three-node RabbitMQ cluster whose user database the server keeps (BROKER=rabbitmq).
 */
const MODES = ['embedded', 'mosquitto', 'rabbitmq'] as const;
const mosquittoSkipped = skipWithout('Mosquitto', mosquittoMissing);
const rabbitmqSkipped = skipWithout('RabbitMQ', rabbitmqMissing);

describe.each(MODES)('lift credentials and topic ACLs on the %s broker', (mode) => {
  const skip = (mode === 'mosquitto' && mosquittoSkipped) || (mode === 'rabbitmq' && rabbitmqSkipped);
  let broker: PrivateMosquitto | undefined;
  let cluster: BrokerCluster | undefined;
  let t: TestApp;
  let url: string;
  // C is the lift whose credentials a test resets and revokes: A and B keep theirs.
  const lifts: Record<'A' | 'B' | 'C', { id: string; deviceNo: string; secret: string }> = {} as never;
  const open: MqttClient[] = [];

  async function lift(name: 'A' | 'B' | 'C', secret = lifts[name].secret, options = {}): Promise<MqttClient> {
    const c = await connectLift(url, lifts[name].deviceNo, secret, options);
    open.push(c);
    return c;
  }

  async function storedEvent(name: 'A' | 'B' | 'C', seq: number): Promise<boolean> {
    const rows = await t.database.sql.query('select 1 from lift_events where lift_id = $1 and seq = $2', [lifts[name].id, seq]);
    return rows.length === 1;
  }

  beforeAll(async () => {
    if (skip) return;
    if (mode === 'mosquitto') broker = await startMosquitto();
    if (mode === 'rabbitmq') cluster = await startBrokerCluster('rabbitmq');
    const env = cluster ? rabbitmqServerEnv(cluster) : (broker?.env ?? {});
    const kind = mode !== 'embedded' && process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
    t = await startTestApp(kind, env);
    // On the cluster the lifts use the node the server's own connection is not on.
    url = broker?.url ?? cluster?.mqttUrls[1] ?? `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    const fleet = await ensureDemoFleet(t.database.sql, 3);
    for (const [name, demo] of [['A', fleet[0]!], ['B', fleet[1]!], ['C', fleet[2]!]] as const) {
      const [row] = await t.database.sql.query<{ id: string }>('select id from lifts where device_no = $1', [demo.deviceNo]);
      // Issued through the real path: stored hashed, registered with the broker.
      const issued = await t.app.deviceCredentials.issue(row!.id);
      lifts[name] = { id: row!.id, deviceNo: issued.deviceNo, secret: issued.secret };
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(open.map((c) => c.endAsync(true).catch(() => {})));
    await t?.close();
    await broker?.destroy();
    await cluster?.destroy();
  }, 60_000);

  it.skipIf(skip)('lets a lift use its own topics: its events are stored and its commands reach it', async () => {
    const a = await lift('A');
    const got: string[] = [];
    a.on('message', (topic) => got.push(topic));
    await a.subscribeAsync(liftTopic(lifts.A.deviceNo, 'cmd'), { qos: 1 });
    await publishEvent(a, lifts.A.deviceNo, 1_000_001, 'RZD1');
    await until('own event stored', () => storedEvent('A', 1_000_001), 10_000);
    await t.app.mqtt.publishAsync(liftTopic(lifts.A.deviceNo, 'cmd'), '{}', { qos: 1 });
    await until('own command received', () => got.length === 1, 5_000);
    expect(got).toEqual([liftTopic(lifts.A.deviceNo, 'cmd')]);
    await a.endAsync();
  });

  it.skipIf(skip)('keeps lift A out of lift B topics, wildcards included', async () => {
    const b = await lift('B');
    const bGot: string[] = [];
    b.on('message', (topic) => bGot.push(topic));
    await b.subscribeAsync(liftTopic(lifts.B.deviceNo, 'cmd'), { qos: 1 });

    const aGot: string[] = [];
    const heard = new Set<MqttClient>();
    const hear = (c: MqttClient) => {
      if (!heard.has(c)) c.on('message', (topic) => aGot.push(topic));
      heard.add(c);
      return c;
    };
    let a = hear(await lift('A'));
    const foreign = [
      liftTopic(lifts.B.deviceNo, 'cmd'),
      liftTopic(lifts.B.deviceNo, 'status'),
      `lifts/${lifts.B.deviceNo}/#`,
      'lifts/+/cmd',
      'lifts/+/+',
      'lifts/#',
      '#',
      '+/+/cmd',
      'liftlink-live/#',
      '$share/spy/lifts/#',
      // Its own topics, but by wildcard or uplink: also refused.
      `lifts/${lifts.A.deviceNo}/#`,
      liftTopic(lifts.A.deviceNo, 'status'),
    ];
    for (const filter of foreign) {
      // Mosquitto and aedes refuse in the SUBACK; RabbitMQ closes the connection.
      const decided = new AbortController();
      const outcome = await Promise.race([
        a.subscribeAsync(filter, { qos: 1 }).then(
          () => 'granted',
          () => 'refused',
        ),
        closedWithin(a, 10_000, decided.signal).then((closed) => (closed ? 'closed' : 'no answer')),
      ]).finally(() => decided.abort());
      expect(['refused', 'closed'], filter).toContain(outcome);
      if (!a.connected) a = hear(await lift('A'));
    }

    // Writing: B's uplink (forged data) and B's downlink (a forged command) must go nowhere.
    if (a.connected) {
      await Promise.race([publishEvent(a, lifts.B.deviceNo, 2_000_002, 'EA'), closedWithin(a, 3_000)]).catch(() => {});
    }
    const a2 = hear(a.connected ? a : await lift('A'));
    await Promise.race([a2.publishAsync(liftTopic(lifts.B.deviceNo, 'cmd'), '{"commandId":"x","name":"pause","args":{},"expiresAt":"2099-01-01T00:00:00.000Z"}', { qos: 1 }), closedWithin(a2, 3_000)]).catch(() => {});
    // A lift may not write its own downlink either (only the cloud commands it).
    const a3 = hear(a2.connected ? a2 : await lift('A'));
    await Promise.race([a3.publishAsync(liftTopic(lifts.A.deviceNo, 'cmd'), '{}', { qos: 1 }), closedWithin(a3, 3_000)]).catch(() => {});
    expect(aGot).toEqual([]);

    // A real command to B reaches B and only B. Then markers through the same paths: a
    // command to each lift and an event from B. Whatever leaked would have come before them.
    // A fresh connection: the broker may be closing the one that broke the rules.
    await a3.endAsync(true).catch(() => {});
    const a4 = hear(await lift('A'));
    await a4.subscribeAsync(liftTopic(lifts.A.deviceNo, 'cmd'), { qos: 1 });
    await t.app.mqtt.publishAsync(liftTopic(lifts.B.deviceNo, 'cmd'), '{}', { qos: 1 });
    await t.app.mqtt.publishAsync(liftTopic(lifts.A.deviceNo, 'cmd'), '{"marker":true}', { qos: 1 });
    await t.app.mqtt.publishAsync(liftTopic(lifts.B.deviceNo, 'cmd'), '{"marker":true}', { qos: 1 });
    await until('both markers received', () => aGot.length >= 1 && bGot.length >= 2, 10_000);
    expect(bGot).toEqual([liftTopic(lifts.B.deviceNo, 'cmd'), liftTopic(lifts.B.deviceNo, 'cmd')]);
    expect(aGot).toEqual([liftTopic(lifts.A.deviceNo, 'cmd')]);
    await publishEvent(b, lifts.B.deviceNo, 2_000_003, 'RZD1');
    await until('B marker event stored', () => storedEvent('B', 2_000_003), 10_000);
    expect(await storedEvent('B', 2_000_002)).toBe(false);
    expect(await storedEvent('A', 2_000_002)).toBe(false);
  });

  it.skipIf(skip)('refuses a wrong secret, another lift secret, and a client id that is not the device number', async () => {
    await expect(connectLift(url, lifts.A.deviceNo, 'not-the-secret')).rejects.toThrow();
    await expect(connectLift(url, lifts.A.deviceNo, lifts.B.secret)).rejects.toThrow();
    // RabbitMQ 3.10's own user database cannot tie a client id to its user (docs/operations.md 15.3).
    if (mode !== 'rabbitmq') await expect(connectLift(url, lifts.A.deviceNo, lifts.A.secret, { clientId: `${lifts.A.deviceNo}-spy` })).rejects.toThrow();
    // The server's own account is not a lift's to borrow.
    await expect(connectLift(url, 'liftlink-server', lifts.A.secret, { clientId: 'liftlink-server-x' })).rejects.toThrow();
  });

  // RabbitMQ 3.10 has no bound on an MQTT packet's length (docs/operations.md 15.3).
  it.skipIf(skip || mode === 'rabbitmq')('refuses a message a little too long and closes a connection whose packet is past the bound, logged in or not', async () => {
    // Not logged in: a CONNECT that declares 200 MB, then its first megabyte.
    const { hostname, port } = new URL(url);
    const stranger = net.connect(Number(port), hostname);
    stranger.on('error', () => {});
    const strangerClosed = new Promise<void>((resolve) => stranger.once('close', () => resolve()));
    await new Promise((resolve) => stranger.once('connect', resolve));
    stranger.write(Buffer.from([0x10, 0x80, 0x80, 0x80, 0x64]));
    stranger.write(Buffer.alloc(1_000_000, 'x'));
    await strangerClosed;

    // A lift: a status a little too long is acknowledged and refused as too large (the lift
    // must not send it again); one past the bound closes its connection.
    const before = t.app.ingest.stats().drops.tooLarge;
    const b = await lift('B');
    await b.publishAsync(liftTopic(lifts.B.deviceNo, 'status'), Buffer.alloc(20_000, ' '), { qos: 1 });
    await until('the long status refused', async () => t.app.ingest.stats().drops.tooLarge === before + 1, 10_000);
    b.publish(liftTopic(lifts.B.deviceNo, 'status'), Buffer.alloc(MAX_PACKET_BYTES, ' '), { qos: 1 });
    expect(await closedWithin(b, 10_000)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(t.app.ingest.stats().drops.tooLarge).toBe(before + 1);
    // And it may connect again.
    await publishEvent(await lift('B'), lifts.B.deviceNo, 4_000_004, 'RZD1');
    await until('its next event stored', () => storedEvent('B', 4_000_004), 10_000);
  });

  it.skipIf(skip)('refuses a reset credential at once and disconnects the lift still using it', async () => {
    const a = await lift('C');
    const old = lifts.C.secret;
    const fresh = await t.app.deviceCredentials.issue(lifts.C.id);
    expect(await closedWithin(a, 2_000)).toBe(true);
    await expect(connectLift(url, lifts.C.deviceNo, old)).rejects.toThrow();
    lifts.C.secret = fresh.secret;
    const again = await lift('C');
    await publishEvent(again, lifts.C.deviceNo, 3_000_003, 'RZD1');
    await until('event with the new secret stored', () => storedEvent('C', 3_000_003), 10_000);

    // Revoking: disconnected at once, and the secret no longer works.
    await t.app.deviceCredentials.revoke(lifts.C.id);
    expect(await closedWithin(again, 2_000)).toBe(true);
    await expect(connectLift(url, lifts.C.deviceNo, fresh.secret)).rejects.toThrow();
    // Lifts A and B were never touched.
    expect((await lift('A')).connected).toBe(true);
    const b = await lift('B');
    expect(b.connected).toBe(true);
  });
});
