import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BrokerAdmin } from '../lifts/credentials.ts';
import { expireLiftCommands, grantLiftTopicPermissions, rabbitmqBrokerAdmin } from './rabbitmq-admin.ts';
import { upgradeLiftRights } from './lift-rights.ts';
import { RabbitApi } from './rabbitmq-api.ts';
import { DynsecClient, SERVER_ROLE, type DynsecCommand, grantLiftRoleAcls, liftRoleAcls, liftRoleName, serverRoleAcls } from './dynsec.ts';

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

type Acl = ReturnType<typeof serverRoleAcls>[number];

/** What the server's account still lacks: its role, an ACL of it, or membership. */
async function missingServerRights(dynsec: DynsecClient, username: string): Promise<DynsecCommand[]> {
  const [role, client] = await dynsec.run([
    { command: 'getRole', rolename: SERVER_ROLE },
    { command: 'getClient', username },
  ]);
  if (client!.error) throw new Error(`MQTT_USERNAME ${username} is not a dynamic-security client: ${client!.error}`);
  const wanted = serverRoleAcls();
  const commands: DynsecCommand[] = [];
  if (role!.error) commands.push({ command: 'createRole', rolename: SERVER_ROLE, acls: wanted });
  else {
    const have = ((role!.data?.role as { acls?: Acl[] } | undefined)?.acls ?? []).map((a) => `${a.acltype} ${a.topic}`);
    for (const acl of wanted) if (!have.includes(`${acl.acltype} ${acl.topic}`)) commands.push({ command: 'addRoleACL', rolename: SERVER_ROLE, ...acl });
  }
  const roles = (client!.data?.client as { roles?: { rolename: string }[] } | undefined)?.roles ?? [];
  if (!roles.some((r) => r.rolename === SERVER_ROLE)) commands.push({ command: 'addClientRole', username, rolename: SERVER_ROLE, priority: 10 });
  return commands;
}

/**
 * Gives the lifts provisioned before a version that added a topic the rights to it (once per
 * change), in the background once the server is ready: with tens of thousands of lifts this
 * is as many broker requests, and the server must take logins and users meanwhile (the
 * lifts keep the rights they had until then). A failure does not stop the server: it is
 * logged and tried again at the next start; so is work cut short by the server's stop.
 */
function upgradeRightsWhenReady(app: FastifyInstance, broker: 'mosquitto' | 'rabbitmq', grant: (deviceNos: string[]) => Promise<void>): void {
  const stop = new AbortController();
  let running: Promise<void> = Promise.resolve();
  app.addHook('onReady', async () => {
    running = upgradeLiftRights(app.database.sql, broker, grant, stop.signal).then(
      (upgraded) => {
        if (upgraded) app.log.info({ lifts: upgraded, broker }, 'lift broker rights upgraded to the current topics');
      },
      (err: unknown) => {
        if (!stop.signal.aborted) app.log.warn({ err: err instanceof Error ? err.message : err, broker }, 'lift broker rights not upgraded; trying again at the next start');
      },
    );
  });
  // Before the database and the broker connection close under it.
  app.addHook('preClose', async () => {
    stop.abort();
    await running;
  });
}

/**
 * BROKER=rabbitmq: the lift accounts live in the cluster's user database, managed through
 * the management API with the server's account (it needs the `administrator` tag). Checked
 * at the start, so a wrong account stops the server with one line instead of failing at
 * the first provisioning; then the lifts' session queues get the commands' expiry.
 */
async function rabbitmqAdmin(app: FastifyInstance): Promise<void> {
  const { rabbitmq, mqttUsername, mqttPassword } = app.config;
  const api = new RabbitApi(rabbitmq!.apiUrls, mqttUsername!, mqttPassword!);
  const me = (await api.request('GET', '/api/whoami')) as { name?: string; tags?: string | string[] } | null;
  const tags = Array.isArray(me?.tags) ? me.tags : String(me?.tags ?? '').split(',');
  if (!tags.includes('administrator')) throw new Error(`RabbitMQ user ${mqttUsername} needs the administrator tag to keep the lift accounts (rabbitmqctl set_user_tags ${mqttUsername} administrator)`);
  await expireLiftCommands(api, app.config.commandWaitMs);
  const warn = (deviceNo: string, err: unknown) => app.log.warn({ deviceNo, err: err instanceof Error ? err.message : err }, 'lift topic permissions not upgraded');
  upgradeRightsWhenReady(app, 'rabbitmq', grantLiftTopicPermissions(api, warn));
  app.decorate('brokerAdmin', rabbitmqBrokerAdmin(api));
}

export default fp(async (app) => {
  const { config } = app;
  if (config.broker === 'rabbitmq') return rabbitmqAdmin(app);
  if (!config.mqttUrl || !config.mqttDynsec) return;
  if (!config.mqttUsername) throw new Error('MQTT_DYNSEC=true needs MQTT_USERNAME and MQTT_PASSWORD of the dynamic-security admin account');
  const dynsec = new DynsecClient(app.mqtt);
  await dynsec.start();
  // Only on the first start (or after an upgrade) is anything missing. Mosquitto then
  // disconnects every client of the changed role, this one included, so the answer may
  // never arrive: wait for the reconnection and check again.
  for (let attempt = 1; ; attempt++) {
    const missing = await missingServerRights(dynsec, config.mqttUsername);
    if (!missing.length) break;
    if (attempt > 3) throw new Error(`cannot give ${config.mqttUsername} the ${SERVER_ROLE} role: ${JSON.stringify(missing)}`);
    const reconnected = new Promise((resolve) => app.mqtt.once('close', () => app.mqtt.once('connect', resolve)));
    void dynsec.run(missing);
    await Promise.race([reconnected, new Promise((r) => setTimeout(r, 3_000))]);
  }
  // A version that added a topic gives it to the lifts provisioned before (once).
  upgradeRightsWhenReady(app, 'mosquitto', grantLiftRoleAcls(dynsec));
  app.decorate('brokerAdmin', dynsecBrokerAdmin(dynsec));
  app.addHook('onClose', async () => dynsec.close());
});
