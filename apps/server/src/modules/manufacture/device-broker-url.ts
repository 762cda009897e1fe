import type { FastifyInstance } from 'fastify';

/**
 * The broker address a lift is given with its credentials: MQTT_URL without the server's
 * own user and password, or, in the embedded mode, the embedded broker's port on the host
 * of the public URL (the address the bench PC reaches the server by): its MQTT-over-TLS port
 * (mqtts://) when TLS is on, the plain one otherwise.
 */
export function deviceBrokerUrl(app: FastifyInstance): string {
  if (app.config.mqttUrl) {
    const url = new URL(app.config.mqttUrl);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  }
  // An IPv6 host name comes bracketed from URL.
  const host = new URL(app.config.publicUrl).hostname;
  if (app.brokerTlsPort !== null) return `mqtts://${host}:${app.brokerTlsPort}`;
  const port = app.mqtt.options.port ?? app.config.mqttPort;
  return `mqtt://${host}:${port}`;
}
