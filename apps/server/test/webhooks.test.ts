import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt, { type MqttClient } from 'mqtt';
import {
  API_CODES,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_REPLAY_WINDOW_SECONDS,
  WEBHOOK_SIGNATURE_HEADER,
  liftTopic,
  verifyWebhookSignature,
  webhookEnvelopeSchema,
  type AlertView,
  type WebhookDelivery,
  type WebhookEnvelope,
  type WebhookView,
} from '@liftlink/protocol';
import { ensureDemoFleet, type DemoLift } from '../src/modules/lifts/demo-fleet.ts';
import { ADMIN_PASSWORD, DB_KINDS, body, client, login, startTestApp, userWithRole, type TestApp } from './helpers.ts';
import { freePort, until } from './support/ports.ts';

/** What the receiver got: the raw body exactly as sent, and the headers. */
interface Received {
  path: string;
  raw: string;
  signature: string | undefined;
  eventId: string | undefined;
  envelope: WebhookEnvelope;
}

/**
 * A real HTTP receiver on a free local port, as an operator's ticketing system would be: it
 * records every request and answers each path with the status codes queued for it (200 once
 * the queue is empty).
 */
async function startReceiver() {
  const received: Received[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      received.push({ path, raw, signature: req.headers[WEBHOOK_SIGNATURE_HEADER] as string | undefined, eventId: req.headers[WEBHOOK_EVENT_HEADER] as string | undefined, envelope: JSON.parse(raw) });
      const status = answers.get(path)?.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'not now');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    answer: (path: string, ...codes: number[]) => answers.set(path, codes),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Webhooks (docs/webhooks.md): an organization's endpoints get its lifts' alert events,
 * signed, retried with backoff until delivered, with every attempt in the delivery log; the
 * secret is shown once; other organizations cannot see or touch them.
 */
describe.each(DB_KINDS)('webhooks on %s', (kind) => {
  let t: TestApp;
  let admin: ReturnType<typeof client>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let fleet: DemoLift[];
  let metroId: string;
  let metro: ReturnType<typeof client>;
  let harbor: ReturnType<typeof client>;
  let metroViewer: ReturnType<typeof client>;
  let lift: MqttClient;
  let seq = 7_000_000;
  let metroHook: WebhookView;
  let metroSecret: string;
  let alertId: number;

  const runWorker = () => t.app.jobs.run('webhooks');
  const deliveriesOf = async (api: ReturnType<typeof client>, id: string): Promise<WebhookDelivery[]> => {
    const res = await api.get(`/auth/access/webhooks/deliveries?id=${id}&pageSize=50`);
    expect(res.statusCode, res.body).toBe(200);
    return body<{ list: WebhookDelivery[] }>(res).result.list;
  };
  const endpointCount = async () => Number((await t.database.sql.query<{ n: string }>('select count(*) as n from webhook_endpoints'))[0]!.n);

  beforeAll(async () => {
    // Short backoff so a retry comes within the test; the worker runs when the test says.
    t = await startTestApp(kind, { WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_RETRY_MAX_MS: '400', WEBHOOK_POLL_MS: '60000', WEBHOOK_TIMEOUT_MS: '3000' });
    receiver = await startReceiver();
    admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    fleet = await ensureDemoFleet(t.database.sql, 2);
    const org = async (name: string) => body<{ id: string }>(await admin.post('/auth/access/system/orgs/create', { name, kind: 'operator' })).result.id;
    metroId = await org('Metro Transit');
    const harborId = await org('Harbor Care');
    expect((await admin.post('/auth/access/system/orgs/assign-lifts', { orgId: metroId, liftIds: [fleet[0]!.id] })).statusCode).toBe(200);
    metro = client(t.app, (await userWithRole(t, (await login(t.app, 'admin', ADMIN_PASSWORD)), 'operator', undefined, metroId)).token);
    harbor = client(t.app, (await userWithRole(t, await login(t.app, 'admin', ADMIN_PASSWORD), 'operator', undefined, harborId)).token);
    metroViewer = client(t.app, (await userWithRole(t, await login(t.app, 'admin', ADMIN_PASSWORD), 'viewer', undefined, metroId)).token);
    const brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt.options.port}`;
    lift = await mqtt.connectAsync(brokerUrl, { clientId: fleet[0]!.deviceNo, username: fleet[0]!.deviceNo, password: fleet[0]!.secret, reconnectPeriod: 0, clean: true });
  }, 60_000);
  afterAll(async () => {
    await lift?.endAsync(true).catch(() => {});
    await receiver?.close();
    await t?.close();
  });

  it('creates an endpoint and shows its secret once: the list never holds it', async () => {
    const res = await metro.post('/auth/access/webhooks/create', { url: receiver.url('/metro'), description: 'Ticketing', eventTypes: ['alert.raised', 'alert.acknowledged'] });
    expect(res.statusCode, res.body).toBe(200);
    const created = body<{ webhook: WebhookView; secret: string }>(res).result;
    metroHook = created.webhook;
    metroSecret = created.secret;
    expect(metroSecret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(metroHook).toMatchObject({ orgId: metroId, enabled: true, eventTypes: ['alert.raised', 'alert.acknowledged'], secretPrefix: metroSecret.slice(0, 10) });

    const list = await metro.get('/auth/access/webhooks');
    expect(list.statusCode).toBe(200);
    expect(body<{ list: WebhookView[] }>(list).result.list.map((w) => w.id)).toEqual([metroHook.id]);
    expect(list.body).not.toContain(metroSecret);
    // The audit names the endpoint, never the secret.
    const [audit] = await t.database.sql.query<{ detail: unknown }>(`select detail from audit_log where action = 'webhook.create' and target_id = $1`, [metroHook.id]);
    expect(JSON.stringify(audit!.detail)).toContain('/metro');
    expect(JSON.stringify(audit!.detail)).not.toContain(metroSecret);
  });

  it('refuses an address that is not https (or loopback http) or that holds credentials, with a translated error, and stores nothing', async () => {
    const before = await endpointCount();
    for (const url of ['http://tickets.example.com/hook', 'ftp://127.0.0.1/hook', 'https://user:secret@tickets.example.com/hook', 'not a url']) {
      const res = await metro.post('/auth/access/webhooks/create', { url, eventTypes: ['alert.raised'] });
      expect([res.statusCode, body(res).code], url).toEqual([400, 'webhook.badUrl']);
    }
    // The web client words the code in each language (its locales test holds every code).
    expect(API_CODES['webhook.badUrl'].status).toBe(400);
    const noTypes = await metro.post('/auth/access/webhooks/create', { url: 'https://tickets.example.com/hook', eventTypes: [] });
    expect([noTypes.statusCode, body(noTypes).code]).toEqual([400, 'validation.failed']);
    const badUpdate = await metro.post('/auth/access/webhooks/update', { id: metroHook.id, url: 'http://tickets.example.com/hook' });
    expect(body(badUpdate).code).toBe('webhook.badUrl');
    expect(await endpointCount()).toBe(before);
    expect(body<{ list: WebhookView[] }>(await metro.get('/auth/access/webhooks')).result.list[0]!.url).toBe(receiver.url('/metro'));
  });

  it("delivers a lift's fault alert, signed, to its operator's and its maker's endpoints", async () => {
    // The maker (the administrator's organization) subscribes too: it built the lift.
    const makerHook = await admin.post('/auth/access/webhooks/create', { url: receiver.url('/maker'), eventTypes: ['alert.raised'] });
    expect(makerHook.statusCode, makerHook.body).toBe(200);
    const makerSecret = body<{ secret: string }>(makerHook).result.secret;

    await lift.publishAsync(liftTopic(fleet[0]!.deviceNo, 'event'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), code: 'EA' }), { qos: 1 });
    const got = await until('the alert at both receivers', async () => {
      await runWorker();
      const [m, k] = [receiver.at('/metro')[0], receiver.at('/maker')[0]];
      return m && k ? ([m, k] as const) : null;
    }, 20_000);
    const [atMetro, atMaker] = got;
    const envelope = webhookEnvelopeSchema.parse(atMetro.envelope);
    expect(envelope.type).toBe('alert.raised');
    const alert = envelope.data as AlertView;
    expect(alert).toMatchObject({ liftId: fleet[0]!.id, deviceNo: fleet[0]!.deviceNo, kind: 'fault', code: 'EA', acknowledgedAt: null });
    alertId = alert.id;
    // One event, one id, in the body and the header, at both organizations.
    expect(atMetro.eventId).toBe(envelope.id);
    expect(atMaker.envelope.id).toBe(envelope.id);

    expect(await verifyWebhookSignature(metroSecret, atMetro.raw, atMetro.signature)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(makerSecret, atMaker.raw, atMaker.signature)).toMatchObject({ ok: true });
    // Another endpoint's secret, a changed body, a replay after the window: refused.
    expect(await verifyWebhookSignature(makerSecret, atMetro.raw, atMetro.signature)).toEqual({ ok: false, reason: 'mismatch' });
    expect(await verifyWebhookSignature(metroSecret, atMetro.raw.replace('"EA"', '"EB"'), atMetro.signature)).toEqual({ ok: false, reason: 'mismatch' });
    const sentAt = Number(/t=(\d+)/.exec(atMetro.signature!)![1]);
    expect(Math.abs(sentAt - Date.now() / 1000)).toBeLessThan(60);
    expect(await verifyWebhookSignature(metroSecret, atMetro.raw, atMetro.signature, sentAt + WEBHOOK_REPLAY_WINDOW_SECONDS + 1)).toEqual({ ok: false, reason: 'expired' });
    expect(await verifyWebhookSignature(metroSecret, atMetro.raw, 'v1=abc')).toEqual({ ok: false, reason: 'malformed' });

    const log = await deliveriesOf(metro, metroHook.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ eventId: envelope.id, eventType: 'alert.raised', state: 'delivered', attempts: 1, lastStatusCode: 200, nextAttemptAt: null });
    expect(log[0]!.attemptLog).toHaveLength(1);
  });

  it('retries a receiver that fails twice, with backoff, until it answers 2xx: three attempts in the log', async () => {
    const flaky = await metro.post('/auth/access/webhooks/create', { url: receiver.url('/flaky'), eventTypes: ['alert.acknowledged'] });
    const flakyHook = body<{ webhook: WebhookView }>(flaky).result.webhook;
    receiver.answer('/flaky', 500, 502);

    const ack = await metro.post('/auth/access/alerts/ack', { id: alertId });
    expect(ack.statusCode, ack.body).toBe(200);
    await runWorker();
    const afterFirst = (await deliveriesOf(metro, flakyHook.id))[0]!;
    expect(afterFirst).toMatchObject({ state: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(new Date(afterFirst.nextAttemptAt!).getTime()).toBeGreaterThan(Date.now() - 1000);

    const done = await until('the delivery after its retries', async () => {
      await runWorker();
      const [d] = await deliveriesOf(metro, flakyHook.id);
      return d?.state === 'delivered' ? d : null;
    }, 20_000, 100);
    expect(done.attempts).toBe(3);
    expect(done.attemptLog.map((a) => a.statusCode)).toEqual([500, 502, 200]);
    expect(done.lastStatusCode).toBe(200);
    expect(done.deliveredAt).not.toBeNull();
    // The backoff waited between the attempts (100 ms, then 200 ms, each ±20 %).
    const times = done.attemptLog.map((a) => new Date(a.at).getTime());
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(70);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(150);
    // Every attempt carried the same event and body, each with a valid signature.
    const attempts = receiver.at('/flaky');
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
    expect(attempts[0]!.envelope).toMatchObject({ type: 'alert.acknowledged', data: { id: alertId } });
    // The metro endpoint took the acknowledgement too; the maker's did not subscribe to it.
    expect(receiver.at('/metro').map((r) => r.envelope.type)).toEqual(['alert.raised', 'alert.acknowledged']);
    expect(receiver.at('/maker')).toHaveLength(1);
  });

  it('gives up after the retry window: the delivery is failed', async () => {
    const down = await metro.post('/auth/access/webhooks/create', { url: receiver.url('/down'), eventTypes: ['alert.raised'] });
    const downHook = body<{ webhook: WebhookView }>(down).result.webhook;
    receiver.answer('/down', ...Array<number>(50).fill(503));
    await lift.publishAsync(liftTopic(fleet[0]!.deviceNo, 'event'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), code: 'EB' }), { qos: 1 });
    await until('the first failed attempt', async () => {
      await runWorker();
      return (await deliveriesOf(metro, downHook.id))[0]?.attempts;
    }, 20_000);
    // Twenty-four hours pass (the event's retry window ends now).
    await t.database.sql.query(`update webhook_deliveries d set give_up_at = now() from webhook_endpoints e where e.id = d.endpoint_id and e.url like '%/down'`);
    await until('the delivery failed', async () => {
      await runWorker();
      return (await deliveriesOf(metro, downHook.id))[0]?.state === 'failed';
    }, 20_000);
    const [failed] = await deliveriesOf(metro, downHook.id);
    expect(failed).toMatchObject({ state: 'failed', nextAttemptAt: null, lastStatusCode: 503 });
    const attempts = failed!.attempts;
    await runWorker();
    expect((await deliveriesOf(metro, downHook.id))[0]!.attempts).toBe(attempts);
  });

  it('test-sends to one endpoint and answers with the logged attempt; a failing receiver shows its code', async () => {
    const res = await metro.post('/auth/access/webhooks/test', { id: metroHook.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<WebhookDelivery>(res).result).toMatchObject({ eventType: 'webhook.test', state: 'delivered', attempts: 1, lastStatusCode: 200 });
    const test = receiver.at('/metro').at(-1)!;
    expect(test.envelope).toMatchObject({ type: 'webhook.test', data: { webhookId: metroHook.id, orgId: metroId } });
    expect(await verifyWebhookSignature(metroSecret, test.raw, test.signature)).toMatchObject({ ok: true });

    receiver.answer('/metro', 503);
    const failing = body<WebhookDelivery>(await metro.post('/auth/access/webhooks/test', { id: metroHook.id })).result;
    expect(failing).toMatchObject({ state: 'failed', attempts: 1, lastStatusCode: 503 });
    const audits = await t.database.sql.query<{ detail: { statusCode: number } }>(`select detail from audit_log where action = 'webhook.test' and target_id = $1 order by id`, [metroHook.id]);
    expect(audits.map((a) => a.detail.statusCode)).toEqual([200, 503]);
  });

  it('rotates the secret, shown once: the next signature uses the new one only', async () => {
    const res = await metro.post('/auth/access/webhooks/rotate-secret', { id: metroHook.id });
    expect(res.statusCode, res.body).toBe(200);
    const { secret, webhook } = body<{ secret: string; webhook: WebhookView }>(res).result;
    expect(secret).not.toBe(metroSecret);
    expect(webhook.secretPrefix).toBe(secret.slice(0, 10));
    expect((await metro.get('/auth/access/webhooks')).body).not.toContain(secret);
    await metro.post('/auth/access/webhooks/test', { id: metroHook.id });
    const test = receiver.at('/metro').at(-1)!;
    expect(await verifyWebhookSignature(secret, test.raw, test.signature)).toMatchObject({ ok: true });
    expect(await verifyWebhookSignature(metroSecret, test.raw, test.signature)).toEqual({ ok: false, reason: 'mismatch' });
    metroSecret = secret;
  });

  it("keeps another organization's operator, and a viewer without configuration rights, away", async () => {
    expect(body<{ list: WebhookView[] }>(await harbor.get('/auth/access/webhooks')).result.list).toEqual([]);
    const listed = await harbor.get(`/auth/access/webhooks?orgId=${metroId}`);
    expect([listed.statusCode, body(listed).code]).toEqual([404, 'org.notFound']);
    for (const [url, payload] of [
      ['/auth/access/webhooks/update', { id: metroHook.id, enabled: false }],
      ['/auth/access/webhooks/delete', { id: metroHook.id }],
      ['/auth/access/webhooks/rotate-secret', { id: metroHook.id }],
      ['/auth/access/webhooks/test', { id: metroHook.id }],
    ] as const) {
      const res = await harbor.post(url, payload);
      expect([res.statusCode, body(res).code], url).toEqual([404, 'webhook.notFound']);
    }
    const log = await harbor.get(`/auth/access/webhooks/deliveries?id=${metroHook.id}`);
    expect([log.statusCode, body(log).code]).toEqual([404, 'webhook.notFound']);
    const made = await harbor.post('/auth/access/webhooks/create', { orgId: metroId, url: 'https://evil.example.com/', eventTypes: ['alert.raised'] });
    expect([made.statusCode, body(made).code]).toEqual([404, 'org.notFound']);
    const viewer = await metroViewer.get('/auth/access/webhooks');
    expect([viewer.statusCode, body(viewer).code]).toEqual([403, 'forbidden']);
    // Nothing changed: still enabled, still the same secret.
    const [row] = await t.database.sql.query<{ enabled: boolean; secret: string }>('select enabled, secret from webhook_endpoints where id = $1', [metroHook.id]);
    expect(row).toEqual({ enabled: true, secret: metroSecret });
    // The administrator reaches every organization.
    expect(body<{ list: WebhookView[] }>(await admin.get(`/auth/access/webhooks?orgId=${metroId}`)).result.list.map((w) => w.id)).toContain(metroHook.id);
  });

  it("tells an incident's steps: a fault opens it, acknowledging updates it (and acknowledges its alert), resolving resolves it", async () => {
    const created = await metro.post('/auth/access/webhooks/create', { url: receiver.url('/metro-incidents'), eventTypes: ['incident.opened', 'incident.updated', 'incident.resolved', 'alert.acknowledged'] });
    expect(created.statusCode, created.body).toBe(200);
    const secret = body<{ secret: string }>(created).result.secret;
    const events = () => receiver.at('/metro-incidents').map((r) => r.envelope as unknown as { type: string; data: { id: number; state?: string; cause?: string; code?: string; kind?: string; acknowledgedBy?: string | null } });

    await lift.publishAsync(liftTopic(fleet[0]!.deviceNo, 'event'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), code: 'EE' }), { qos: 1 });
    const opened = await until('incident.opened at the receiver', async () => {
      await runWorker();
      return events().find((e) => e.type === 'incident.opened') ?? null;
    }, 20_000);
    expect(opened.data).toMatchObject({ cause: 'fault', code: 'EE', state: 'open' });
    const [first] = receiver.at('/metro-incidents');
    expect(await verifyWebhookSignature(secret, first!.raw, first!.signature)).toMatchObject({ ok: true });

    const ack = await metro.post('/auth/access/incidents/transition', { id: opened.data.id, to: 'acknowledged' });
    expect(ack.statusCode, ack.body).toBe(200);
    await until('incident.updated and alert.acknowledged', async () => {
      await runWorker();
      const types = events().map((e) => e.type);
      return types.includes('incident.updated') && types.includes('alert.acknowledged') ? true : null;
    }, 20_000);
    expect(events().find((e) => e.type === 'incident.updated')!.data).toMatchObject({ id: opened.data.id, state: 'acknowledged' });
    expect(events().find((e) => e.type === 'alert.acknowledged')!.data).toMatchObject({ kind: 'fault', code: 'EE' });

    const resolved = await metro.post('/auth/access/incidents/transition', { id: opened.data.id, to: 'resolved', rootCause: 'electrical', resolutionText: 'Loose plug', partsUsed: [] });
    expect(resolved.statusCode, resolved.body).toBe(200);
    await until('incident.resolved', async () => {
      await runWorker();
      return events().some((e) => e.type === 'incident.resolved') ? true : null;
    }, 20_000);
    expect(events().find((e) => e.type === 'incident.resolved')!.data).toMatchObject({ id: opened.data.id, state: 'resolved' });
    // Each step once: nothing twice, and no event this endpoint did not subscribe to.
    expect(events().map((e) => e.type).sort()).toEqual(['alert.acknowledged', 'incident.opened', 'incident.resolved', 'incident.updated']);
  });

  it('a disabled endpoint gets no new events; a deleted one is gone with its log', async () => {
    const upd = await metro.post('/auth/access/webhooks/update', { id: metroHook.id, enabled: false, eventTypes: ['alert.raised'] });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(body<WebhookView>(upd).result).toMatchObject({ enabled: false, eventTypes: ['alert.raised'] });
    const before = (await deliveriesOf(metro, metroHook.id)).length;
    await lift.publishAsync(liftTopic(fleet[0]!.deviceNo, 'event'), JSON.stringify({ seq: ++seq, ts: new Date().toISOString(), code: 'EC' }), { qos: 1 });
    await until('the new alert raised', async () => (await t.database.sql.query(`select 1 from alerts where code = 'EC'`)).length > 0, 10_000);
    await runWorker();
    expect(await deliveriesOf(metro, metroHook.id)).toHaveLength(before);

    const del = await metro.post('/auth/access/webhooks/delete', { id: metroHook.id });
    expect(del.statusCode, del.body).toBe(200);
    expect(body<{ list: WebhookView[] }>(await metro.get('/auth/access/webhooks')).result.list.map((w) => w.id)).not.toContain(metroHook.id);
    expect((await t.database.sql.query('select 1 from webhook_deliveries d where d.endpoint_id = $1', [metroHook.id])).length).toBe(0);
    const actions = await t.database.sql.query<{ action: string }>(`select distinct action from audit_log where target_id = $1 order by action`, [metroHook.id]);
    expect(actions.map((a) => a.action)).toEqual(['webhook.create', 'webhook.delete', 'webhook.rotateSecret', 'webhook.test', 'webhook.update']);
  });
});
