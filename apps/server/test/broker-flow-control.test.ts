import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { liftTopic, noDelay } from '@liftlink/protocol';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { embeddedBrokerPort, MESSAGES_IN_HAND_PER_LIFT } from '../src/plugins/mqtt.ts';
import { startTestApp, type TestApp } from './helpers.ts';
import { until } from './support/ports.ts';

/**
 * A lift that keeps sending while the server cannot store (the embedded database busy, a
 * server fallen behind) is held back at its connection: the server holds a few of its
 * messages, not all it sent, and stores every one, once and in order, when it can again.
 */
describe('the embedded broker holds a lift back while its messages cannot be stored', () => {
  let t: TestApp;
  let lift: DemoLift;
  let other: DemoLift;
  let client: MqttClient;
  /** The next run-log sequence number: each test sends its own. */
  let nextSeq = 1;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    [lift, other] = (await ensureDemoFleet(t.database.sql, 2)) as [DemoLift, DemoLift];
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${embeddedBrokerPort(t.app)}`, { clientId: lift.deviceNo, username: lift.deviceNo, password: lift.secret, clean: false, reconnectPeriod: 0 });
    // Each message in a TCP segment of its own, as a lift reporting now and then sends them.
    noDelay(client);
  }, 60_000);
  afterAll(async () => {
    await client?.endAsync(true).catch(() => {});
    await t?.close();
  });

  /** A lift connection written packet by packet (no MQTT client between): what the broker sent back collects in `received`. */
  async function connectBare(as: DemoLift): Promise<{ socket: net.Socket; received: Packet[] }> {
    const socket = net.connect(embeddedBrokerPort(t.app), '127.0.0.1');
    socket.setNoDelay(true);
    socket.on('error', () => {});
    const received: Packet[] = [];
    const parser = mqttPacket.parser();
    parser.on('packet', (p) => received.push(p));
    socket.on('data', (d) => parser.parse(d));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clientId: as.deviceNo, username: as.deviceNo, password: Buffer.from(as.secret), clean: true, keepalive: 60 }));
    await until('the connection accepted', async () => received.some((p) => p.cmd === 'connack' && p.returnCode === 0), 10_000);
    return { socket, received };
  }

  /** Holds the one embedded session: nothing is stored until `release()`, after which `holder` settles. */
  async function holdStorage(): Promise<{ release: () => void; holder: Promise<void> }> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const holder = t.database.sql.transaction(async (tx) => {
      await tx.query('select 1');
      opened();
      await held;
    });
    await isOpen;
    return { release, holder };
  }

  /**
   * Holds the one embedded session (nothing is stored until it ends) while `send` puts
   * `sent` run-log entries on the wire; then checks that the server held exactly its bound
   * and acknowledged none, and that once the session is free every entry is stored once, in order.
   */
  async function whileStorageIsHeld(sent: number, send: (publish: (seq: number) => void) => Promise<void>): Promise<void> {
    const { release, holder } = await holdStorage();

    let acknowledged = 0;
    const start = Date.now();
    const firstSeq = nextSeq;
    nextSeq += sent;
    try {
      await send((i) => {
        const seq = firstSeq + i;
        const entry = { seq, ts: new Date(start + i).toISOString(), code: 'RZGU' };
        client.publish(liftTopic(lift.deviceNo, 'event'), JSON.stringify(entry), { qos: 1 }, (err) => {
          if (!err) acknowledged++;
        });
      });
      // Everything is on the wire; the server has read what its bound allows and no more.
      await until('the bound reached', async () => t.app.messagesInHand() >= MESSAGES_IN_HAND_PER_LIFT, 10_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(t.app.messagesInHand()).toBe(MESSAGES_IN_HAND_PER_LIFT);
      expect(acknowledged).toBe(0);
    } finally {
      release();
      await holder;
    }
    await until('every message acknowledged', async () => acknowledged === sent, 30_000);
    expect(t.app.messagesInHand()).toBe(0);
    const rows = await t.database.sql.query<{ seq: string }>(`select seq from lift_events where lift_id = $1 and code = 'RZGU' and seq >= $2 order by n`, [lift.id, firstSeq]);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: sent }, (_, i) => firstSeq + i));
  }

  it('holds at most its bound of the lift\'s messages and stores all of them once the database is free', async () => {
    await whileStorageIsHeld(40, async (publish) => {
      for (let i = 0; i < 40; i++) {
        publish(i);
        await new Promise((r) => setTimeout(r, 15));
      }
    });
  }, 60_000);

  it('holds no more than its bound of a burst that arrives in one read', async () => {
    // All 60 in one write: a read of the socket would take them all at once.
    await whileStorageIsHeld(60, async (publish) => {
      const stream = client.stream;
      stream.cork();
      for (let i = 0; i < 60; i++) publish(i);
      process.nextTick(() => stream.uncork());
    });
  }, 60_000);

  it('stores every message a lift sent before it disconnected, though the server held them back', async () => {
    // A lift that sends its last reports and a DISCONNECT, then closes: the reports past the
    // bound wait in the gate and the socket when the end of the stream arrives.
    const { socket } = await connectBare(other);

    const { release, holder } = await holdStorage();
    const sent = 30;
    const firstSeq = 1_000;
    const start = Date.now();
    try {
      const packets = Array.from({ length: sent }, (_, i) =>
        mqttPacket.generate({ cmd: 'publish', topic: liftTopic(other.deviceNo, 'event'), payload: JSON.stringify({ seq: firstSeq + i, ts: new Date(start + i).toISOString(), code: 'RZGU' }), qos: 1, messageId: i + 1, dup: false, retain: false }),
      );
      socket.end(Buffer.concat([...packets, mqttPacket.generate({ cmd: 'disconnect' })]));
      await until('the bound reached', async () => t.app.messagesInHand() >= MESSAGES_IN_HAND_PER_LIFT, 10_000);
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      release();
      await holder;
    }
    const stored = async () => (await t.database.sql.query<{ seq: string }>(`select e.seq from lift_events e join lifts l on l.id = e.lift_id where l.device_no = $1 and e.code = 'RZGU' and e.seq >= $2 order by e.n`, [other.deviceNo, firstSeq])).map((r) => Number(r.seq));
    await until('every message stored', async () => (await stored()).length === sent, 15_000).catch(() => {});
    expect(await stored()).toEqual(Array.from({ length: sent }, (_, i) => firstSeq + i));
    expect(t.app.messagesInHand()).toBe(0);
  }, 60_000);

  it('stores a long message that arrives in pieces, its header split among them', async () => {
    const { socket, received } = await connectBare(other);

    // A run-log entry padded to 12 KB (JSON allows the spaces), sent in three pieces.
    const payload = JSON.stringify({ seq: 1, ts: new Date().toISOString(), code: 'RZGU' }) + ' '.repeat(12_000);
    const wire = mqttPacket.generate({ cmd: 'publish', topic: liftTopic(other.deviceNo, 'event'), payload, qos: 1, messageId: 7, dup: false, retain: false });
    for (const [from, to] of [[0, 2], [2, 6_000], [6_000, wire.length]]) {
      socket.write(wire.subarray(from, to));
      await new Promise((r) => setTimeout(r, 100));
    }
    await until('the message acknowledged', async () => received.some((p) => p.cmd === 'puback' && p.messageId === 7), 10_000);
    const rows = await t.database.sql.query<{ seq: string }>(`select e.seq from lift_events e join lifts l on l.id = e.lift_id where l.device_no = $1 and e.code = 'RZGU' and e.seq < 1000`, [other.deviceNo]);
    expect(rows.map((r) => Number(r.seq))).toEqual([1]);
    socket.destroy();
  }, 30_000);
});
