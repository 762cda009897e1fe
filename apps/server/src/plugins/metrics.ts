import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Why ingest left a lift message out (see docs/operations.md). */
export const INGEST_REFUSAL_REASONS = ['topic', 'tooLarge', 'json', 'schema', 'unknownDevice', 'refusedByDatabase'] as const;
export type IngestRefusalReason = (typeof INGEST_REFUSAL_REASONS)[number];

/**
 * This instance's series. Each app has its own registry (tests build several apps in one
 * process, and two instances on one host each expose their own), never prom-client's
 * global one.
 */
export interface Metrics {
  registry: Registry;
  ingestAccepted: Counter;
  ingestRefused: Counter<'reason'>;
  ingestDuplicated: Counter;
  ingestBatchSize: Histogram;
  ingestCommitSeconds: Histogram;
  commandRoundTrip: Histogram<'kind' | 'outcome'>;
  liveClients: Gauge;
  brokerConnected: Gauge<'connection'>;
  /** The metrics listener's port, or null when METRICS_PORT=0 (or the port was busy). */
  port: number | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

function createMetrics(registry: Registry): Omit<Metrics, 'port'> {
  const registers = [registry];
  const ingestRefused = new Counter({ name: 'liftlink_ingest_messages_refused_total', help: 'Lift messages left out by ingest, by reason.', labelNames: ['reason'], registers });
  // Every reason present from the start, so rate() and ratios work before the first refusal.
  for (const reason of INGEST_REFUSAL_REASONS) ingestRefused.labels(reason).inc(0);
  return {
    registry,
    ingestAccepted: new Counter({ name: 'liftlink_ingest_messages_accepted_total', help: 'Lift messages stored by this instance (committed, then acknowledged).', registers }),
    ingestRefused,
    ingestDuplicated: new Counter({ name: 'liftlink_ingest_messages_duplicated_total', help: 'Run-log messages whose (lift, seq) was stored before: a redelivery, acknowledged and not stored again.', registers }),
    ingestBatchSize: new Histogram({ name: 'liftlink_ingest_batch_size', help: 'Lift messages per ingest transaction.', buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000], registers }),
    ingestCommitSeconds: new Histogram({ name: 'liftlink_ingest_commit_seconds', help: 'Time to store one ingest batch (the transaction, commit included).', buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers }),
    commandRoundTrip: new Histogram({
      name: 'liftlink_command_round_trip_seconds',
      help: "From a command's request to its outcome: done, accepted, rejected, failed, expired, timeout, offline, sendFailed.",
      labelNames: ['kind', 'outcome'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    }),
    liveClients: new Gauge({ name: 'liftlink_live_clients', help: 'Open live WebSocket connections (/ws/live) on this instance.', registers }),
    brokerConnected: new Gauge({ name: 'liftlink_broker_connected', help: "The server's own MQTT connections: 1 connected, 0 not (service = commands and live; ingest-N = shared-subscription ingest with MQTT_URL).", labelNames: ['connection'], registers }),
  };
}

/**
 * Prometheus metrics (docs/operations.md lists every series). Served in the text format on
 * a listener of its own, METRICS_HOST:METRICS_PORT (127.0.0.1:9464), never on the public
 * PORT. The default process metrics (process_*, nodejs_*, unprefixed as every Node.js
 * dashboard expects them) are collected only while the listener is on.
 */
export default fp(
  async (app) => {
    const registry = new Registry();
    const metrics: Metrics = { ...createMetrics(registry), port: null };
    app.decorate('metrics', metrics);
    const registers = [registry];

    const httpDuration = new Histogram({
      name: 'liftlink_http_request_duration_seconds',
      help: 'HTTP API and web requests, by method, route pattern (never the raw URL) and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    app.addHook('onResponse', async (request, reply) => {
      // The pattern ('/auth/access/lift/get', '/*'); a request no route matched is 'unmatched'.
      const route = request.routeOptions.url ?? 'unmatched';
      httpDuration.labels(request.method, route, String(reply.statusCode)).observe(reply.elapsedTime / 1000);
    });

    // Read at scrape time from where the truth is. The pool first: its state before this
    // scrape's own queries join it.
    new Gauge({
      name: 'liftlink_db_pool_connections',
      help: 'Database connections by state (PostgreSQL: the pool of up to 10; PGlite: its one session).',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = app.database.poolState();
        this.labels('total').set(pool.total);
        this.labels('idle').set(pool.idle);
      },
    });
    new Gauge({
      name: 'liftlink_db_waiting',
      help: 'Callers waiting for the database (PostgreSQL: for a pool connection; PGlite: statements queued for its one session).',
      registers,
      collect() {
        this.set(app.database.poolState().waiting);
      },
    });
    // One query for the fleet's counts, shared by the gauges of one scrape (they are collected together).
    let counts: Promise<{ online: number; provisioned: number }> | null = null;
    const fleetCounts = () =>
      (counts ??= app.database.sql
        .query<{ online: string; provisioned: string }>('select count(*) filter (where online) as online, count(*) filter (where device_no is not null) as provisioned from lifts')
        .then(([row]) => ({ online: Number(row?.online ?? 0), provisioned: Number(row?.provisioned ?? 0) }))
        .finally(() => (counts = null)));
    new Gauge({
      name: 'liftlink_lifts_online',
      help: 'Lifts online (the lifts table: presence, heartbeat and the silence sweep). The whole fleet, the same on every instance.',
      registers,
      async collect() {
        this.set((await fleetCounts()).online);
      },
    });
    new Gauge({
      name: 'liftlink_lifts_provisioned',
      help: 'Lifts with a device number (those that can connect). The whole fleet, the same on every instance.',
      registers,
      async collect() {
        this.set((await fleetCounts()).provisioned);
      },
    });
    new Gauge({
      name: 'liftlink_lifts_connected',
      help: "Lifts with an MQTT session on this instance's embedded broker (with MQTT_URL: lifts online, as the broker is not this instance's).",
      registers,
      async collect() {
        this.set(app.broker ? app.connectedLifts() : (await fleetCounts()).online);
      },
    });
    new Gauge({
      name: 'liftlink_broker_messages_in_hand',
      help: "Lifts' messages this instance's embedded broker has read and not yet stored (each lift at most a few: past that its connection is not read). 0 with MQTT_URL.",
      registers,
      collect() {
        this.set(app.messagesInHand());
      },
    });
    app.addHook('onReady', async () => {
      metrics.brokerConnected.labels('service').set(app.mqtt.connected ? 1 : 0);
      app.mqtt.on('connect', () => metrics.brokerConnected.labels('service').set(1));
      app.mqtt.on('close', () => metrics.brokerConnected.labels('service').set(0));
    });

    const { port, host } = app.config.metrics;
    if (port === 0) return;
    collectDefaultMetrics({ register: registry });
    const server = metricsServer(registry, (err) => app.log.warn({ err: err instanceof Error ? err.message : err }, 'metrics scrape failed'));
    server.listen(port, host);
    try {
      await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
    } catch (err) {
      // Metrics watch the product; they never stop it. Prometheus shows the target down.
      const busy = (err as NodeJS.ErrnoException).code === 'EADDRINUSE';
      app.log.error({ err: (err as Error).message }, busy ? `METRICS_PORT ${port} is already in use: metrics are not served. Set METRICS_PORT to a free port, or 0 to turn them off.` : 'metrics listener failed: metrics are not served');
      return;
    }
    metrics.port = (server.address() as AddressInfo).port;
    app.addHook('onClose', async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: 'metrics' },
);

/** GET /metrics (or /) in the Prometheus text format; anything else is 404. */
function metricsServer(registry: Registry, onError: (err: unknown) => void): http.Server {
  return http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || (path !== '/metrics' && path !== '/')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => {
        onError(err);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
      },
    );
  });
}
