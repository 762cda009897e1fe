import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';
import type { LiveChange } from '@liftlink/protocol';
import { jsonArrayParts, OWN_MESSAGE_BYTES } from '../../lib/json-parts.ts';

/** Internal topic; lifts may not touch it (their ACL allows only `lifts/{own}/...`). */
export const LIVE_TOPIC_ROOT = 'liftlink-live';

/** The most bytes of changes in one live message: a batch of 2,000 statuses is about 400 KB, so a batch goes out in parts. */
export const LIVE_MESSAGE_BYTES = OWN_MESSAGE_BYTES;

/**
 * Live updates travel through the broker itself, so every server instance receives every
 * change, whichever instance stored it: a browser on instance 1 sees a command sent
 * through instance 2, and a command waiter hears its lift's answer wherever it was ingested.
 *
 * The instance that stored a change hands it to its own listeners directly and publishes it
 * on a topic of its own (`liftlink-live/<origin>`), which it skips when the broker brings it
 * back: its own waiters and browsers do not wait for a broker round trip, and it does not
 * read back every batch it wrote (docs/operations.md 7.1). The origin is made anew by each
 * process, so two instances can never take each other's changes for their own. Every
 * listener still hears each change once.
 *
 * With the embedded broker (`shared` false) no other instance can hear it anyway: nothing
 * goes to the broker.
 */
export class LiveBus {
  private readonly local = new EventEmitter();
  private readonly ownTopic = `${LIVE_TOPIC_ROOT}/${randomBytes(9).toString('base64url')}`;

  constructor(
    private readonly mqtt: MqttClient,
    private readonly shared: boolean,
  ) {
    this.local.setMaxListeners(0);
  }

  async start(): Promise<void> {
    if (!this.shared) return;
    this.mqtt.on('message', (topic, payload) => {
      if (!topic.startsWith(`${LIVE_TOPIC_ROOT}/`) || topic === this.ownTopic) return;
      let batch: LiveChange[];
      try {
        batch = JSON.parse(payload.toString('utf8')) as LiveChange[];
      } catch {
        return;
      }
      for (const msg of batch) this.local.emit('message', msg);
    });
    await this.mqtt.subscribeAsync(`${LIVE_TOPIC_ROOT}/#`, { qos: 1 });
  }

  /** Publishes after the data is stored; one MQTT message per batch keeps the broker's load low. */
  async publish(messages: LiveChange[]): Promise<void> {
    if (messages.length === 0) return;
    // Later, as from the broker: the storing code goes on before listeners run.
    setImmediate(() => {
      for (const msg of messages) this.local.emit('message', msg);
    });
    if (!this.shared) return;
    await Promise.all(liveMessageParts(messages).map((part) => this.mqtt.publishAsync(this.ownTopic, part, { qos: 1 })));
  }

  on(listener: (msg: LiveChange) => void): () => void {
    this.local.on('message', listener);
    return () => this.local.off('message', listener);
  }
}

/** A batch as JSON arrays of at most LIVE_MESSAGE_BYTES each, in order. A receiver reads each part as a batch of its own. */
export function liveMessageParts(messages: LiveChange[]): string[] {
  return [...jsonArrayParts(messages, LIVE_MESSAGE_BYTES)].map((part) => part.json);
}
