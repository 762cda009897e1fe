import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { liftTopic } from '@liftlink/protocol';
import { openPglite, openPostgres, type Database } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { seed } from '../src/db/seed.ts';
import { ADMIN_PASSWORD, DB_KINDS } from './helpers.ts';
import { provisionLifts, type ProvisionedLift } from './support/fleet.ts';
import { connectLift } from './support/lift-client.ts';
import { openLiveSocket } from './support/live-socket.ts';
import { freePort, until } from './support/ports.ts';
import { createDatabase } from './support/postgres.ts';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

/** Where one server's data lives across its restarts: a DATA_DIR, and a PostgreSQL database when that is the kind. */
interface Site {
  env: Record<string, string>;
  open(): Promise<Database>;
  remove(): Promise<void>;
}

async function newSite(kind: 'pglite' | 'postgres'): Promise<Site> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'liftlink-stop-'));
  const [port, mqttPort] = [await freePort(), await freePort()];
  const env = { HOST: '127.0.0.1', PORT: String(port), MQTT_PORT: String(mqttPort), METRICS_PORT: '0', DATA_DIR: dataDir, SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: ADMIN_PASSWORD, LOG_LEVEL: 'warn', COMMAND_WAIT_MS: '30000' };
  if (kind === 'pglite') return { env, open: () => openPglite(dataDir), remove: async () => rmSync(dataDir, { recursive: true, force: true }) };
  const { url, drop } = await createDatabase(process.env.TEST_DATABASE_URL!);
  return {
    env: { ...env, DATABASE_URL: url },
    open: () => openPostgres(url),
    remove: async () => {
      await drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server as production runs it, on the site's data; resolves once /health answers. */
async function startServer(site: Site): Promise<{ child: ChildProcess; url: string; mqttUrl: string; exit: Promise<{ code: number | null; at: number }>; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, ...site.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (d: Buffer) => (log = (log + d.toString()).slice(-8000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exit = once(child, 'exit').then(([code]) => ({ code: code as number | null, at: Date.now() }));
  const url = `http://127.0.0.1:${site.env.PORT}`;
  await Promise.race([
    until('server health', async () => (await fetch(`${url}/health`).catch(() => null))?.status === 200, 300_000, 250),
    exit.then(() => Promise.reject(new Error(`server exited: ${log}`))),
  ]);
  return { child, url, mqttUrl: `mqtt://127.0.0.1:${site.env.MQTT_PORT}`, exit, log: () => log };
}

/**
 * A lift's run log as the lift keeps it: every message has its seq and ts for good, is
 * published at QoS 1 and counts as delivered only once acknowledged; what was not
 * acknowledged is published again, unchanged, after reconnecting.
 */
class LiftOutbox {
  readonly acked = new Set<number>();
  readonly pending = new Map<number, string>();
  private nextSeq = 1;
  private readonly base = Date.now();
  constructor(readonly lift: ProvisionedLift) {}

  /** Publishes new messages, `window` at a time, until stopped or the connection is gone. */
  async stream(client: MqttClient, window: number, stop: () => boolean): Promise<void> {
    const worker = async () => {
      while (!stop() && client.connected) {
        const seq = this.nextSeq++;
        const payload = JSON.stringify({ seq, ts: new Date(this.base + seq).toISOString(), code: seq % 2 ? 'RZGU' : 'RZGD' });
        this.pending.set(seq, payload);
        await this.publish(client, seq, payload);
      }
    };
    await Promise.all(Array.from({ length: window }, worker));
  }

  async resend(client: MqttClient): Promise<void> {
    await Promise.all([...this.pending].map(([seq, payload]) => this.publish(client, seq, payload)));
  }

  private async publish(client: MqttClient, seq: number, payload: string): Promise<void> {
    try {
      await client.publishAsync(liftTopic(this.lift.deviceNo, 'event'), payload, { qos: 1 });
      this.pending.delete(seq);
      this.acked.add(seq);
    } catch {
      // Not acknowledged: stays pending and is sent again.
    }
  }
}

describe.each(DB_KINDS)('graceful stop on %s', (kind) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step().catch(() => {});
  });

  it('SIGTERM amid acknowledged lift messages, a command and a browser: exit 0, and after a restart every acknowledged message is stored exactly once', async () => {
    const site = await newSite(kind);
    cleanup.push(() => site.remove());
    // The lift is provisioned before the first start (PGlite's folder has one user at a time).
    const setup = await site.open();
    await migrate(setup.sql);
    await seed(setup, { adminUser: 'admin', adminPassword: ADMIN_PASSWORD, makerName: 'Maker' });
    const [lift] = await provisionLifts(setup.sql, 'STOP', 1);
    await setup.close();

    const first = await startServer(site);
    cleanup.push(async () => first.child.exitCode === null && first.child.kill('SIGKILL'));
    const login = await fetch(`${first.url}/auth/access/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await login.json()) as { result: { token: string } }).result.token;

    const outbox = new LiftOutbox(lift!);
    const client = await connectLift(first.mqttUrl, lift!.deviceNo, lift!.secret, { connectTimeout: 60_000 });
    let stopStreaming = false;
    const streaming = outbox.stream(client, 16, () => stopStreaming);
    await until('a first run of acknowledged messages', () => outbox.acked.size >= 150, 120_000, 50);

    // A browser with the live socket, and a command the lift never answers (this lift ignores commands).
    const live = await openLiveSocket(first.url, token);
    const liveClosed = once(live.socket, 'close').then(([code]) => code as number);
    const command = fetch(`${first.url}/auth/access/lift/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'access-token': token },
      body: JSON.stringify({ liftId: lift!.id, command: 'summon', args: { floor: 2 } }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code: string; result: { commandId: string; state: string } } }));
    await until('the command sent', async () => {
      const db = await fetch(`${first.url}/auth/access/lift/commands?liftId=${lift!.id}`, { headers: { 'access-token': token } });
      return ((await db.json()) as { result: { list: unknown[] } }).result.list.length > 0;
    });

    const ackedBeforeStop = outbox.acked.size;
    const signalled = Date.now();
    first.child.kill('SIGTERM');
    const { code, at } = await first.exit;
    stopStreaming = true;
    // The lift sees its connection gone: what it had in flight without a PUBACK stays pending.
    await client.endAsync(true);
    await streaming;
    // The hard timer (10 s) would have made it 1.
    expect(code, first.log()).toBe(0);
    process.stdout.write(`graceful stop on ${kind}: ${at - signalled} ms, ${ackedBeforeStop} acknowledged before SIGTERM, ${outbox.acked.size} in all, ${outbox.pending.size} left unacknowledged\n`);
    // The browser was told to reconnect (Service Restart), the command's caller got an answer.
    expect(await liveClosed).toBe(1012);
    const answer = await command;
    expect(answer.body.result.state).toBe('expired');
    expect(answer.body.code).toBe('lift.refused');

    // Restarted on the same data, the lift reconnects and sends again what was not acknowledged.
    const second = await startServer(site);
    cleanup.push(async () => second.child.exitCode === null && second.child.kill('SIGKILL'));
    const again = await connectLift(second.mqttUrl, lift!.deviceNo, lift!.secret, { connectTimeout: 60_000 });
    await outbox.resend(again);
    expect(outbox.pending.size).toBe(0);
    await again.endAsync();
    second.child.kill('SIGTERM');
    expect((await second.exit).code, second.log()).toBe(0);

    const check = await site.open();
    try {
      const rows = await check.sql.query<{ seq: string; n: string }>('select seq, n from lift_events where lift_id = $1 order by seq', [lift!.id]);
      // The lift's own entries; the cloud's ONLINE / OFFLINE entries (seq < 0) come with its connections.
      const seqs = rows.map((r) => Number(r.seq)).filter((s) => s > 0);
      // Every acknowledged message once; nothing else (every message sent was acknowledged in the end).
      expect(seqs).toEqual([...outbox.acked].sort((a, b) => a - b));
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(rows.filter((r) => Number(r.seq) < 0).every((r) => Number(r.seq) === -Number(r.n))).toBe(true);
      // The run log's ordinals, the cloud's entries among them, have no gap and no repeat.
      expect(rows.map((r) => Number(r.n)).sort((a, b) => a - b)).toEqual(rows.map((_, i) => i + 1));
      const [cmd] = await check.sql.query<{ state: string }>('select state from lift_commands where lift_id = $1', [lift!.id]);
      expect(cmd!.state).toBe('expired');
    } finally {
      await check.close();
    }
  }, 900_000);

  it('a second signal ends the stop at once', async () => {
    const site = await newSite(kind);
    cleanup.push(() => site.remove());
    const server = await startServer(site);
    cleanup.push(async () => server.child.exitCode === null && server.child.kill('SIGKILL'));
    // A browser keeps the stop busy for a moment (its socket's closing handshake).
    const login = await fetch(`${server.url}/auth/access/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await login.json()) as { result: { token: string } }).result.token;
    await openLiveSocket(server.url, token);
    server.child.kill('SIGTERM');
    server.child.kill('SIGINT');
    expect((await server.exit).code, server.log()).toBe(130);
    expect(server.log()).toContain('stopping at once');
  }, 600_000);
});
