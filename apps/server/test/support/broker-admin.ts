import mqtt from 'mqtt';
import { DynsecClient } from '../../src/modules/broker/dynsec.ts';
import { dynsecBrokerAdmin } from '../../src/modules/broker/plugin.ts';
import type { BrokerAdmin } from '../../src/modules/lifts/credentials.ts';
import type { PrivateMosquitto } from './mosquitto.ts';

/** The dynamic-security admin, from the test's side, to register lifts it provisioned in the database. */
export async function brokerAdminFor(broker: PrivateMosquitto): Promise<{ admin: BrokerAdmin; close: () => Promise<void> }> {
  const client = await mqtt.connectAsync(broker.url, { username: broker.username, password: broker.password, clientId: `test-admin-${Math.random().toString(36).slice(2, 8)}`, reconnectPeriod: 500 });
  const dynsec = new DynsecClient(client);
  await dynsec.start();
  return {
    admin: dynsecBrokerAdmin(dynsec),
    close: async () => {
      dynsec.close();
      await client.endAsync(true);
    },
  };
}
