import type { MqttClient } from 'mqtt';
import { DOWNLINK_TOPICS, UPLINK_TOPICS, liftTopic } from '@liftlink/protocol';
import { newToken } from '../../lib/crypto.ts';
import { jsonArrayParts, OWN_MESSAGE_BYTES } from '../../lib/json-parts.ts';
import { LIVE_TOPIC_ROOT } from '../live/bus.ts';

/** Mosquitto's dynamic-security control topic (plugin API v1). */
export const DYNSEC_TOPIC = '$CONTROL/dynamic-security/v1';
export const SERVER_ROLE = 'liftlink-server';
export const INGEST_SHARE_GROUP = 'liftlink-ingest';

export interface DynsecCommand {
  command: string;
  [key: string]: unknown;
}

export class DynsecError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`dynamic-security ${command}: ${reason}`);
  }
}

/** Errors that mean "already as wanted": creating what exists, deleting what is gone. */
const HARMLESS = /already exists|not found/i;

/** The role that confines one lift to its own topics (Mosquitto 2.0 ACLs have no %u substitution). */
export function liftRoleName(deviceNo: string): string {
  return `lift-${deviceNo}`;
}

export function liftRoleAcls(deviceNo: string): { acltype: string; topic: string; allow: boolean }[] {
  return [
    // Literal topics only: a wildcard filter such as lifts/+/cmd matches no literal ACL and is refused.
    ...UPLINK_TOPICS.map((k) => ({ acltype: 'publishClientSend', topic: liftTopic(deviceNo, k), allow: true })),
    ...DOWNLINK_TOPICS.map((k) => ({ acltype: 'subscribeLiteral', topic: liftTopic(deviceNo, k), allow: true })),
    ...DOWNLINK_TOPICS.map((k) => ({ acltype: 'publishClientReceive', topic: liftTopic(deviceNo, k), allow: true })),
  ];
}

/**
 * Adds today's ACLs to existing lift roles (an upgrade that added a topic). An ACL a role has
 * already, or a role that is gone, is left as it is; Mosquitto disconnects the clients of a
 * role it changed, and they come back under the reconnect rule with the new rights.
 */
export function grantLiftRoleAcls(dynsec: DynsecClient): (deviceNos: string[]) => Promise<void> {
  return (deviceNos) => dynsec.ensure(deviceNos.flatMap((deviceNo) => liftRoleAcls(deviceNo).map((acl) => ({ command: 'addRoleACL', rolename: liftRoleName(deviceNo), ...acl }))));
}

/** The server's own account: commands to every lift, ingest through the shared group, the live bus. */
export function serverRoleAcls(): { acltype: string; topic: string; allow: boolean }[] {
  const acls: { acltype: string; topic: string; allow: boolean }[] = [];
  for (const topic of ['lifts/#', `${LIVE_TOPIC_ROOT}/#`]) {
    acls.push({ acltype: 'publishClientSend', topic, allow: true }, { acltype: 'publishClientReceive', topic, allow: true }, { acltype: 'subscribePattern', topic, allow: true });
  }
  acls.push({ acltype: 'subscribePattern', topic: `$share/${INGEST_SHARE_GROUP}/lifts/#`, allow: true });
  return acls;
}

/** Upper bound of commands in one control message: Mosquitto saves its JSON file once per message. */
const MAX_COMMANDS_PER_MESSAGE = 500;
const ANSWER_TIMEOUT_MS = 10_000;

export interface DynsecAnswer {
  error?: string;
  data?: Record<string, unknown>;
}

interface Queued {
  command: DynsecCommand;
  resolve: (answer: DynsecAnswer) => void;
}

/**
 * Sends dynamic-security commands over the server's MQTT connection and matches the answers
 * by correlation data (every instance of the server sees every answer). Commands issued in
 * the same tick travel in one message, so provisioning a fleet is a few round trips, not one
 * per lift.
 */
export class DynsecClient {
  private readonly waiting = new Map<string, { settle: (answers: (i: number) => DynsecAnswer) => void }>();
  private queue: Queued[] = [];
  private scheduled = false;
  private sending = false;

  constructor(private readonly mqtt: MqttClient) {}

  async start(): Promise<void> {
    this.mqtt.on('message', (topic, payload) => {
      if (topic !== `${DYNSEC_TOPIC}/response`) return;
      let answer: { responses?: (DynsecAnswer & { command: string; correlationData?: string })[] };
      try {
        answer = JSON.parse(payload.toString('utf8')) as typeof answer;
      } catch {
        return;
      }
      const id = answer.responses?.[0]?.correlationData;
      const entry = id ? this.waiting.get(id) : undefined;
      entry?.settle((i) => answer.responses?.[i] ?? { error: 'no answer for this command' });
    });
    await this.mqtt.subscribeAsync(`${DYNSEC_TOPIC}/response`, { qos: 1 });
  }

  /** Runs commands in order; resolves to each one's answer (`error` set when it failed). */
  run(commands: DynsecCommand[]): Promise<DynsecAnswer[]> {
    const answers = commands.map((command) => new Promise<DynsecAnswer>((resolve) => this.queue.push({ command, resolve })));
    this.pump();
    return Promise.all(answers);
  }

  /** Like `run`, but throws on any error other than creating what exists or deleting what is gone. */
  async ensure(commands: DynsecCommand[]): Promise<void> {
    const answers = await this.run(commands);
    answers.forEach(({ error }, i) => {
      if (error && !HARMLESS.test(error)) throw new DynsecError(commands[i]!.command, error);
    });
  }

  /** One control message at a time: Mosquitto handles them in turn, and a queue of them would outlast the answer timeout. */
  private pump(): void {
    if (this.scheduled || this.sending || !this.queue.length) return;
    this.scheduled = true;
    // Commands issued in the same tick travel together.
    setImmediate(() => {
      this.scheduled = false;
      this.sendNext();
    });
  }

  private sendNext(): void {
    if (this.sending || !this.queue.length) return;
    this.sending = true;
    const id = newToken().slice(0, 16);
    // At most MAX_COMMANDS_PER_MESSAGE commands in OWN_MESSAGE_BYTES: Mosquitto closes a connection
    // that sends a packet over its `max_packet_size` (docs/operations.md 2.1), and 500 new lifts'
    // roles are more than that.
    const commands = jsonArrayParts(
      this.queue.slice(0, MAX_COMMANDS_PER_MESSAGE).map((q) => ({ ...q.command, correlationData: id })),
      OWN_MESSAGE_BYTES,
    ).next().value!;
    const queued = this.queue.splice(0, commands.count);
    let settled = false;
    const settle = (answers: (i: number) => DynsecAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      this.waiting.delete(id);
      queued.forEach((q, i) => q.resolve(answers(i)));
      this.sending = false;
      this.pump();
    };
    const timer = setTimeout(() => settle(() => ({ error: 'no answer from the broker' })), ANSWER_TIMEOUT_MS);
    this.waiting.set(id, { settle });
    this.mqtt.publish(DYNSEC_TOPIC, `{"commands":${commands.json}}`, { qos: 1 }, (err) => {
      if (err) settle(() => ({ error: `not sent: ${err.message}` }));
    });
  }

  close(): void {
    for (const entry of [...this.waiting.values()]) entry.settle(() => ({ error: 'closed' }));
    for (const q of this.queue.splice(0)) q.resolve({ error: 'closed' });
  }
}
