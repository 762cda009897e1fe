import { EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';
import type { CommandState, LiftStatus, PresenceReason, RefusalReason } from '@liftlink/protocol';
import type { AlertView } from '../alerts/repository.ts';

/** What browsers are told about a lift; also what command waiters listen for. */
export type LiveMessage =
  | { type: 'status'; liftId: string; seq: number; ts: string; status: LiftStatus }
  /** A run-log entry; `reason` only on the cloud's ONLINE / OFFLINE entries (whose seq is negative). */
  | { type: 'event'; liftId: string; id: number; seq: number; ts: string; code: string; floor: number | null; fault: boolean; reason?: PresenceReason | null }
  | { type: 'presence'; liftId: string; online: boolean; ts: string }
  | { type: 'command'; liftId: string; commandId: string; name: string; state: CommandState; reason: RefusalReason | null }
  | { type: 'config'; liftId: string; version: number }
  | { type: 'alert'; liftId: string; alert: AlertView };

/** Internal topic; lifts may not touch it (their ACL allows only `lifts/{own}/...`). */
export const LIVE_TOPIC_ROOT = 'liftlink-live';

/**
 * Live updates travel through the broker itself, so every server instance receives every
 * change, whichever instance stored it: a browser on instance 1 sees a command sent
 * through instance 2, and a command waiter hears its lift's answer wherever it was ingested.
 *
 * With the embedded broker (`shared` false) no other instance can hear it anyway: the
 * changes are handed to the listeners in this process directly, without serialising every
 * batch, sending it to the broker and reading it back (a tenth of the embedded server's
 * work during ingest).
 */
export class LiveBus {
  private readonly local = new EventEmitter();

  constructor(
    private readonly mqtt: MqttClient,
    private readonly shared: boolean,
  ) {
    this.local.setMaxListeners(0);
  }

  async start(): Promise<void> {
    if (!this.shared) return;
    this.mqtt.on('message', (topic, payload) => {
      if (!topic.startsWith(`${LIVE_TOPIC_ROOT}/`)) return;
      let batch: LiveMessage[];
      try {
        batch = JSON.parse(payload.toString('utf8')) as LiveMessage[];
      } catch {
        return;
      }
      for (const msg of batch) this.local.emit('message', msg);
    });
    await this.mqtt.subscribeAsync(`${LIVE_TOPIC_ROOT}/#`, { qos: 1 });
  }

  /** Publishes after the data is stored; one MQTT message per batch keeps the broker's load low. */
  async publish(messages: LiveMessage[]): Promise<void> {
    if (messages.length === 0) return;
    if (!this.shared) {
      // Later, as from the broker: the storing code goes on before listeners run.
      setImmediate(() => {
        for (const msg of messages) this.local.emit('message', msg);
      });
      return;
    }
    await this.mqtt.publishAsync(`${LIVE_TOPIC_ROOT}/all`, JSON.stringify(messages), { qos: 1 });
  }

  on(listener: (msg: LiveMessage) => void): () => void {
    this.local.on('message', listener);
    return () => this.local.off('message', listener);
  }
}
