import type { FastifyInstance } from 'fastify';

/**
 * The broker address a lift is given with its credentials: MQTT_URL (one broker or a
 * cluster's nodes), or, in the embedded mode, the embedded broker's port on the host
 * of the public URL (the address the bench PC reaches the server by): its MQTT-over-TLS port
 * (mqtts://) when TLS is on, the plain one otherwise.
 */
export function deviceBrokerUrl(app: FastifyInstance): string {
  // MQTT_URL holds no credentials (the server's come from MQTT_USERNAME / MQTT_PASSWORD); a cluster's nodes go to the lift as they are.
  if (app.config.mqttUrl) return app.config.mqttUrl.split(',').map((u) => u.trim()).join(',');
  // An IPv6 host name comes bracketed from URL.
  const host = new URL(app.config.publicUrl).hostname;
  if (app.brokerTlsPort !== null) return `mqtts://${host}:${app.brokerTlsPort}`;
  const port = app.mqtt.options.port ?? app.config.mqttPort;
  return `mqtt://${host}:${port}`;
}
