import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import { startMosquitto, mosquittoMissing, type PrivateMosquitto } from '../../../test/support/mosquitto.ts';
import { skipWithout } from '../../../test/support/required.ts';
import { connectLift } from '../../../test/support/lift-client.ts';
import { DynsecClient } from './dynsec.ts';
import { dynsecBrokerAdmin } from './plugin.ts';

/** Lift accounts kept in Mosquitto's dynamic-security plugin, on a real Mosquitto configured as in production (docs/operations.md 2.1). */
describe.skipIf(skipWithout('Mosquitto', mosquittoMissing))('lift accounts in Mosquitto', () => {
  let broker: PrivateMosquitto;
  let admin: MqttClient;

  beforeAll(async () => {
    broker = await startMosquitto({ serverRights: true });
    admin = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, reconnectPeriod: 0 });
  }, 60_000);
  afterAll(async () => {
    await admin?.endAsync(true).catch(() => {});
    await broker?.destroy();
  });

  it('issues a bench batch of lifts at once, within the longest packet the broker takes', async () => {
    const dynsec = new DynsecClient(admin);
    await dynsec.start();
    const accounts = dynsecBrokerAdmin(dynsec);
    // 300 lifts issued in the same tick: their commands would travel together, about 350 KB.
    const lifts = Array.from({ length: 300 }, (_, i) => ({ deviceNo: `LL-BATCH-${String(i).padStart(4, '0')}`, secret: `secret-${i}-${'s'.repeat(32)}` }));
    await Promise.all(lifts.map((l) => accounts.setDeviceCredential(l.deviceNo, l.secret)));
    expect(admin.connected).toBe(true);
    for (const l of [lifts[0]!, lifts[150]!, lifts[299]!]) {
      const lift = await connectLift(broker.url, l.deviceNo, l.secret);
      await lift.endAsync();
    }
  }, 60_000);
});
