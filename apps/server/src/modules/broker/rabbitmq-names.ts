import { DOWNLINK_TOPICS, UPLINK_TOPICS } from '@liftlink/protocol';

/**
 * How RabbitMQ's MQTT plugin names what a lift uses. MQTT topics become routing keys on
 * `amq.topic` with `/` and `.` swapped (lifts/X/config/set -> lifts.X.config.set); a
 * lift's persistent session is the queue `mqtt-subscription-{clientId}qos1`.
 */
export const MQTT_EXCHANGE = 'amq.topic';
/** The MQTT plugin's virtual host (`mqtt.vhost`, RabbitMQ's default). */
export const MQTT_VHOST = '/';
/** The quorum queue every server instance consumes lift messages from (competing consumers). */
export const INGEST_QUEUE = 'liftlink-ingest';

/**
 * The operator policy that gives the lifts' session queues a message TTL (docs/operations.md
 * 15.3): a command not delivered within the server's wait is dropped by the cluster, also
 * one that a lost connection handed back to the queue. An operator policy, so that it
 * combines with the operators' own policies instead of being hidden by one of them.
 */
export const COMMAND_EXPIRY_POLICY = 'liftlink-command-expiry';

/** Every lift's session queues: device numbers are [A-Z0-9-], the servers' own client ids lower case. */
export const LIFT_SESSION_QUEUES = '^mqtt-subscription-[A-Z0-9-]+qos[01]$';

/** MQTT topic <-> AMQP routing key: the plugin swaps `/` and `.` (its own mapping is its own inverse). */
export function swapSeparators(name: string): string {
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}

/** The routing keys the ingest queue is bound with: every lift's uplink topics. */
export function ingestBindings(): string[] {
  return UPLINK_TOPICS.map((kind) => swapSeparators(`lifts/*/${kind}`));
}

const alternatives = (kinds: readonly string[]) =>
  kinds.map((k) => swapSeparators(k).replaceAll('.', '\\.')).join('|');

/**
 * A lift's rights, as RabbitMQ permission patterns: its own session queues (clean and
 * persistent sessions), publishing only its uplink topics and binding only its downlink
 * topics. Device numbers are [A-Z0-9-] (deviceNoSchema): nothing in them needs escaping.
 */
export function liftPermissions(deviceNo: string): {
  permissions: { configure: string; write: string; read: string };
  topic: { exchange: string; write: string; read: string };
} {
  const sessionQueues = `mqtt-subscription-${deviceNo}qos[01]`;
  return {
    permissions: {
      configure: `^${sessionQueues}$`,
      write: `^(amq\\.topic|${sessionQueues})$`,
      read: `^(amq\\.topic|${sessionQueues})$`,
    },
    topic: {
      exchange: MQTT_EXCHANGE,
      write: `^lifts\\.${deviceNo}\\.(${alternatives(UPLINK_TOPICS)})$`,
      read: `^lifts\\.${deviceNo}\\.(${alternatives(DOWNLINK_TOPICS)})$`,
    },
  };
}
