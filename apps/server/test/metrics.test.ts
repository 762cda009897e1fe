import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { liftTopic } from '@liftlink/protocol';
import { ensureDemoFleet, spawnSimulator, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, login, startTestApp, type TestApp } from './helpers.ts';
import { freePort, until } from './support/ports.ts';
import { connectLift } from './support/lift-client.ts';
import { openLiveSocket } from './support/live-socket.ts';
import { scrape } from './support/scrape.ts';

const DASHBOARD = new URL('../../../docs/grafana-dashboard.json', import.meta.url);

describe.each(DB_KINDS)('Prometheus metrics on %s', (kind) => {
  let t: TestApp;
  let httpUrl: string;
  let metricsUrl: string;
  let token: string;
  let fleet: DemoLift[];
  let sim: ReturnType<typeof spawnSimulator> | undefined;
  let bare: MqttClient | undefined;
  const api = (method: 'GET' | 'POST', route: string, body?: unknown) =>
    fetch(httpUrl + route, { method, headers: { 'access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });

  beforeAll(async () => {
    const metricsPort = await freePort();
    t = await startTestApp(kind, { METRICS_PORT: String(metricsPort), COMMAND_WAIT_MS: '8000', HEARTBEAT_SECONDS: '30' });
    expect(t.app.metrics.port).toBe(metricsPort);
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    httpUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    token = await login(t.app, 'admin', ADMIN_PASSWORD);
    fleet = await ensureDemoFleet(t.database.sql, 2);
    // DEMO-0001 is a simulated lift speaking real MQTT; DEMO-0002 a bare connection the test drives.
    sim = spawnSimulator(fleet.slice(0, 1), `mqtt://127.0.0.1:${t.app.mqtt.options.port}`, () => {});
    await sim.ready;
    bare = await connectLift(`mqtt://127.0.0.1:${t.app.mqtt.options.port}`, fleet[1]!.deviceNo, fleet[1]!.secret, { connectTimeout: 60_000 });
  }, 900_000);
  afterAll(async () => {
    await bare?.endAsync();
    sim?.child.kill('SIGTERM');
    await t?.close();
  });

  it('counts lift messages stored, refused by reason and duplicated, with batch size and commit time', async () => {
    const deviceNo = fleet[1]!.deviceNo;
    await until('the simulated lift online', async () => (await scrape(metricsUrl)).value('liftlink_lifts_online') >= 1);
    const before = await scrape(metricsUrl);
    const event = JSON.stringify({ seq: 1_000, ts: new Date().toISOString(), code: 'RZGU' });
    await bare!.publishAsync(liftTopic(deviceNo, 'event'), event, { qos: 1 });
    // The same message again (a redelivery after a lost acknowledgement), then one that is not JSON.
    await bare!.publishAsync(liftTopic(deviceNo, 'event'), event, { qos: 1 });
    await bare!.publishAsync(liftTopic(deviceNo, 'event'), '{not json', { qos: 1 });
    const after = await scrape(metricsUrl);

    const delta = (name: string, labels?: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(after.family('liftlink_ingest_messages_accepted_total')?.type).toBe('COUNTER');
    // Acknowledged means counted: the PUBACK follows the commit.
    expect(delta('liftlink_ingest_messages_accepted_total')).toBeGreaterThanOrEqual(1);
    expect(delta('liftlink_ingest_messages_duplicated_total')).toBe(1);
    expect(delta('liftlink_ingest_messages_refused_total', { reason: 'json' })).toBe(1);
    expect(delta('liftlink_ingest_messages_refused_total', { reason: 'schema' })).toBe(0);
    // Every reason is there from the start, at 0 until it happens.
    expect(after.samples('liftlink_ingest_messages_refused_total').map((m) => m.labels?.reason).sort()).toEqual(['json', 'refusedByDatabase', 'schema', 'tooLarge', 'topic', 'unknownDevice']);
    expect(after.family('liftlink_ingest_batch_size')?.type).toBe('HISTOGRAM');
    expect(delta('liftlink_ingest_batch_size')).toBeGreaterThanOrEqual(2);
    expect(delta('liftlink_ingest_commit_seconds')).toBeGreaterThanOrEqual(2);
    // The event once, after the cloud's ONLINE entry: the lift was offline until it spoke.
    const stored = await t.database.sql.query<{ code: string }>(`select code from lift_events e join lifts l on l.id = e.lift_id where l.device_no = $1 order by n`, [deviceNo]);
    expect(stored.map((e) => e.code)).toEqual(['ONLINE', 'RZGU']);

    // Both lifts have a session on the embedded broker and, having spoken, are online; what
    // the lifts sent is stored, so the broker holds none of it (the simulated lift goes on
    // reporting, so a scrape may meet its newest status on the way: the count returns to 0).
    const now = await until('both lifts online, no message in hand', async () => {
      const s = await scrape(metricsUrl);
      return s.value('liftlink_lifts_online') === 2 && s.value('liftlink_broker_messages_in_hand') === 0 && s;
    });
    expect(now.value('liftlink_lifts_connected')).toBe(2);
    expect(now.value('liftlink_lifts_provisioned')).toBe(2);
    expect(now.value('liftlink_broker_connected', { connection: 'service' })).toBe(1);
    expect(now.value('liftlink_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(now.family('liftlink_db_waiting')?.type).toBe('GAUGE');
    // The default process metrics, unprefixed.
    expect(now.value('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(now.family('nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
  });

  it('observes a command round trip by outcome and HTTP requests by route pattern, never the raw URL', async () => {
    const before = await scrape(metricsUrl);
    const list = (await (await api('GET', '/auth/access/lift/get?sort=deviceNo&pageSize=10')).json()) as { result: { list: { id: string; deviceNo: string }[] } };
    const liftId = list.result.list.find((l) => l.deviceNo === fleet[0]!.deviceNo)!.id;
    const read = await api('POST', '/auth/access/lift/config/read', { liftId });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { result: { state: string } }).result.state).toBe('done');
    expect((await fetch(`${httpUrl}/auth/access/no/such/route?x=1`, { headers: { 'access-token': token } })).status).toBe(404);
    const after = await scrape(metricsUrl);

    const trips = after.samples('liftlink_command_round_trip_seconds', { kind: 'config/get', outcome: 'done' });
    expect(trips).toHaveLength(1);
    expect(Number(trips[0]!.count) - before.value('liftlink_command_round_trip_seconds', { kind: 'config/get', outcome: 'done' })).toBe(1);
    expect(Number(trips[0]!.sum)).toBeGreaterThan(0);

    const http = (labels: Record<string, string>) => after.value('liftlink_http_request_duration_seconds', labels) - before.value('liftlink_http_request_duration_seconds', labels);
    expect(http({ method: 'GET', route: '/auth/access/lift/get', status: '200' })).toBe(1);
    expect(http({ method: 'POST', route: '/auth/access/lift/config/read', status: '200' })).toBe(1);
    expect(http({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    const routes = after.samples('liftlink_http_request_duration_seconds').map((m) => m.labels?.route ?? '');
    expect(routes.filter((r) => r.includes('?') || r.includes(liftId) || r.includes('no/such'))).toEqual([]);
  });

  it('counts live WebSocket clients: 1 while one is open, 0 after it closes', async () => {
    expect((await scrape(metricsUrl)).value('liftlink_live_clients')).toBe(0);
    const live = await openLiveSocket(httpUrl, token);
    await live.next('ready', (m) => m.type === 'ready');
    expect((await scrape(metricsUrl)).value('liftlink_live_clients')).toBe(1);
    live.close();
    await until('the socket counted closed', async () => (await scrape(metricsUrl)).value('liftlink_live_clients') === 0);
  });

  it('is served only on its own listener: /metrics on the public port is 404', async () => {
    const res = await fetch(`${httpUrl}/metrics`);
    expect(res.status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('the Grafana dashboard queries only series the server exposes', async () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[] };
    const exposed = new Set((await scrape(metricsUrl)).families.map((f) => f.name));
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((target) => ({ panel: p.title, expr: target.expr })));
    expect(exprs.length).toBeGreaterThan(5);
    for (const { panel, expr } of exprs) {
      // The series a PromQL expression reads: identifiers followed by a selector, range or grouping, minus functions and keywords.
      const names = [...expr.matchAll(/\b(liftlink_[a-z0-9_]+?|process_[a-z0-9_]+?|nodejs_[a-z0-9_]+?)(_bucket|_sum|_count)?\b(?=\s*[{[)\s,]|$)/g)];
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const [, base] of names) expect(exposed, `${panel}: ${expr} names ${base}`).toContain(base);
    }
  });
});
