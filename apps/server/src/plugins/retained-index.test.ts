import net from 'node:net';
import { once } from 'node:events';
import { Aedes } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexedRetainedPersistence } from './retained-index.ts';

/** What a new subscriber to `topics` is handed at once: the retained messages, as topic -> payload. */
async function retainedFor(port: number, topics: string[]): Promise<Record<string, string>> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId: `reader-${Math.random().toString(36).slice(2)}`, reconnectPeriod: 0 });
  await new Promise((resolve) => client.once('connect', resolve));
  const got: Record<string, string> = {};
  client.on('message', (topic, payload, packet) => {
    if (packet.retain) got[topic] = payload.toString();
  });
  await client.subscribeAsync(topics, { qos: 1 });
  // Retained messages are sent right after the SUBACK; a round trip later they are all in.
  await client.publishAsync('probe/flush', 'x', { qos: 1 });
  await client.endAsync();
  return got;
}

describe('embedded broker: retained messages looked up by topic', () => {
  let broker: Aedes;
  let server: net.Server;
  let port: number;
  let writer: MqttClient;

  beforeAll(async () => {
    broker = await Aedes.createBroker({ persistence: indexedRetainedPersistence() });
    server = net.createServer(broker.handle).listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as net.AddressInfo).port;
    writer = mqtt.connect(`mqtt://127.0.0.1:${port}`, { clientId: 'writer', reconnectPeriod: 0 });
    await new Promise((resolve) => writer.once('connect', resolve));
  });
  afterAll(async () => {
    await writer.endAsync();
    await new Promise<void>((r) => broker.close(() => r()));
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('hands a new subscriber the newest retained message of each exact topic, and nothing for a cleared one', async () => {
    await writer.publishAsync('lifts/A-1/presence', 'old', { qos: 1, retain: true });
    await writer.publishAsync('lifts/A-1/presence', 'new', { qos: 1, retain: true });
    await writer.publishAsync('lifts/B-2/presence', 'b', { qos: 1, retain: true });
    await writer.publishAsync('lifts/C-3/presence', 'c', { qos: 1, retain: true });
    await writer.publishAsync('lifts/C-3/presence', '', { qos: 1, retain: true });
    await writer.publishAsync('lifts/D-4/presence', 'not retained', { qos: 1 });

    expect(await retainedFor(port, ['lifts/A-1/presence', 'lifts/C-3/presence', 'lifts/D-4/presence'])).toEqual({ 'lifts/A-1/presence': 'new' });
    expect(await retainedFor(port, ['lifts/B-2/presence'])).toEqual({ 'lifts/B-2/presence': 'b' });
  });

  it('answers a wildcard subscription from every retained topic, as before', async () => {
    await writer.publishAsync('lifts/E-5/presence', 'e', { qos: 1, retain: true });
    await writer.publishAsync('lifts/E-5/presence', '', { qos: 1, retain: true });
    expect(await retainedFor(port, ['lifts/+/presence'])).toEqual({ 'lifts/A-1/presence': 'new', 'lifts/B-2/presence': 'b' });
  });
});
