import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEVICE_KINDS, type LiftConfig } from '@liftlink/protocol';
import { newToken, sha256 } from '../../lib/crypto.ts';
import type { SqlExecutor } from '../../db/client.ts';
import type { BrokerAdmin } from './credentials.ts';
import { backfillDemoHistory } from './demo-history.ts';
import type { WearSpec } from '../../../../simulator/src/wear.ts';
import type { OtaSpec } from '../../../../simulator/src/firmware-updater.ts';

const SIMULATOR_MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../simulator/src/main.ts');

/** The demo sites; `utcOffset` (hours) sets the rhythm of a day in the demo history. */
const SITES = [
  { address: '上海市浦东新区世纪大道 100 号', site: '地铁站 2 号口', utcOffset: 8 },
  { address: 'Berlin, Alexanderplatz 1', site: 'Library, east entrance', utcOffset: 1 },
  { address: 'Москва, ул. Тверская, 7', site: 'Поликлиника № 3, подъезд 2', utcOffset: 3 },
  { address: '北京市海淀区中关村大街 27 号', site: '社区服务中心', utcOffset: 8 },
  { address: 'Lyon, 12 rue de la République', site: 'Town hall stairs', utcOffset: 1 },
];

export interface DemoLift {
  deviceNo: string;
  secret: string;
  kind: (typeof DEVICE_KINDS)[number];
  floors: number;
  /** The lift's row. */
  id: string;
  /** Created by this start (a new demo lift gets its history); false: it existed. */
  created: boolean;
  utcOffset: number;
}

/**
 * The demo fleet of the embedded mode: lifts DEMO-0001..N of every kind, owned by the
 * maker's organization. Each start issues fresh credentials (stored hashed), handed to the
 * simulator through its stdin, never written to disk.
 */
export async function ensureDemoFleet(sql: SqlExecutor, count: number): Promise<DemoLift[]> {
  const [maker] = await sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  const lifts: DemoLift[] = [];
  for (let i = 1; i <= count; i++) {
    const kind = DEVICE_KINDS[(i - 1) % DEVICE_KINDS.length]!;
    const floors = 2 + ((i - 1) % 3);
    const deviceNo = `DEMO-${String(i).padStart(4, '0')}`;
    const secret = newToken();
    const { utcOffset, ...site } = SITES[(i - 1) % SITES.length]!;
    // xmax is 0 in a row this statement inserted, not in one it updated
    const [row] = await sql.query<{ id: string; created: boolean }>(
      `insert into lifts (device_no, alias, kind, floors, firmware, manufacturer_org_id, location, iot_secret_hash, iot_issued_at)
       values ($1, $2, $3, $4, '1.0.0', $5, $6::jsonb, $7, now())
       on conflict (device_no) do update set iot_secret_hash = excluded.iot_secret_hash, iot_issued_at = now()
       returning id, (xmax = 0) as created`,
      [deviceNo, `${site.site}`, kind, floors, maker!.id, JSON.stringify({ ...site, contact: '+86 400 000 0000' }), sha256(secret)],
    );
    lifts.push({ deviceNo, secret, kind, floors, id: row!.id, created: row!.created, utcOffset });
  }
  return lifts;
}

/** Registers the lifts' credentials with an external broker's account store (Mosquitto dynamic security). */
export async function registerWithBroker(admin: BrokerAdmin | null, lifts: Pick<DemoLift, 'deviceNo' | 'secret'>[]): Promise<void> {
  if (admin) await Promise.all(lifts.map((l) => admin.setDeviceCredential(l.deviceNo, l.secret)));
}

/** Starts the simulator as a child process speaking real MQTT to the broker; `args` are extra CLI options. */
export function spawnSimulator(
  lifts: (Pick<DemoLift, 'deviceNo' | 'secret' | 'kind' | 'floors'> & { faultAfterSeconds?: number; config?: LiftConfig; configVersion?: number; wear?: WearSpec; ota?: OtaSpec })[],
  mqttUrl: string,
  log: (msg: string) => void,
  args: string[] = [],
): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', SIMULATOR_MAIN, '--fleet-stdin', '--mqtt', mqttUrl, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(JSON.stringify(lifts.map(({ deviceNo, secret, kind, floors, faultAfterSeconds, config, configVersion, wear, ota }) => ({ deviceNo, secret, kind, floors, faultAfterSeconds, config, configVersion, wear, ota }))));
  createInterface({ input: child.stderr }).on('line', (line) => log(line));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"ready":true')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with code ${code}`)));
  });
  return { child, ready };
}

/**
 * Where the demo fleet connects. With TLS on the embedded broker it uses MQTT over TLS the
 * way a lift does: it trusts only the certificates in TLS_CERT_FILE (the server's own
 * certificate or its chain; re-read when it reconnects, so a renewal does not lock it out)
 * and checks the name the certificate is for while connecting over loopback.
 */
export function demoFleetBroker(app: FastifyInstance): { url: string; args: string[] } {
  if (app.config.mqttUrl) return { url: app.config.mqttUrl, args: [] };
  if (app.brokerTlsPort === null || !app.tls) return { url: `mqtt://127.0.0.1:${app.mqtt.options.port}`, args: [] };
  const name = app.tls.current.names[0] ?? 'localhost';
  const ip = net.isIP(name) !== 0;
  // An address of this machine is connected to as it is; a DNS name goes in the handshake (SNI) and the name check.
  const host = ip ? (name.includes(':') ? `[${name}]` : name) : '127.0.0.1';
  return { url: `mqtts://${host}:${app.brokerTlsPort}`, args: ['--ca', app.tls.files.certFile, ...(ip ? [] : ['--servername', name])] };
}

/**
 * Wear scenarios of the demo fleet (docs/condition.md): DEMO-0002..0004 age, four months of wear
 * per real hour, so their condition score falls within an hour or two of a demo.
 */
const DEMO_WEAR: Record<number, WearSpec> = {
  1: { scenario: 'batteryAgeing', ageDaysPerHour: 120 },
  2: { scenario: 'stiffDrive', ageDaysPerHour: 120 },
  3: { scenario: 'chatteringFlap', ageDaysPerHour: 120 },
};

/**
 * Firmware updates of the demo fleet (docs/firmware.md): every demo lift trusts its maker's
 * signing key and waits a twentieth of a real lift's times (a retry in 3 s, not a minute), so
 * a campaign runs through in a minute or two; DEMO-0002's download is cut at 40 % and resumes,
 * DEMO-0003's image arrives corrupted and fails its hash check.
 */
const DEMO_OTA_WAIT_SCALE = 0.05;
const DEMO_OTA: Record<number, OtaSpec> = {
  1: { cutDownloadAt: 0.4 },
  2: { corruptImage: true },
};

/** Demo lifts that get a history on their first start (DEMO-0001..0020; about 0.85 s each on PGlite). */
const DEMO_HISTORY_MAX_LIFTS = 20;

/** Embedded mode with SIMULATOR=N: provisions the demo lifts, writes the new ones' history (demo-history.ts) and runs them. */
export default fp(async (app) => {
  const count = app.config.simulator;
  if (count <= 0) return;
  const lifts = await ensureDemoFleet(app.database.sql, count);
  // A larger fleet is a load test: the first lifts' history is enough for a demo and keeps the first start short.
  const fresh = lifts.slice(0, DEMO_HISTORY_MAX_LIFTS).filter((l) => l.created);
  if (fresh.length && app.config.demoHistoryDays > 0) {
    const started = performance.now();
    const messages = await backfillDemoHistory(
      app.database.sql,
      fresh.map((l) => ({ id: l.id, deviceNo: l.deviceNo, kind: l.kind, floors: l.floors, utcOffsetHours: l.utcOffset })),
      app.config.demoHistoryDays,
    );
    app.log.info({ lifts: fresh.length, days: app.config.demoHistoryDays, messages, ms: Math.round(performance.now() - started) }, 'demo history written');
    // Writing it grew PGlite's memory, which is never given back (10 to 40 MiB until the next
    // start): its thread is started again on the same files, small (docs/operations.md 7.3).
    await app.database.restart?.();
  }
  await registerWithBroker(app.brokerAdmin, lifts);
  let sim: ReturnType<typeof spawnSimulator> | null = null;
  app.addHook('onReady', async () => {
    const { url, args } = demoFleetBroker(app);
    // The last demo lift raises a fault soon after the start, so a demo shows one within minutes.
    const { demoFaultSeconds } = app.config;
    // Each lift runs the configuration stored last (its history's, or one set before a restart), not the factory one.
    const stored = await app.database.sql.query<{ id: string; config: LiftConfig | null; config_version: number }>(`select id, config, config_version from lifts where id = any($1::uuid[])`, [lifts.map((l) => l.id)]);
    const configs = new Map(stored.filter((r) => r.config && r.config_version > 0).map((r) => [r.id, { config: r.config!, configVersion: r.config_version }]));
    const fleet = lifts.map((l, i) => ({
      ...l,
      ...configs.get(l.id),
      ...(DEMO_WEAR[i] ? { wear: DEMO_WEAR[i] } : {}),
      ...(i === lifts.length - 1 && demoFaultSeconds > 0 ? { faultAfterSeconds: demoFaultSeconds } : {}),
      ota: { waitScale: DEMO_OTA_WAIT_SCALE, ...DEMO_OTA[i] },
    }));
    sim = spawnSimulator(fleet, url, (line) => app.log.debug({ simulator: line }), [...args, '--activity', String(app.config.demoLocalCallsPerHour), ...(await demoFirmwareArgs(app))]);
    sim.ready.then(
      () => app.log.info({ count }, 'demo fleet online'),
      (err: unknown) => app.log.error({ err: err instanceof Error ? err.message : err }, 'demo fleet failed to start'),
    );
  });
  app.addHook('onClose', async () => {
    if (!sim || sim.child.exitCode !== null) return;
    const exited = new Promise((r) => sim!.child.once('exit', r));
    sim.child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3_000))]);
    if (sim.child.exitCode === null) sim.child.kill('SIGKILL');
  });
});

/**
 * The demo lifts trust their maker's signing key, as the factory bench would have written it,
 * and download from this server. Without a key secret (FIRMWARE_KEY_SECRET unset outside the
 * embedded mode) they get none and refuse every offer, as a lift without a key does.
 */
async function demoFirmwareArgs(app: FastifyInstance): Promise<string[]> {
  const [maker] = await app.database.sql.query<{ id: string }>(`select id from organizations where kind = 'manufacturer' order by created_at limit 1`);
  if (!maker) return [];
  try {
    const key = await app.firmware.keys.forOrg(maker.id);
    return ['--firmware-key', key.publicKey, '--firmware-base', app.config.publicUrl];
  } catch (err) {
    app.log.warn({ err: err instanceof Error ? err.message : err }, 'demo lifts trust no firmware key');
    return [];
  }
}
