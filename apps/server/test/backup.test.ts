import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../src/db/client.ts';
import { BACKUP_MAGIC, type BackupManifest } from '../src/modules/backup/format.ts';
import {
  ADMIN_PASSWORD,
  body,
  client,
  DB_KINDS,
  login,
  startTestApp,
  type TestApp,
} from './helpers.ts';
import { freePort, until } from './support/ports.ts';
import { signIn, startServerProcess, type ServerProcess } from './support/server-process.ts';

const SCRIPTS = path.join(import.meta.dirname, '../scripts');

/** Runs `npm run backup` / `npm run restore` as an operator does (the script the npm script runs). */
function script(name: 'backup' | 'restore', args: string[], env: Record<string, string>) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(SCRIPTS, `${name}.ts`), ...args],
    {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    },
  );
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The rows a restore must bring back, by table: static columns only (a running server updates lifts' state). */
const SNAPSHOT = {
  organizations: 'select id, name, kind from organizations order by id',
  users:
    'select id, username, email, password_hash, role_id, org_id, status from users order by id',
  roles: 'select id, name, permissions from roles order by id',
  lifts:
    'select id, device_no, alias, kind, floors, manufacturer_org_id, operator_org_id from lifts order by id',
  configVersions: 'select id, lift_id, version, source, after from lift_config_log order by id',
} as const;

async function snapshot(database: Database): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [name, query] of Object.entries(SNAPSHOT)) out[name] = await database.sql.query(query);
  return out;
}

const runLog = async (database: Database) =>
  (
    await database.sql.query<{ k: string }>(
      `select id || '|' || lift_id || '|' || seq || '|' || code as k from lift_events order by id`,
    )
  ).map((r) => r.k);
const auditRows = async (database: Database) =>
  (
    await database.sql.query<{ k: string }>(
      `select id || '|' || action || '|' || result as k from audit_log order by id`,
    )
  ).map((r) => r.k);

function readManifest(file: string): BackupManifest {
  const bytes = readFileSync(file);
  const end = bytes.indexOf(0x0a, BACKUP_MAGIC.length);
  return JSON.parse(bytes.subarray(BACKUP_MAGIC.length, end).toString('utf8')) as BackupManifest;
}

/** One line on stderr, exit code 1, and the target folder as it was. */
function expectRefusal(run: ReturnType<typeof script>, line: RegExp): void {
  expect(run.code, run.stderr).toBe(1);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(line);
}

describe('backup and restore of the embedded database', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'liftlink-backup-'));
  const source = path.join(root, 'source');
  const file = path.join(root, 'online.llbackup');
  let server: ServerProcess | null = null;
  let token: string;
  let manifest: BackupManifest;
  const sourceEnv = () => ({ DATA_DIR: source });
  // The administrator's downloads of the source, each audited.
  let downloads = 0;

  /** The source server, started again if a test stopped it: a server with three simulated lifts (the simulator speaks MQTT to the embedded broker). */
  async function running(): Promise<ServerProcess> {
    if (!server) {
      server = await startServerProcess({
        DATA_DIR: source,
        SIMULATOR: '3',
        MQTT_PORT: String(await freePort()),
        HEARTBEAT_SECONDS: '10',
      });
      token = await signIn(server);
    }
    return server;
  }
  /** The source server stopped, for a test that opens its folder or backs it up offline. */
  async function stopped(): Promise<void> {
    await server?.stop();
    server = null;
  }
  /** Downloads a backup of the source through the API as the administrator. */
  async function download(to: string): Promise<Response> {
    const res = await fetch(`${(await running()).url}/auth/access/system/backup`, {
      headers: { 'access-token': token },
    });
    expect(res.status).toBe(200);
    writeFileSync(to, Buffer.from(await res.arrayBuffer()));
    downloads++;
    return res;
  }

  beforeAll(async () => {
    mkdirSync(source);
    server = await running();
    const org = await server.api(
      'POST',
      '/auth/access/system/orgs/create',
      { name: 'Backup Operator', kind: 'operator' },
      token,
    );
    expect(org.status, JSON.stringify(org.body)).toBe(200);
    const roles = await server.api<{ list: { id: string; name: string }[] }>(
      'GET',
      '/auth/access/system/roles',
      undefined,
      token,
    );
    const viewer = roles.body.result.list.find((r) => r.name === 'viewer')!;
    const user = await server.api(
      'POST',
      '/auth/access/system/users/create',
      {
        username: 'backup-viewer',
        name: 'Viewer',
        password: 'Viewer-Pass-9241',
        roleId: viewer.id,
      },
      token,
    );
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    // The lifts have spoken: entries in their run logs and their first configuration versions.
    await until(
      'run-log entries of every lift',
      async () => {
        const list = (
          await server!.api<{ list: { id: string; online: boolean }[] }>(
            'GET',
            '/auth/access/lift/get',
            undefined,
            token,
          )
        ).body.result.list;
        return list.length === 3 && list.every((l) => l.online);
      },
      90_000,
      500,
    );
    // A configuration version to carry over: an administrator changes one lift's settings.
    const lift = (await server.api<{ list: { id: string }[] }>('GET', '/auth/access/lift/get', undefined, token)).body.result.list[0]!;
    const read = await server.api<{ config: Record<string, unknown>; version: number }>('POST', '/auth/access/lift/config/read', { liftId: lift.id }, token);
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const changed = await server.api(
      'POST',
      '/auth/access/lift/run/setting/update',
      { liftId: lift.id, config: { ...read.body.result.config, stopDecelMs: 1500 }, version: read.body.result.version, confirmReconfigure: true },
      token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // The backup the restore tests work from, taken while the lifts speak.
    await download(file);
    manifest = readManifest(file);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('an administrator downloads a backup through the API while ingest goes on', async () => {
    const live = await running();
    const viewer = await signIn(live, 'backup-viewer', 'Viewer-Pass-9241');
    const denied = await fetch(`${live.url}/auth/access/system/backup`, {
      headers: { 'access-token': viewer },
    });
    expect(denied.status).toBe(403);

    const info = await live.api<{ database: string; counts: Record<string, number> }>(
      'GET',
      '/auth/access/system/backup/info',
      undefined,
      token,
    );
    expect(info.body.result.database).toBe('pglite');
    const entriesBefore = info.body.result.counts.lift_events!;

    const own = path.join(root, 'api.llbackup');
    const res = await download(own);
    expect(res.headers.get('content-disposition')).toMatch(
      /attachment; filename="liftlink-backup-\d{8}-\d{4}\.llbackup"/,
    );
    const taken = readManifest(own);
    expect(taken).toMatchObject({
      format: 'liftlink-backup',
      product: 'LiftLink',
      database: 'pglite',
    });
    expect(taken.counts.lift_events).toBeGreaterThanOrEqual(entriesBefore);

    // Ingest did not stop: a lift called to another floor writes its trip to the run log
    // after the backup.
    const lifts = await live.api<{ list: { id: string }[] }>('GET', '/auth/access/lift/get', undefined, token);
    let floor = 1;
    await until(
      'new run-log entries after the backup',
      async () => {
        floor = floor === 1 ? 2 : 1;
        await live.api('POST', '/auth/access/lift/control', { liftId: lifts.body.result.list[0]!.id, command: 'summon', args: { floor } }, token);
        const now = await live.api<{ counts: Record<string, number> }>(
          'GET',
          '/auth/access/system/backup/info',
          undefined,
          token,
        );
        return now.body.result.counts.lift_events! > taken.counts.lift_events!;
      },
      60_000,
      500,
    );
  }, 120_000);

  it('the CLI refuses to copy the database under a running server', async () => {
    await running();
    const run = script('backup', ['--out', path.join(root, 'refused.llbackup')], sourceEnv());
    expectRefusal(run, /the server is running/);
  }, 120_000);

  it('restores into a new data folder: every organization, user, lift, configuration version, run-log entry and audit row is there', async () => {
    const target = path.join(root, 'restored');
    const run = script('restore', [file], { DATA_DIR: target });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^restored the backup of /);

    // The restored folder starts as a server, and the administrator signs in.
    const restored = await startServerProcess({
      DATA_DIR: target,
      MQTT_PORT: String(await freePort()),
    });
    try {
      const t = await signIn(restored, 'admin', ADMIN_PASSWORD);
      const lifts = await restored.api<{ list: unknown[] }>(
        'GET',
        '/auth/access/lift/get',
        undefined,
        t,
      );
      expect(lifts.body.result.list).toHaveLength(3);
      expect(await signIn(restored, 'backup-viewer', 'Viewer-Pass-9241')).toBeTruthy();
    } finally {
      await restored.stop();
    }

    // Both folders side by side, with both servers stopped.
    await stopped();
    const a = await openPglite(source);
    const b = await openPglite(target);
    try {
      expect(await snapshot(b)).toEqual(await snapshot(a));
      for (const table of ['organizations', 'users', 'lifts', 'lift_config_log'] as const) {
        const [row] = await b.sql.query<{ n: string }>(`select count(*) as n from ${table}`);
        expect(Number(row!.n), table).toBe(manifest.counts[table]);
      }
      expect(manifest.counts.lift_config_log).toBeGreaterThanOrEqual(1);
      // The run log and the audit log as they were at the backup: a prefix of the source's,
      // which went on storing after it.
      const [logA, logB] = [await runLog(a), await runLog(b)];
      expect(logB.length).toBeGreaterThanOrEqual(manifest.counts.lift_events!);
      expect(logA.slice(0, logB.length)).toEqual(logB);
      const [auditA, auditB] = [await auditRows(a), await auditRows(b)];
      // The restored server audited its own sign-ins after the backup's rows.
      const backedUp = manifest.counts.audit_log!;
      expect(auditB.length).toBeGreaterThanOrEqual(backedUp);
      expect(auditB.slice(0, backedUp)).toEqual(auditA.slice(0, backedUp));
      expect(auditB.slice(backedUp).every((row) => row.endsWith('|auth.login|ok'))).toBe(true);
      // Each download is audited, with who took it.
      const taken = await a.sql.query<{ username: string; result: string }>(
        `select username, result from audit_log where action = 'system.backup'`,
      );
      expect(taken).toEqual(Array.from({ length: downloads }, () => ({ username: 'admin', result: 'ok' })));
    } finally {
      await a.close();
      await b.close();
    }
  }, 240_000);

  it('refuses a non-empty folder, a foreign, truncated or damaged file and a newer schema, one line each', () => {
    const empty = path.join(root, 'empty');
    const notEmpty = path.join(root, 'not-empty');
    mkdirSync(notEmpty);
    writeFileSync(path.join(notEmpty, 'keep.txt'), 'x');
    expectRefusal(
      script('restore', [file], { DATA_DIR: notEmpty }),
      /is not empty: restore into an empty DATA_DIR/,
    );
    expect(readdirSync(notEmpty)).toEqual(['keep.txt']);

    const bytes = readFileSync(file);
    const variants: [string, Buffer, RegExp][] = [
      [
        'foreign',
        Buffer.from('PK\u0003\u0004 a zip file, not ours'),
        /this file is not a LiftLink backup/,
      ],
      [
        'truncated',
        bytes.subarray(0, Math.floor(bytes.length * 0.6)),
        /the backup is truncated: \d+ of \d+ bytes/,
      ],
      [
        'damaged',
        Buffer.concat([bytes.subarray(0, bytes.length - 10), Buffer.from('0123456789')]),
        /the backup is damaged/,
      ],
    ];
    const newer = { ...manifest, migrations: [...manifest.migrations, '9999_from_the_future.sql'] };
    const payload = bytes.subarray(bytes.indexOf(0x0a, BACKUP_MAGIC.length) + 1);
    variants.push([
      'newer',
      Buffer.concat([Buffer.from(`${BACKUP_MAGIC}${JSON.stringify(newer)}\n`), payload]),
      /newer schema \(9999_from_the_future\.sql\).*update LiftLink first/,
    ]);
    for (const [name, content, line] of variants) {
      const bad = path.join(root, `${name}.llbackup`);
      writeFileSync(bad, content);
      expectRefusal(script('restore', [bad], { DATA_DIR: empty }), line);
      expect(readdirSync(root)).not.toContain('empty');
    }
  }, 120_000);

  it('backs up a stopped server with the CLI, and the copy restores whole', async () => {
    await stopped();
    const out = path.join(root, 'offline.llbackup');
    const run = script('backup', ['--out', out], sourceEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^wrote .*offline\.llbackup/);
    const again = script('backup', ['--out', out], sourceEnv());
    expectRefusal(again, /exists already/);

    const target = path.join(root, 'offline-restored');
    expect(script('restore', [out], { DATA_DIR: target }).code).toBe(0);
    const a = await openPglite(source);
    const b = await openPglite(target);
    try {
      expect(await snapshot(b)).toEqual(await snapshot(a));
      expect(await runLog(b)).toEqual(await runLog(a));
      expect(await auditRows(b)).toEqual(await auditRows(a));
    } finally {
      await a.close();
      await b.close();
    }
  }, 120_000);

  it('with DATABASE_URL both commands name pg_dump and pg_restore', () => {
    const env = {
      DATABASE_URL: 'postgres://liftlink@db.invalid:5432/liftlink',
      DATA_DIR: path.join(root, 'unused'),
    };
    expectRefusal(
      script('backup', ['--out', path.join(root, 'pg.llbackup')], env),
      /PostgreSQL.*pg_dump.*docs\/operations\.md/,
    );
    expectRefusal(script('restore', [file], env), /PostgreSQL.*pg_restore.*docs\/operations\.md/);
  }, 60_000);
});

describe.each(DB_KINDS.filter((k) => k === 'postgres'))('backup through the API on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  }, 180_000);
  afterAll(async () => t?.close());

  it('says that pg_dump is the tool, and the page knows it', async () => {
    const admin = client(t.app, await login(t.app, 'admin', ADMIN_PASSWORD));
    const res = await admin.get('/auth/access/system/backup');
    expect(res.statusCode).toBe(409);
    expect(body(res)).toMatchObject({ success: false, code: 'backup.external' });
    expect(body(res).msg).toMatch(/pg_dump/);
    expect(body(await admin.get('/auth/access/system/backup/info')).result).toMatchObject({
      database: 'postgres',
      dataBytes: null,
    });
  });
});
