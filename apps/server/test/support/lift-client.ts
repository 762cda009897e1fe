import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { liftTopic } from '@liftlink/protocol';

/** A bare lift connection: the device's MQTT identity without the simulator's behaviour. */
export function connectLift(url: string, deviceNo: string, secret: string, options: Partial<IClientOptions> = {}): Promise<MqttClient> {
  return mqtt.connectAsync(url, { clientId: deviceNo, username: deviceNo, password: secret, reconnectPeriod: 0, connectTimeout: 5_000, clean: true, ...options });
}

/** Publishes a run-log event the way a lift does (QoS 1); resolves on the broker's PUBACK. */
export async function publishEvent(client: MqttClient, deviceNo: string, seq: number, code = 'RZGU'): Promise<void> {
  await client.publishAsync(liftTopic(deviceNo, 'event'), JSON.stringify({ seq, ts: new Date().toISOString(), code }), { qos: 1 });
}

/**
 * Resolves when the connection closes (the broker dropped it), or false after `ms` or once
 * `settled` aborts (a race this took part in was decided otherwise): its listener goes then.
 */
export function closedWithin(client: MqttClient, ms: number, settled?: AbortSignal): Promise<boolean> {
  if (!client.connected) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (closed: boolean) => {
      clearTimeout(timer);
      client.off('close', onClose);
      settled?.removeEventListener('abort', onAbort);
      resolve(closed);
    };
    const onClose = () => done(true);
    const onAbort = () => done(false);
    const timer = setTimeout(onAbort, ms);
    client.once('close', onClose);
    settled?.addEventListener('abort', onAbort);
  });
}
