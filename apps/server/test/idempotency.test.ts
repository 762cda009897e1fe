import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { openPostgres, type Database } from '../src/db/client.ts';
import { mosquittoMissing, startMosquitto, type PrivateMosquitto } from './support/mosquitto.ts';
import { skipWithout } from './support/required.ts';
import { createDatabase, privatePostgresMissing, startPrivatePostgres, type PrivatePostgres } from './support/postgres.ts';
import { signIn, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { until } from './support/ports.ts';

/**
 * No replays across instances (docs/remote-control.md): the same click reaching two server
 * instances at once (a retry through another proxy route) creates one command, the lift gets
 * it once, and both answers carry its id; a cancel reaching the other instance than the
 * command still stops it in its cancel window.
 */
const skip = skipWithout('Mosquitto and PostgreSQL', mosquittoMissing ?? (process.env.TEST_DATABASE_URL ? null : privatePostgresMissing));

let keys = 0;
const newKey = () => `idem-${Date.now().toString(36)}-${++keys}-${Math.random().toString(36).slice(2, 8)}`;

describe.skipIf(skip)('one click on two server instances sharing PostgreSQL and Mosquitto', () => {
  let broker: PrivateMosquitto;
  let privatePg: PrivatePostgres | undefined;
  let db: { url: string; drop: () => Promise<void> };
  let database: Database;
  let one: ServerProcess;
  let two: ServerProcess;
  let tokenOne: string;
  let tokenTwo: string;
  let liftId: string;
  let observer: MqttClient;
  /** What the lift's command topic carried. */
  const wire: { commandId: string }[] = [];

  beforeAll(async () => {
    broker = await startMosquitto();
    let adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) {
      privatePg = await startPrivatePostgres();
      adminUrl = privatePg.url;
    }
    db = await createDatabase(adminUrl);
    // The real cancel window (3 s): the cancel test needs it, and the others wait it out.
    // No calls on site: each would end the lease the commands run under (local use).
    const env = { ...broker.env, DATABASE_URL: db.url, HEARTBEAT_SECONDS: '20', COMMAND_WAIT_MS: '20000', DEMO_LOCAL_CALLS_PER_HOUR: '0' };
    one = await startServerProcess({ ...env, INSTANCE_ID: 'one', SIMULATOR: '1' });
    two = await startServerProcess({ ...env, INSTANCE_ID: 'two' });
    database = await openPostgres(db.url);
    observer = await mqtt.connectAsync(broker.url, { clientId: `observer-${Date.now()}`, username: broker.env.MQTT_USERNAME, password: broker.env.MQTT_PASSWORD, reconnectPeriod: 0 });
    observer.on('message', (_topic, payload) => wire.push(JSON.parse(payload.toString()) as { commandId: string }));
    await observer.subscribeAsync('lifts/DEMO-0001/cmd', { qos: 1 });
    tokenOne = await signIn(one);
    tokenTwo = await signIn(two);
    const [demo] = await database.sql.query<{ id: string }>(`select id from lifts where device_no = 'DEMO-0001'`);
    liftId = demo!.id;
    await until('demo lift online', async () => (await one.api('POST', '/auth/access/lift/getInfo', { liftId }, tokenOne)).body.result?.lift.online === true, 60_000);
  }, 120_000);

  afterAll(async () => {
    await observer?.endAsync(true).catch(() => {});
    await one?.stop();
    await two?.stop();
    await database?.close();
    await db?.drop().catch(() => {});
    await privatePg?.destroy();
    await broker?.destroy();
  });

  const keyLights = (server: ServerProcess, token: string, idempotencyKey: string) =>
    server.api('POST', '/auth/access/lift/control', { liftId, command: 'test', args: { item: 'keyLights' }, idempotencyKey }, token);
  const rowsOf = (key: string) => database.sql.query<{ id: string; state: string }>(`select id, state from lift_commands where idempotency_key = $1`, [key]);

  it('creates one command for the same key reaching both instances at once, sends it once, and answers both with it', async () => {
    const key = newKey();
    const [a, b] = await Promise.all([keyLights(one, tokenOne, key), keyLights(two, tokenTwo, key)]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect(a.body.result.commandId).toBe(b.body.result.commandId);
    expect(a.body.result.state).toBe(b.body.result.state);
    expect(await rowsOf(key)).toHaveLength(1);
    // Time for a second copy to have reached the lift, had one been sent.
    await new Promise((r) => setTimeout(r, 500));
    expect(wire.filter((w) => w.commandId === a.body.result.commandId)).toHaveLength(1);
  }, 60_000);

  it('answers a double request on one instance with the one command', async () => {
    const key = newKey();
    const [a, b] = await Promise.all([keyLights(one, tokenOne, key), keyLights(one, tokenOne, key)]);
    expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
    expect(a.body.result.commandId).toBe(b.body.result.commandId);
    expect(await rowsOf(key)).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(wire.filter((w) => w.commandId === a.body.result.commandId)).toHaveLength(1);
  }, 60_000);

  it('cancels through the other instance a command waiting in its cancel window on the first', async () => {
    const key = newKey();
    const pending = keyLights(one, tokenOne, key);
    await until('the command in its window', async () => (await rowsOf(key)).length === 1, 2_500);
    const cancel = await two.api('POST', '/auth/access/lift/command/cancel', { liftId, idempotencyKey: key }, tokenTwo);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const answer = await pending;
    expect([answer.status, answer.body.code]).toEqual([409, 'lift.refused']);
    expect(answer.body.result).toMatchObject({ commandId: cancel.body.result.commandId, state: 'cancelled', reason: 'cancelled' });
    await new Promise((r) => setTimeout(r, 3_500));
    expect(wire.filter((w) => w.commandId === cancel.body.result.commandId)).toEqual([]);
    expect((await rowsOf(key))[0]!.state).toBe('cancelled');
  }, 60_000);
});
