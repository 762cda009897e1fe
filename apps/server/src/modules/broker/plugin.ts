import fp from 'fastify-plugin';
import type { BrokerAdmin } from '../lifts/credentials.ts';
import { DynsecClient, SERVER_ROLE, liftRoleAcls, liftRoleName, serverRoleAcls } from './dynsec.ts';

/**
 * Mosquitto in production mode (MQTT_URL + MQTT_DYNSEC=true): lift accounts and their topic
 * ACLs live in Mosquitto's dynamic-security plugin, driven from the server's admin account
 * (MQTT_USERNAME, created with `mosquitto_ctrl dynsec init`). On start the server gives its
 * own account the `liftlink-server` role, before ingest subscribes. Each lift gets a client
 * (username and client id = device number) and a role allowing only its own topics;
 * replacing or deleting a client makes Mosquitto disconnect anyone connected with it.
 */
export function dynsecBrokerAdmin(dynsec: DynsecClient): BrokerAdmin {
  return {
    async setDeviceCredential(deviceNo, secret) {
      const rolename = liftRoleName(deviceNo);
      await dynsec.ensure([
        { command: 'createRole', rolename, acls: liftRoleAcls(deviceNo) },
        // Delete first: a reset credential stops working at once and a connected lift using it is kicked.
        { command: 'deleteClient', username: deviceNo },
        { command: 'createClient', username: deviceNo, clientid: deviceNo, password: secret, roles: [{ rolename }] },
      ]);
    },
    async removeDevice(deviceNo) {
      await dynsec.ensure([
        { command: 'deleteClient', username: deviceNo },
        { command: 'deleteRole', rolename: liftRoleName(deviceNo) },
      ]);
    },
  };
}

export default fp(async (app) => {
  const { config } = app;
  if (!config.mqttUrl || !config.mqttDynsec) return;
  if (!config.mqttUsername) throw new Error('MQTT_DYNSEC=true needs MQTT_USERNAME and MQTT_PASSWORD of the dynamic-security admin account');
  const dynsec = new DynsecClient(app.mqtt);
  await dynsec.start();
  await dynsec.ensure([
    { command: 'createRole', rolename: SERVER_ROLE, acls: serverRoleAcls() },
    // An older role of the same name gains what this version needs.
    ...serverRoleAcls().map((acl) => ({ command: 'addRoleACL', rolename: SERVER_ROLE, ...acl })),
    { command: 'addClientRole', username: config.mqttUsername, rolename: SERVER_ROLE, priority: 10 },
  ]);
  app.decorate('brokerAdmin', dynsecBrokerAdmin(dynsec));
  app.addHook('onClose', async () => dynsec.close());
});
