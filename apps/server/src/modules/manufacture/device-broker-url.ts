import type { FastifyInstance } from 'fastify';

/**
 * The broker address a lift is given with its credentials: MQTT_URL without the server's
 * own user and password, or, in the embedded mode, the embedded broker's port on the host
 * of the public URL (the address the bench PC reaches the server by).
 */
export function deviceBrokerUrl(app: FastifyInstance): string {
  if (app.config.mqttUrl) {
    const url = new URL(app.config.mqttUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  }
  const host = new URL(app.config.publicUrl).hostname;
  const port = app.mqtt.options.port ?? app.config.mqttPort;
  return `mqtt://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
