import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { CONFIG_FIELDS, DEVICE_KINDS, KIND_PROFILES, defaultConfig, type DeviceKind } from '@liftlink/protocol';
import type { SqlExecutor } from '../../db/client.ts';
import { tarGz, type TarEntry } from './tar.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
export const BRIDGE_DIR = path.join(ROOT, 'apps/serial-bridge');
const PROTOCOL_DIR = path.join(ROOT, 'packages/protocol');
export const BRIDGE_PACKAGE_NAME = 'liftlink-serial-bridge.tgz';
const TSX_RANGE = '^4.20.0';

/** The source files of a folder for a package: no tests, no build output, no dependencies. */
function sourceFiles(dir: string, sub = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!['node_modules', 'test', 'dist'].includes(entry.name)) out.push(...sourceFiles(dir, rel));
    } else if (/\.(ts|md)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/**
 * The serial bridge as a package for the manufacturer's PC (spec: plugin download): its
 * source and README, with the protocol package it imports vendored under
 * `vendor/protocol`, and a package.json that installs with a plain `npm install` and
 * runs with `npm start`. Null when the bridge source is not deployed next to the server.
 */
export async function buildBridgePackage(): Promise<Buffer | null> {
  if (!existsSync(path.join(BRIDGE_DIR, 'src/main.ts'))) return null;
  const pkg = JSON.parse(readFileSync(path.join(BRIDGE_DIR, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; [k: string]: unknown };
  const protocolPkg = JSON.parse(readFileSync(path.join(PROTOCOL_DIR, 'package.json'), 'utf8')) as Record<string, unknown>;
  const top = 'liftlink-serial-bridge';
  const bundlePkg = {
    name: top,
    version: pkg.version,
    description: 'LiftLink serial bridge: the factory bench web page talks to a USB serial port through it',
    private: true,
    type: 'module',
    engines: { node: '>=20.19' },
    scripts: { start: 'tsx src/main.ts' },
    dependencies: { ...pkg.dependencies, '@liftlink/protocol': 'file:vendor/protocol', tsx: TSX_RANGE },
  };
  const files: { rel: string; abs: string }[] = [
    ...sourceFiles(BRIDGE_DIR).filter((f) => f.startsWith('src/') || f === 'README.md').map((rel) => ({ rel, abs: path.join(BRIDGE_DIR, rel) })),
    ...sourceFiles(PROTOCOL_DIR, 'src').map((rel) => ({ rel: `vendor/protocol/${rel}`, abs: path.join(PROTOCOL_DIR, rel) })),
  ];
  const mtime = Math.max(...files.map((f) => statSync(f.abs).mtimeMs));
  const entries: TarEntry[] = [
    { path: `${top}/package.json`, data: Buffer.from(`${JSON.stringify(bundlePkg, null, 2)}\n`) },
    { path: `${top}/vendor/protocol/package.json`, data: Buffer.from(`${JSON.stringify({ ...protocolPkg, private: true }, null, 2)}\n`) },
    ...files.map((f) => ({ path: `${top}/${f.rel}`, data: readFileSync(f.abs) })),
  ];
  return tarGz(entries, mtime);
}

const KIND_TITLES: Record<DeviceKind, string> = {
  inclinedStraightRack: 'Inclined straight rack lift / 斜挂直齿条升降平台',
  inclined2dRack: 'Inclined two-dimensional rack lift / 斜挂二维齿条升降平台',
  inclined2dSprocket: 'Inclined two-dimensional sprocket lift / 斜挂二维链轮升降平台',
  inclined3dSprocket: 'Inclined three-dimensional sprocket lift / 斜挂三维链轮升降平台',
  verticalHydraulic: 'Vertical hydraulic lift / 垂直液压升降平台',
};

/** A commissioning manual per device kind: the factory bench steps and the kind's factory configuration. */
export function buildManual(kind: DeviceKind): string {
  const profile = KIND_PROFILES[kind];
  const config = defaultConfig(kind, 2);
  const rows = CONFIG_FIELDS.filter((f) => f.floor === undefined || f.floor <= 2).map(
    (f) => `| \`${f.key}\` | ${f.part} | ${f.unit ?? ''} | ${f.min ?? ''}${f.min !== undefined || f.max !== undefined ? ' … ' : ''}${f.max ?? ''}${f.options ? f.options.join(', ') : ''} | \`${String(config[f.key])}\` |`,
  );
  return `# ${KIND_TITLES[kind]}

Commissioning manual, LiftLink controller, serial protocol 1.

## 1. The kind

- Distance between landings of the reference layout: ${profile.floorSpacing / 10} mm
- Drive: ${profile.platformParts ? profile.platformMode : 'hydraulic'}; rapid speed ${profile.rapidSpeed} mm/s; rated load ${profile.ratedLoad} kg
- Platform parts (guardrails, flaps, pedal): ${profile.platformParts ? 'motorized' : 'none (gates)'}
- Floors: 1 to 4. Parts: J (housing / traction room) and P (platform).

## 2. At the factory bench (Equipment management → Device management)

1. Connect the controller's service port to the PC with the USB serial cable. Settings: 115200 baud, 8 data bits, no parity, 1 stop bit.
2. Open the serial port: with Chrome or Edge directly (Web Serial); with another browser, start the serial bridge (plugin download) and pair it with the code the page shows.
3. Refresh the handshake: the page shows the device number (none on a new controller), kind, floors, firmware and the controller serial.
4. Assign a device number. "Device has been registered, check and retry": the number belongs to another controller. "Device does not match": the controller on the cable is not the one of this lift record: refresh the list.
5. Get new IoT credentials and write them to the controller. The secret is shown once. The lift comes online within seconds.
6. Write the configuration and save it to the controller's flash. Set the polling channels (1 to 10) and the data conversion if the lift has extra Modbus devices on its RS-485 port.
7. Resetting the IoT credentials disconnects the lift at once; it stays offline until new ones are written.

## 3. Factory configuration (2 floors)

| Key | Part | Unit | Range / options | Default |
| --- | --- | --- | --- | --- |
${rows.join('\n')}
`;
}

export interface SeedDocument {
  seedKey: string;
  name: string;
  kind: 'manual' | 'bridge';
  deviceKind: DeviceKind | null;
  contentType: string;
  data: Buffer;
}

export async function seedDocuments(): Promise<SeedDocument[]> {
  const docs: SeedDocument[] = DEVICE_KINDS.map((kind) => ({
    seedKey: `manual:${kind}`,
    name: `LiftLink manual - ${kind}.md`,
    kind: 'manual',
    deviceKind: kind,
    contentType: 'text/markdown; charset=utf-8',
    data: Buffer.from(buildManual(kind)),
  }));
  const bridge = await buildBridgePackage();
  if (bridge) docs.push({ seedKey: 'bridge', name: BRIDGE_PACKAGE_NAME, kind: 'bridge', deviceKind: null, contentType: 'application/gzip', data: bridge });
  return docs;
}

/** Inserts the seeded documents, refreshes changed ones, and leaves the ones an administrator deleted deleted. */
export async function storeSeedDocuments(sql: SqlExecutor, docs: SeedDocument[]): Promise<void> {
  for (const doc of docs) {
    const sha = createHash('sha256').update(doc.data).digest('hex');
    await sql.query(
      `insert into documents (name, kind, device_kind, content_type, size, sha256, data, seed_key)
       values ($1, $2, $3, $4, $5, $6, $7, $8)
       on conflict (seed_key) do update set name = excluded.name, content_type = excluded.content_type, size = excluded.size,
         sha256 = excluded.sha256, data = excluded.data, created_at = now()
       where documents.deleted_at is null and documents.sha256 <> excluded.sha256`,
      [doc.name, doc.kind, doc.deviceKind, doc.contentType, doc.data.length, sha, doc.data, doc.seedKey],
    );
  }
}
