import { forEachAtMost } from '../../lib/at-most.ts';
import type { BrokerAdmin } from '../lifts/credentials.ts';
import { COMMAND_EXPIRY_POLICY, LIFT_SESSION_QUEUES, MQTT_VHOST, liftPermissions } from './rabbitmq-names.ts';
import type { RabbitApi } from './rabbitmq-api.ts';
import { encodeName } from './rabbitmq-api.ts';

/**
 * Lift accounts in the cluster's own user database (BROKER=rabbitmq). RabbitMQ replicates
 * users and permissions to every node, so lifts log in and are confined to their topics by
 * the cluster alone, even while every LiftLink server is down, and a reconnect storm never
 * reaches the server's database. A new or reset secret counts from the next login on
 * every node at once; the connection still open with the old one is closed here.
 */
export function rabbitmqBrokerAdmin(api: RabbitApi): BrokerAdmin {
  const vhost = encodeName(MQTT_VHOST);
  const closeConnections = (deviceNo: string) =>
    api.request('DELETE', `/api/connections/username/${encodeName(deviceNo)}`);
  return {
    async setDeviceCredential(deviceNo, secret) {
      const user = encodeName(deviceNo);
      const { permissions, topic } = liftPermissions(deviceNo);
      await api.request('PUT', `/api/users/${user}`, { password: secret, tags: '' });
      await api.request('PUT', `/api/permissions/${vhost}/${user}`, permissions);
      await api.request('PUT', `/api/topic-permissions/${vhost}/${user}`, topic);
      await closeConnections(deviceNo);
    },
    async removeDevice(deviceNo) {
      // Whatever the version does with the open connections of a deleted user: they end here.
      await api.request('DELETE', `/api/users/${encodeName(deviceNo)}`);
      await closeConnections(deviceNo);
    },
  };
}

/** Management API requests in flight at once while upgrading lift accounts. */
const GRANT_CONCURRENCY = 8;

/**
 * Writes today's topic permissions of existing lift users again (an upgrade that added a
 * topic). A lift whose user is missing is skipped with a warning: its next issued credentials
 * create it with the right permissions.
 */
export function grantLiftTopicPermissions(api: RabbitApi, warn: (deviceNo: string, err: unknown) => void): (deviceNos: string[]) => Promise<void> {
  const vhost = encodeName(MQTT_VHOST);
  const grantOne = (deviceNo: string) =>
    api.request('PUT', `/api/topic-permissions/${vhost}/${encodeName(deviceNo)}`, liftPermissions(deviceNo).topic).catch((err: unknown) => warn(deviceNo, err));
  // A few requests at once: one at a time, 20,000 lifts took minutes of round trips.
  return (deviceNos) => forEachAtMost(deviceNos, GRANT_CONCURRENCY, grantOne);
}

/**
 * Commands expire in the cluster too: a message waits in a lift's session queue at most
 * `ttlMs` (the server's COMMAND_WAIT_MS), the time its command is valid. Set at every start
 * (the last instance's wait counts); quorum queues honour it since RabbitMQ 3.10.
 */
export async function expireLiftCommands(api: RabbitApi, ttlMs: number): Promise<void> {
  await api.request('PUT', `/api/operator-policies/${encodeName(MQTT_VHOST)}/${COMMAND_EXPIRY_POLICY}`, {
    pattern: LIFT_SESSION_QUEUES,
    definition: { 'message-ttl': ttlMs },
    'apply-to': 'queues',
    priority: 0,
  });
}
