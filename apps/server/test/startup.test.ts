import { spawn } from 'node:child_process';
import net from 'node:net';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config.ts';
import { startTestApp, body } from './helpers.ts';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/main.ts');

function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

// These tests start real server processes; on a busy two-core machine that takes a while.
describe('configuration from the environment', { timeout: 90_000 }, () => {
  it('uses the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, mqttPort: 1883, simulator: 8, adminUser: 'admin', adminPassword: undefined, databaseUrl: undefined });
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(loadConfig({ MQTT_URL: 'mqtt://broker:1883' }).simulator).toBe(0);
  });

  it('names the variable and the value of a bad setting', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT.*"eighty"/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LIFTLINK_ADMIN_PASSWORD: 'short' })).toThrow(/LIFTLINK_ADMIN_PASSWORD/);
  });

  it("takes a cluster's nodes and, with BROKER=rabbitmq, says what else it needs", () => {
    const cluster = { MQTT_URL: 'mqtt://mq1:1883, mqtt://mq2:1883,mqtt://mq3:1883', MQTT_USERNAME: 'liftlink-server', MQTT_PASSWORD: 'secret-1' };
    expect(loadConfig(cluster)).toMatchObject({ broker: 'mqtt', rabbitmq: null, simulator: 0 });
    expect(() => loadConfig({ ...cluster, BROKER: 'rabbitmq' })).toThrow(/BROKER=rabbitmq needs AMQP_URL, RABBITMQ_API_URL/);
    const rabbit = { ...cluster, BROKER: 'rabbitmq', AMQP_URL: 'amqp://mq1:5672,amqp://mq2:5672', RABBITMQ_API_URL: 'http://mq1:15672' };
    expect(loadConfig(rabbit)).toMatchObject({ broker: 'rabbitmq', rabbitmq: { amqpUrls: ['amqp://mq1:5672', 'amqp://mq2:5672'], apiUrls: ['http://mq1:15672'] } });
    // Credentials live in MQTT_USERNAME / MQTT_PASSWORD only, never in an address that is logged or written into lifts.
    expect(() => loadConfig({ ...rabbit, AMQP_URL: 'amqp://u:p@mq1:5672' })).toThrow(/AMQP_URL.*credentials/);
    expect(() => loadConfig({ ...cluster, MQTT_URL: 'mqtt://mq1:1883,,mqtt://mq2' })).toThrow(/MQTT_URL/);
    expect(() => loadConfig({ ...cluster, MQTT_URL: 'mqtt://mq1:1883,mqtts://mq2:8883' })).toThrow(/MQTT_URL/);
    expect(() => loadConfig({ ...rabbit, BROKER: 'kafka' })).toThrow(/BROKER/);
    expect(() => loadConfig({ ...cluster, AMQP_URL: 'amqp://mq1:5672' })).toThrow(/for BROKER=rabbitmq/);
  });

  it('stops with one clear line when the broker port is busy', async () => {
    const blocker = net.createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    const port = (blocker.address() as net.AddressInfo).port;
    const res = await run({ PORT: '0', HOST: '127.0.0.1', MQTT_PORT: String(port), DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'll-')), SIMULATOR: '0' });
    blocker.close();
    expect(res.code).toBe(1);
    expect(res.stderr.trim()).toBe(`liftlink: MQTT_PORT ${port} is already in use. Set MQTT_PORT to a free port, or MQTT_URL to use a running broker.`);
  });

  it('stops with one clear line on a bad value', async () => {
    const res = await run({ PORT: '99999' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^liftlink: Invalid configuration:\n {2}PORT:/);
  });

  it('creates the administrator on first start with a generated password printed once', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'll-'));
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, LOG_LEVEL: 'silent', PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', DATA_DIR: dir, SIMULATOR: '0', LIFTLINK_ADMIN_PASSWORD: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    await new Promise<void>((resolve) => child.stdout.on('data', (d: Buffer) => ((out += d.toString()), /Keep it now/.test(out) && resolve())));
    child.kill('SIGTERM');
    await once(child, 'exit');
    const password = out.match(/admin \/ (\S+)/)![1]!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    // The second start keeps that administrator and prints nothing.
    const again = spawn(process.execPath, ['--import', 'tsx', MAIN], { env: { ...process.env, LOG_LEVEL: 'info', PORT: '0', HOST: '127.0.0.1', MQTT_PORT: '0', DATA_DIR: dir, SIMULATOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out2 = '';
    await new Promise<void>((resolve) => again.stdout.on('data', (d: Buffer) => ((out2 += d.toString()), /Server listening/.test(out2) && resolve())));
    again.kill('SIGTERM');
    await once(again, 'exit');
    expect(out2).not.toContain('Administrator created');
  });
});

describe('health', () => {
  it('tells whether the database and the broker are reachable', async () => {
    const t = await startTestApp('pglite');
    const up = await t.app.inject({ method: 'GET', url: '/health' });
    expect(up.statusCode).toBe(200);
    expect(body(up).result).toEqual({ database: 'up', broker: 'up' });
    await t.app.mqtt.endAsync(true);
    const down = await t.app.inject({ method: 'GET', url: '/health' });
    expect(down.statusCode).toBe(503);
    expect(body(down).result).toEqual({ database: 'up', broker: 'down' });
    await t.close();
  });
});
