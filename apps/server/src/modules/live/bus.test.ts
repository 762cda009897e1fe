import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import type { LiveChange } from '@liftlink/protocol';
import { startMosquitto, mosquittoMissing, type PrivateMosquitto } from '../../../test/support/mosquitto.ts';
import { skipWithout } from '../../../test/support/required.ts';
import { until } from '../../../test/support/ports.ts';
import { LIVE_MESSAGE_BYTES, LiveBus, liveMessageParts } from './bus.ts';

const event = (i: number, note = ''): LiveChange => ({ type: 'event', liftId: `lift-${i % 50}`, id: i, seq: i, ts: new Date(1_800_000_000_000 + i).toISOString(), code: `RZ${note}`, floor: i % 7, fault: false });

describe('a batch of live changes in parts', () => {
  it('keeps every change once, in order, each part within its bound', () => {
    const batch = Array.from({ length: 2_000 }, (_, i) => event(i));
    const parts = liveMessageParts(batch);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(LIVE_MESSAGE_BYTES);
    expect(parts.flatMap((p) => JSON.parse(p) as LiveChange[])).toEqual(batch);
    expect(liveMessageParts([])).toEqual([]);
    // A change longer than a part goes alone.
    const long = event(1, 'X'.repeat(LIVE_MESSAGE_BYTES));
    expect(liveMessageParts([event(0), long, event(2)]).map((p) => (JSON.parse(p) as LiveChange[]).length)).toEqual([1, 1, 1]);
  });
});

/** Two server instances' buses on one Mosquitto, configured as in production (docs/operations.md 2.1). */
describe.skipIf(skipWithout('Mosquitto', mosquittoMissing))('the live bus between instances on Mosquitto', () => {
  let broker: PrivateMosquitto;
  const clients: MqttClient[] = [];
  const instance = async () => {
    const client = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
    clients.push(client);
    const bus = new LiveBus(client, true);
    await bus.start();
    return { client, bus };
  };

  beforeAll(async () => {
    broker = await startMosquitto({ serverRights: true });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    await broker?.destroy();
  });

  it('carries a whole ingest batch to the other instance, and the storing one stays connected', async () => {
    const storing = await instance();
    const other = await instance();
    const heard: LiveChange[] = [];
    other.bus.on((change) => heard.push(change));
    // An ingest batch at its largest: 2,000 changes, about 400 KB, more than the broker takes in one packet.
    const batch = Array.from({ length: 2_000 }, (_, i) => event(i));
    await storing.bus.publish(batch);
    await until('every change heard', async () => heard.length >= batch.length, 10_000);
    expect(heard).toEqual(batch);
    expect(storing.client.connected).toBe(true);
  }, 30_000);
});
