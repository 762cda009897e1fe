import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
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
  let client: MqttClient;

  beforeAll(async () => {
    t = await startTestApp('pglite');
    [lift] = (await ensureDemoFleet(t.database.sql, 1)) as [DemoLift];
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${embeddedBrokerPort(t.app)}`, { clientId: lift.deviceNo, username: lift.deviceNo, password: lift.secret, clean: false, reconnectPeriod: 0 });
    // Each message in a TCP segment of its own, as a lift reporting now and then sends them.
    noDelay(client);
  }, 60_000);
  afterAll(async () => {
    await client?.endAsync(true).catch(() => {});
    await t?.close();
  });

  it('holds at most its bound of the lift\'s messages and stores all of them once the database is free', async () => {
    const SENT = 40;
    // The one embedded session, held by a transaction: nothing is stored until it ends.
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

    let acknowledged = 0;
    const start = Date.now();
    try {
      for (let seq = 1; seq <= SENT; seq++) {
        const entry = { seq, ts: new Date(start + seq).toISOString(), code: 'RZGU' };
        client.publish(liftTopic(lift.deviceNo, 'event'), JSON.stringify(entry), { qos: 1 }, (err) => {
          if (!err) acknowledged++;
        });
        await new Promise((r) => setTimeout(r, 15));
      }
      // Everything is on the wire; the server has read what its bound allows and no more.
      await until('the bound reached', async () => t.app.messagesInHand() >= MESSAGES_IN_HAND_PER_LIFT, 10_000);
      await new Promise((r) => setTimeout(r, 500));
      expect(t.app.messagesInHand()).toBe(MESSAGES_IN_HAND_PER_LIFT);
      expect(acknowledged).toBe(0);
    } finally {
      release();
      await holder;
    }
    await until('every message acknowledged', async () => acknowledged === SENT, 30_000);
    expect(t.app.messagesInHand()).toBe(0);
    const rows = await t.database.sql.query<{ seq: string }>(`select seq from lift_events where lift_id = $1 and code = 'RZGU' order by n`, [lift.id]);
    expect(rows.map((r) => Number(r.seq))).toEqual(Array.from({ length: SENT }, (_, i) => i + 1));
  }, 60_000);
});
